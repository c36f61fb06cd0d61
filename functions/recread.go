//go:build duckdb_arrow

package functions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

// ratings reads the source's ratings into sparse rows: Arrow batches
// straight into the rows, with no users x items array. The query has no
// ORDER BY, which would make DuckDB hold a sorted copy of every rating; the
// rows are formed in Go (see recommender.Builder), numbered by id, so the
// result does not depend on the order DuckDB returns them in.
func (j *recJob) ratings(ctx context.Context, mem *training.Memory) (recommender.Ratings, error) {
	u, i, r := ident(j.cols.User), ident(j.cols.Item), "1"
	if !j.cols.Implicit {
		r = ident(j.cols.Rating)
	}
	from := j.src.from
	if j.minUserRatings > 1 {
		from += fmt.Sprintf(" WHERE %s IN (SELECT %s FROM %s GROUP BY %s HAVING count(*) >= %d)", u, u, j.src.from, u, j.minUserRatings)
	}
	n, err := j.count(ctx, from)
	if err != nil {
		return recommender.Ratings{}, err
	}
	if n == 0 && j.minUserRatings > 1 {
		return recommender.Ratings{}, j.noUserLeft(ctx)
	}
	if n == 0 {
		return recommender.Ratings{}, sqlstate.New(sqlstate.DataException, "%s: source %s has no ratings", trainRecommenderName, quote(j.src.text))
	}
	if err := mem.Reserve(ctx, recommender.RatingsBytes(n), fmt.Sprintf("%s's ratings (%d)", trainRecommenderName, n)); err != nil {
		return recommender.Ratings{}, err
	}
	query := fmt.Sprintf("SELECT CAST(%s AS %s), CAST(%s AS %s), CAST(%s AS DOUBLE) FROM %s",
		u, idType(j.cols.UserIsText), i, idType(j.cols.ItemIsText), r, from)
	rd, err := j.c.read(ctx, query)
	if err != nil {
		return recommender.Ratings{}, j.src.wrap(err)
	}
	defer rd.Close()
	b := recommender.NewBuilder(j.duplicates)
	b.Grow(int(n))
	for rd.Next() {
		if err := j.addBatch(b, rd.Batch(), r); err != nil {
			return recommender.Ratings{}, err
		}
	}
	if err := rd.Err(); err != nil {
		return recommender.Ratings{}, j.src.wrap(err)
	}
	out, err := b.Finish()
	if err != nil {
		return out, j.addError(err)
	}
	if n := b.Merged(); n > 0 {
		j.c.caller.Notice(fmt.Sprintf("%s: %d duplicate ratings averaged into others", trainRecommenderName, n))
	}
	return out, nil
}

// addBatch adds the ratings of batch, whose columns are the user, the
// item and the rating (the expression r), to b.
func (j *recJob) addBatch(b *recommender.Builder, batch arrow.RecordBatch, r string) error {
	users, items := idColumn(batch.Column(0)), idColumn(batch.Column(1))
	vals, valid := floats(batch.Column(2))
	for row := range int(batch.NumRows()) {
		user, item := users(row), items(row)
		switch {
		case user == nil:
			return j.nullError("user", j.cols.User)
		case item == nil:
			return j.nullError("item", j.cols.Item)
		case !valid(row):
			return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: the rating of user %v for item %v is NULL",
				trainRecommenderName, user, item).WithHint("Leave unrated pairs out of the source: ... WHERE %s IS NOT NULL.", r)
		}
		if err := b.Add(*user, *item, vals[row]); err != nil {
			return j.addError(err)
		}
	}
	return nil
}

// count returns the number of rows of a FROM clause.
func (j *recJob) count(ctx context.Context, from string) (int64, error) {
	return j.readInt(ctx, "SELECT count(*) FROM "+from)
}

// noUserLeft is the error of a min_user_ratings that no user of the source
// reaches: it says how many ratings the most active user has.
func (j *recJob) noUserLeft(ctx context.Context) error {
	u := ident(j.cols.User)
	most, err := j.readInt(ctx, fmt.Sprintf("SELECT CAST(coalesce(max(n), 0) AS BIGINT) FROM (SELECT count(*) AS n FROM %s GROUP BY %s)", j.src.from, u))
	if err != nil {
		return err
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: min_user_ratings := %d leaves no user: the most ratings a user of %s has is %d",
		trainRecommenderName, j.minUserRatings, quote(j.src.text), most).WithHint("Lower min_user_ratings to at most %d.", max(most, 1))
}

// readInt reads the BIGINT that query returns in its first row.
func (j *recJob) readInt(ctx context.Context, query string) (int64, error) {
	return readInt(ctx, j.c, j.src, query)
}

func (j *recJob) nullError(arg, col string) error {
	return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: %s column %s has a NULL", trainRecommenderName, arg, col).
		WithHint("Leave those rows out of the source: ... WHERE %s IS NOT NULL.", ident(col))
}

// addError is the SQL error of a rating the builder refused.
func (j *recJob) addError(err error) error {
	var dup *recommender.DuplicateError
	switch {
	case errors.As(err, &dup):
		return sqlstate.New(sqlstate.UniqueViolation, "%s: %v", trainRecommenderName, err).
			WithHint("duplicates := 'avg' keeps the mean of a user's ratings of an item.")
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", trainRecommenderName, err)
}

// idColumn returns the ids of an id column of a batch: nil for NULL.
func idColumn(arr arrow.Array) func(int) *recommender.ID {
	if ints, ok := arr.(*array.Int64); ok {
		return func(i int) *recommender.ID {
			if ints.IsNull(i) {
				return nil
			}
			id := recommender.Int(ints.Value(i))
			return &id
		}
	}
	texts := arr.(interface {
		arrow.Array
		Value(int) string
	})
	return func(i int) *recommender.ID {
		if texts.IsNull(i) {
			return nil
		}
		id := recommender.Text(strings.Clone(texts.Value(i))) // the batch's memory is reused
		return &id
	}
}
