//go:build duckdb_arrow

package prep

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

// Ratings is a recommender's training data as its source holds them: the
// user, item and rating columns (see RatingColumns), the fewest ratings a
// user must have to be kept, and what a user's several ratings of one
// item become.
type Ratings struct {
	Src            *Source
	Cols           recommender.Columns
	MinUserRatings int64
	Duplicates     recommender.Duplicates
}

// Read reads the source's ratings into sparse rows: Arrow batches
// straight into the rows, with no users x items array. It counts them
// first and calls reserve with their number, which may refuse them. The
// query has no ORDER BY, which would make DuckDB hold a sorted copy of
// every rating; the rows are formed in Go (see recommender.Builder),
// numbered by id, so the result does not depend on the order DuckDB
// returns them in. It tells e how many duplicates it averaged, if any.
func (q *Ratings) Read(ctx context.Context, e Engine, reserve func(n int64) error) (recommender.Ratings, error) {
	u, i, r := Ident(q.Cols.User), Ident(q.Cols.Item), "1"
	if !q.Cols.Implicit {
		r = Ident(q.Cols.Rating)
	}
	from := q.Src.From
	if q.MinUserRatings > 1 {
		from += fmt.Sprintf(" WHERE %s IN (SELECT %s FROM %s GROUP BY %s HAVING count(*) >= %d)", u, u, q.Src.From, u, q.MinUserRatings)
	}
	n, err := q.Src.ReadInt(ctx, e, "SELECT count(*) FROM "+from)
	switch {
	case err != nil:
		return recommender.Ratings{}, err
	case n == 0 && q.MinUserRatings > 1:
		return recommender.Ratings{}, q.noUserLeft(ctx, e)
	case n == 0:
		return recommender.Ratings{}, sqlstate.New(sqlstate.DataException, "%s: source %s has no ratings", q.Src.Fn, Quote(q.Src.Text))
	}
	if err := reserve(n); err != nil {
		return recommender.Ratings{}, err
	}
	query := fmt.Sprintf("SELECT CAST(%s AS %s), CAST(%s AS %s), CAST(%s AS DOUBLE) FROM %s",
		u, IDType(q.Cols.UserIsText), i, IDType(q.Cols.ItemIsText), r, from)
	rd, err := e.Read(ctx, query)
	if err != nil {
		return recommender.Ratings{}, q.Src.Wrap(err)
	}
	defer rd.Close()
	b := recommender.NewBuilder(q.Duplicates)
	b.Grow(int(n))
	for rd.Next() {
		if err := q.addBatch(b, rd.Batch(), r); err != nil {
			return recommender.Ratings{}, err
		}
	}
	if err := rd.Err(); err != nil {
		return recommender.Ratings{}, q.Src.Wrap(err)
	}
	out, err := b.Finish()
	if err != nil {
		return out, q.addError(err)
	}
	if n := b.Merged(); n > 0 {
		e.Notice(fmt.Sprintf("%s: %d duplicate ratings averaged into others", q.Src.Fn, n))
	}
	return out, nil
}

// addBatch adds the ratings of batch, whose columns are the user, the
// item and the rating (the expression r), to b.
func (q *Ratings) addBatch(b *recommender.Builder, batch arrow.RecordBatch, r string) error {
	users, items := IDColumn(batch.Column(0)), IDColumn(batch.Column(1))
	vals, valid := Floats(batch.Column(2))
	for row := range int(batch.NumRows()) {
		user, item := users(row), items(row)
		switch {
		case user == nil:
			return q.nullError("user", q.Cols.User)
		case item == nil:
			return q.nullError("item", q.Cols.Item)
		case !valid(row):
			return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: the rating of user %v for item %v is NULL",
				q.Src.Fn, user, item).WithHint("Leave unrated pairs out of the source: ... WHERE %s IS NOT NULL.", r)
		}
		if err := b.Add(*user, *item, vals[row]); err != nil {
			return q.addError(err)
		}
	}
	return nil
}

// noUserLeft is the error of a MinUserRatings that no user of the source
// reaches: it says how many ratings the most active user has.
func (q *Ratings) noUserLeft(ctx context.Context, e Reader) error {
	most, err := q.Src.ReadInt(ctx, e, fmt.Sprintf("SELECT CAST(coalesce(max(n), 0) AS BIGINT) FROM (SELECT count(*) AS n FROM %s GROUP BY %s)",
		q.Src.From, Ident(q.Cols.User)))
	if err != nil {
		return err
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: min_user_ratings := %d leaves no user: the most ratings a user of %s has is %d",
		q.Src.Fn, q.MinUserRatings, Quote(q.Src.Text), most).WithHint("Lower min_user_ratings to at most %d.", max(most, 1))
}

func (q *Ratings) nullError(arg, col string) error {
	return sqlstate.New(sqlstate.NullValueNotAllowed, "%s: %s column %s has a NULL", q.Src.Fn, arg, col).
		WithHint("Leave those rows out of the source: ... WHERE %s IS NOT NULL.", Ident(col))
}

// addError is the SQL error of a rating the builder refused.
func (q *Ratings) addError(err error) error {
	var dup *recommender.DuplicateError
	if errors.As(err, &dup) {
		return sqlstate.New(sqlstate.UniqueViolation, "%s: %v", q.Src.Fn, err).
			WithHint("duplicates := 'avg' keeps the mean of a user's ratings of an item.")
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", q.Src.Fn, err)
}

// IDColumn returns the ids of an id column of a batch, BIGINT or text:
// nil for NULL.
func IDColumn(arr arrow.Array) func(int) *recommender.ID {
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

// IDType is the SQL type ids are read and returned as.
func IDType(isText bool) string {
	if isText {
		return "VARCHAR"
	}
	return "BIGINT"
}
