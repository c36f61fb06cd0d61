//go:build duckdb_arrow

package prep

import (
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// RatingColumns finds the user, item and rating columns of the source:
// ids of an integer or a text type, and numeric ratings; with rating
// empty, the data are implicit and have no rating column.
func (s *Source) RatingColumns(user, item, rating string) (recommender.Columns, error) {
	out := recommender.Columns{Implicit: rating == ""}
	for _, col := range []struct {
		arg, name string
		dst       *string
		isText    *bool
	}{{"user", user, &out.User, &out.UserIsText}, {"item", item, &out.Item, &out.ItemIsText}, {"rating", rating, &out.Rating, nil}} {
		if col.name == "" {
			continue
		}
		i, err := s.Column(col.arg, col.name)
		if err != nil {
			return out, err
		}
		c := s.Cols[i]
		*col.dst = c.Name
		switch {
		case col.isText == nil && !IsNumeric(c.Type.ID):
			return out, sqlstate.New(sqlstate.DatatypeMismatch, "%s: rating := %s names column %s of type %s; ratings must be numeric",
				s.Fn, Quote(col.name), c.Name, c.Type).WithHint("Cast it in the source: SELECT ..., CAST(%s AS DOUBLE) AS rating FROM ...", Ident(c.Name))
		case col.isText == nil:
		case isInteger(c.Type.ID):
		case c.Type.ID == storage.TypeVarchar:
			*col.isText = true
		default:
			return out, sqlstate.New(sqlstate.DatatypeMismatch, "%s: %s := %s names column %s of type %s; ids must be integers within BIGINT (TINYINT to BIGINT, UTINYINT to UINTEGER) or text",
				s.Fn, col.arg, Quote(col.name), c.Name, c.Type).WithHint("Cast it in the source, for example CAST(%s AS VARCHAR), or CAST(%s AS BIGINT) where its values fit.", Ident(c.Name), Ident(c.Name))
		}
	}
	return out, nil
}

// isInteger reports whether id is an integer type whose values all fit a
// BIGINT.
func isInteger(id storage.TypeID) bool {
	switch id {
	case storage.TypeTinyInt, storage.TypeSmallInt, storage.TypeInteger, storage.TypeBigInt,
		storage.TypeUTinyInt, storage.TypeUSmallInt, storage.TypeUInteger:
		return true
	}
	return false
}
