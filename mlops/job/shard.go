package job

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

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
		csv, err := filepath.Abs(filepath.Join(dir, fmt.Sprintf("shard-%05d.csv", p)))
		if err != nil {
			return err
		}
		if err := writeShardCSV(csv, train, test, &s, p); err != nil {
			return err
		}
		query := "SELECT * FROM read_csv(" + literal(csv) + ", header = true, " +
			"columns = {'user_index': 'BIGINT', 'item_index': 'INTEGER', 'rating': 'DOUBLE', 'test': 'BOOLEAN'}) ORDER BY user_index, item_index"
		err = WriteQuery(ctx, filepath.Join(dir, fmt.Sprintf("shard-%05d.parquet", p)), query)
		os.Remove(csv)
		if err != nil {
			return err
		}
	}
	return nil
}

// writeShardCSV writes the ratings of process p's users, every value
// exactly (a float32 is exact as a float64 in its shortest form).
func writeShardCSV(path string, train, test recommender.Ratings, s *recommender.Shard, p int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString("user_index,item_index,rating,test\n")
	for u := range train.Users {
		if s.Owner(u) != p {
			continue
		}
		for k, r := range []recommender.Ratings{train, test} {
			items, vals := r.Row(u)
			for i, j := range items {
				fmt.Fprintf(w, "%d,%d,%s,%t\n", u, j, strconv.FormatFloat(float64(vals[i]), 'g', -1, 64), k == 1)
			}
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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
	r, err := db.Read(ctx, "SELECT CAST(user_index AS BIGINT), CAST(item_index AS BIGINT), CAST(rating AS DOUBLE), test FROM read_parquet("+literal(files[rank])+") ORDER BY user_index, item_index")
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
