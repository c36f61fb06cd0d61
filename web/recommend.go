//go:build duckdb_arrow

package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/mallard/mallard/sqlstate"
)

// maxK bounds k on the dashboard: a page shows a table, not a result set.
const maxK = 1000

// recommend is a user's top k items from a recommender version, through
// the recommend function a client would call.
func (s *Server) recommend(r *http.Request) (any, error) {
	name, v, err := s.version(r)
	if err != nil {
		return nil, err
	}
	if v["kind"] != "recommender" {
		return nil, sqlstate.New(sqlstate.WrongObjectType, "model %q is a %s model, not a recommender", name, v["kind"])
	}
	user := strings.TrimSpace(r.URL.Query().Get("user"))
	if user == "" {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "user is required: the id of a user the model was trained on")
	}
	k := 10
	if text := r.URL.Query().Get("k"); text != "" {
		if k, err = strconv.Atoi(text); err != nil || k < 1 || k > maxK {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "k = %q is not an integer from 1 to %d", text, maxK)
		}
	}
	ref := fmt.Sprintf("%s@%d", name, v["version"])
	// The id typed in is text; a model trained on integer ids wants an
	// integer. Try the integer first when the text is one, then the text.
	var literals []string
	if _, err := strconv.ParseInt(user, 10, 64); err == nil {
		literals = append(literals, user)
	}
	literals = append(literals, quote(user))
	var first error
	for _, lit := range literals {
		q := fmt.Sprintf("SELECT rank, item, score FROM recommend(%s, user_id := %s, k := %d)", quote(ref), lit, k)
		rows, err := s.query(r.Context(), s.cfg.Plan(q))
		if err == nil {
			return map[string]any{"model": ref, "user": user, "items": orEmpty(rows)}, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// quote is text as a SQL string literal.
func quote(text string) string { return "'" + strings.ReplaceAll(text, "'", "''") + "'" }
