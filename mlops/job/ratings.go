package job

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/storage"
)

// ratingsSource is a recommender source read whole, and how its ids are typed.
type ratingsSource struct {
	all                    recommender.Ratings
	user, item, rating     string
	userIsText, itemIsText bool
}

// readRatings reads the (user, item, rating) triples of files. Every rank
// reads them all: the split of the ratings, their scale, the items'
// counts and the dealing of each mini-batch's users to the workers are
// over every rating, so that the ranks train what one process does; the
// ranks share the work of every mini-batch and of each evaluation.
func readRatings(ctx context.Context, db *storage.DB, files []string, spec Spec) (*ratingsSource, error) {
	src := &ratingsSource{}
	src.user, src.item, src.rating = spec.columns()
	scan := storage.Parquet{Files: files}
	cols, err := scan.Describe(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	kinds := columnKinds(cols, []string{src.user, src.item})
	src.userIsText, src.itemIsText = kinds[0] != "int", kinds[1] != "int"
	idType := func(text bool) storage.TypeID {
		if text {
			return storage.TypeVarchar
		}
		return storage.TypeBigInt
	}
	scan.Columns = []storage.Cast{{Column: src.user, Type: idType(src.userIsText)},
		{Column: src.item, Type: idType(src.itemIsText)}, {Column: src.rating, Type: storage.TypeDouble}}
	r, err := scan.Read(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	defer r.Close()
	b := recommender.NewBuilder(recommender.DuplicatesError)
	for r.Next() {
		batch := r.Batch()
		vals := batch.Column(2).(*array.Float64)
		for row := range int(batch.NumRows()) {
			user, uok := id(batch.Column(0), row)
			item, iok := id(batch.Column(1), row)
			if !uok || !iok || vals.IsNull(row) {
				return nil, fmt.Errorf("read source: row with a NULL user, item or rating (user %v, item %v)", user, item)
			}
			if err := b.Add(user, item, vals.Value(row)); err != nil {
				return nil, fmt.Errorf("read source: %w", err)
			}
		}
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	if src.all, err = b.Finish(); err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	return src, nil
}

// id is the id in row of a BIGINT or VARCHAR column; false for NULL.
func id(col arrow.Array, row int) (recommender.ID, bool) {
	if col.IsNull(row) {
		return recommender.ID{}, false
	}
	if s, ok := col.(*array.String); ok {
		return recommender.Text(strings.Clone(s.Value(row))), true
	}
	return recommender.Int(col.(*array.Int64).Value(row)), true
}

// columns are the source's columns as the registry's header of a
// recommender artifact records them.
func (src *ratingsSource) columns() recommender.Columns {
	return recommender.Columns{User: src.user, Item: src.item, Rating: src.rating, UserIsText: src.userIsText, ItemIsText: src.itemIsText}
}
