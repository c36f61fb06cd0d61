package job

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/storage"
)

// ShardFile is the name of a sharded recommender job's statistics over
// every rating (recommender.Shard's JSON), and shardPattern the names of
// its source files, one per rank, in rank order.
const (
	ShardFile    = "shard.json"
	shardPattern = "shard-*.parquet"
)

// WriteShards writes a recommender job's source sharded across ranks
// into dir, as the SQL server exports it: train and test (every rating,
// split already, by user and item index) into one Parquet file per rank
// holding that rank's users (user u is rank u mod s.Processes's), with
// columns user_index, item_index, rating and test; and s, the statistics that must be
// over every rating, as ShardFile. The spec then names the file in Shard.
// So each rank reads only its own users' ratings, and none splits or
// counts anything of its own.
func WriteShards(ctx context.Context, dir string, train, test recommender.Ratings, s recommender.Shard) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, ShardFile), data); err != nil {
		return err
	}
	for p := range s.Processes {
		if err := writeShard(ctx, filepath.Join(dir, fmt.Sprintf("shard-%05d.parquet", p)), train, test, &s, p); err != nil {
			return err
		}
	}
	return nil
}

// shardRating is one rating of a shard file.
type shardRating struct {
	item  int32
	value float32
	test  bool
}

// writeShard writes the ratings of process p's users to the Parquet file
// at path, ordered by user and item, every value exactly (a float32 is
// exact as a float64).
func writeShard(ctx context.Context, path string, train, test recommender.Ratings, s *recommender.Shard, p int) error {
	schema := arrow.NewSchema([]arrow.Field{{Name: "user_index", Type: arrow.PrimitiveTypes.Int64},
		{Name: "item_index", Type: arrow.PrimitiveTypes.Int32}, {Name: "rating", Type: arrow.PrimitiveTypes.Float64},
		{Name: "test", Type: arrow.FixedWidthTypes.Boolean}}, nil)
	w, err := createParquet(path, schema)
	if err != nil {
		return err
	}
	var user []shardRating
	for u := range train.Users {
		if s.Owner(u) != p {
			continue
		}
		if err := ctx.Err(); err != nil {
			w.abort()
			return err
		}
		user = user[:0]
		for k, r := range []recommender.Ratings{train, test} {
			items, vals := r.Row(u)
			for i, j := range items {
				user = append(user, shardRating{j, vals[i], k == 1})
			}
		}
		slices.SortStableFunc(user, func(a, b shardRating) int { return cmp.Compare(a.item, b.item) })
		for _, r := range user {
			w.b.Field(0).(*array.Int64Builder).Append(int64(u))
			w.b.Field(1).(*array.Int32Builder).Append(r.item)
			w.b.Field(2).(*array.Float64Builder).Append(float64(r.value))
			w.b.Field(3).(*array.BooleanBuilder).Append(r.test)
			if err := w.endRow(); err != nil {
				w.abort()
				return err
			}
		}
	}
	return w.close()
}

// readShard reads this rank's part of a sharded recommender job: the
// statistics, and the training and test ratings of its own users (the
// others' rows empty), from its own file only.
func readShard(ctx context.Context, db *storage.DB, dir string, spec Spec, files []string, rank, ranks int) (*recommender.Shard, recommender.Ratings, recommender.Ratings, error) {
	var s recommender.Shard
	var train, test recommender.Ratings
	data, err := os.ReadFile(filepath.Join(dir, spec.Shard))
	if err != nil {
		return nil, train, test, fmt.Errorf("read the shard statistics: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, train, test, fmt.Errorf("read the shard statistics %s: %w", spec.Shard, err)
	}
	if s.Processes != ranks || len(files) != ranks {
		return nil, train, test, fmt.Errorf("job spec: the source is sharded for %d ranks in %d files, and the job runs as %d ranks", s.Processes, len(files), ranks)
	}
	if len(s.Rated) != s.Users || len(s.Counts) != s.Items {
		return nil, train, test, fmt.Errorf("read the shard statistics %s: %d users' counts for %d users, %d items' for %d items", spec.Shard, len(s.Rated), s.Users, len(s.Counts), s.Items)
	}
	r, err := storage.Parquet{Files: files[rank : rank+1], OrderBy: []string{"user_index", "item_index"},
		Columns: []storage.Cast{{Column: "user_index", Type: storage.TypeBigInt}, {Column: "item_index", Type: storage.TypeBigInt},
			{Column: "rating", Type: storage.TypeDouble}, {Column: "test", Type: storage.TypeBoolean}}}.Read(ctx, db)
	if err != nil {
		return nil, train, test, fmt.Errorf("read source: %w", err)
	}
	defer r.Close()
	train, test = emptyRatings(s.Users, s.Items), emptyRatings(s.Users, s.Items)
	next := [2]int{} // the next user whose row starts, in train and test
	for r.Next() {
		b := r.Batch()
		users, items, vals, isTest := b.Column(0).(*array.Int64), b.Column(1).(*array.Int64), b.Column(2).(*array.Float64), b.Column(3).(*array.Boolean)
		for row := range int(b.NumRows()) {
			u, j := int(users.Value(row)), items.Value(row)
			if u < 0 || u >= s.Users || j < 0 || j >= int64(s.Items) || s.Owner(u) != rank {
				return nil, train, test, fmt.Errorf("read source: %s has user %d, item %d: not rank %d's of %d users and %d items", files[rank], u, j, rank, s.Users, s.Items)
			}
			k, to := 0, &train
			if isTest.Value(row) {
				k, to = 1, &test
			}
			for ; next[k] <= u; next[k]++ {
				to.Ptr[next[k]] = len(to.Item)
			}
			to.Item, to.Value = append(to.Item, int32(j)), append(to.Value, float32(vals.Value(row)))
		}
	}
	if err := r.Err(); err != nil {
		return nil, train, test, fmt.Errorf("read source: %w", err)
	}
	for k, to := range []*recommender.Ratings{&train, &test} {
		for ; next[k] <= s.Users; next[k]++ {
			to.Ptr[next[k]] = len(to.Item)
		}
	}
	return &s, train, test, nil
}

// emptyRatings are ratings of users and items with no row yet.
func emptyRatings(users, items int) recommender.Ratings {
	return recommender.Ratings{Users: users, Items: items, Ptr: make([]int, users+1)}
}
