package sqlfront

import (
	"github.com/mallard/mallard/sqlfront/pgcodec"
	"github.com/mallard/mallard/sqltype"
)

// typeArrayParams prepares text again with the list types DuckDB inferred
// for the untyped parameters first compares with ANY or ALL (see
// plan.Statement.ArrayParams), declared as if the client had declared
// them, and returns that statement in place of first. oids are the types
// the client declared. Where DuckDB inferred no list type, or the second
// prepare fails, first stands.
func (s *session) typeArrayParams(text string, oids []uint32, first *prepared) *prepared {
	if first.stmt == nil {
		return first
	}
	inferred := first.stmt.Params()
	types := make([]string, len(inferred))
	for i := range types {
		if i < len(oids) {
			types[i] = pgcodec.DuckDBType(oids[i])
		}
	}
	typed := false
	for _, i := range first.plan.ArrayParams {
		if i < len(inferred) && inferred[i].ID == sqltype.List && inferred[i].Elem != nil {
			types[i], typed = inferred[i].String(), true
		}
	}
	if !typed {
		return first
	}
	p, err := s.prepare(s.srv.planner.PlanParse(text, types))
	if err != nil {
		return first
	}
	first.close()
	return p
}
