//go:build duckdb_arrow

package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
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
	var ids []any
	if n, err := strconv.ParseInt(user, 10, 64); err == nil {
		ids = append(ids, n)
	}
	ids = append(ids, user)
	var first error
	for _, id := range ids {
		rows, err := s.query(r.Context(), s.cfg.Plan(recommendQuery), ref, id, int64(k))
		if err == nil {
			out := map[string]any{"model": ref, "user": user, "items": orEmpty(rows)}
			s.nameItems(r, v, rows, out)
			return out, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// recommendQuery is the dashboard's call of recommend: the model
// reference, the user's id and k are parameters, never SQL text.
const recommendQuery = "SELECT rank, item, score FROM recommend($1, user_id := $2, k := $3)"

// itemNames is where a recommender version's item names are, as
// train_recommender's item_names := recorded them in its hyperparameters.
type itemNames struct {
	Table  string `json:"table"`
	Column string `json:"column"`
	Key    string `json:"key"`
}

// nameItems sets each recommended item's "name" (null for an item the
// table does not name) and out's "item_names" when version v was trained
// with item_names :=. The table may have changed since: its error is
// out's "names_error", and the items keep their ids.
func (s *Server) nameItems(r *http.Request, v row, items []row, out map[string]any) {
	var hp struct {
		ItemNames itemNames `json:"item_names"`
	}
	raw, ok := v["hyperparameters"].(json.RawMessage)
	if !ok || json.Unmarshal(raw, &hp) != nil || hp.ItemNames.Table == "" || len(items) == 0 {
		return
	}
	n := hp.ItemNames
	out["item_names"] = map[string]string{"table": n.Table, "column": n.Column}
	if !tableName.MatchString(n.Table) {
		out["names_error"] = fmt.Sprintf("the names cannot be read: %q is not a table name", n.Table)
		return
	}
	q, ids := namesQuery(n, items)
	rows, err := s.query(r.Context(), s.cfg.Plan(q), ids...)
	if err != nil {
		out["names_error"] = fmt.Sprintf("the names in %s.%s cannot be read: %s", n.Table, n.Column, sqlstate.From(err).Message)
		return
	}
	names := map[any]any{}
	for _, row := range rows {
		if _, seen := names[row["item"]]; !seen { // the first row of an item named twice
			names[row["item"]] = row["name"]
		}
	}
	for _, it := range items {
		it["name"] = names[it["item"]]
	}
}

// namesQuery reads the names of items from the table n names: the ids
// are parameters; the table, which tableName has vetted, and the quoted
// column names are the only names in the text.
func namesQuery(n itemNames, items []row) (string, []any) {
	var ids []any
	typ := "BIGINT"
	for _, it := range items {
		switch id := it["item"].(type) {
		case int64:
			ids = append(ids, id)
		case string:
			ids, typ = append(ids, id), "VARCHAR"
		}
	}
	marks := make([]string, len(ids))
	for i := range ids {
		marks[i] = fmt.Sprintf("CAST($%d AS %s)", i+1, typ)
	}
	key := "CAST(" + ident(n.Key) + " AS " + typ + ")"
	return "SELECT " + key + " AS item, CAST(" + ident(n.Column) + " AS VARCHAR) AS name FROM " + n.Table +
		" WHERE " + key + " IN (" + strings.Join(marks, ", ") + ")", ids
}

// tableName matches a table's name, qualified or not, each part an
// identifier, plain or double-quoted, as train_recommender checks
// item_names: the dashboard reads from nothing else.
var tableName = regexp.MustCompile(`^\s*("([^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)(\s*\.\s*("([^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)){0,2}\s*$`)

// ident is name as a SQL identifier.
func ident(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
