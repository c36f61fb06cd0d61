//go:build duckdb_arrow

package functions

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
)

const recommendName = "recommend"

// maxK is the most recommendations one call returns.
const maxK = 100_000

func recommendFunction() tableFunction {
	return tableFunction{
		sig: signature{fn: recommendName, positional: []param{{name: "model", kind: kindText, required: true}},
			named: []param{
				{name: "user_id", kind: kindID, required: true, min: math.MinInt64, max: math.MaxInt64},
				{name: "k", kind: kindInt, min: 1, max: maxK, def: int64(10)},
				{name: "exclude_seen", kind: kindBool, def: true},
				{name: "items", kind: kindText},
				{name: "fallback", kind: kindText, choices: []string{"error", "popular"}, def: "error"},
				{name: "version", kind: kindInt, min: 1, max: 1 << 31},
			}},
		bind: bindRecommend,
	}
}

// storedRec is a recommender version as the registry keeps it.
type storedRec struct {
	*recArtifact
	ref     mlops.Ref
	metrics string
}

// loadRec reads the recommender version ref names, decoded once and then
// kept while it is unchanged (see registry.decoded).
func loadRec(ctx context.Context, c *call, fn string, ref mlops.Ref) (*storedRec, error) {
	m, v, err := c.reg.decoded(ctx, fn, recommenderKind, ref, func(data []byte) (any, error) { return decodeRecArtifact(data) })
	if err != nil {
		return nil, err
	}
	return &storedRec{recArtifact: v.(*recArtifact), ref: m.ref, metrics: m.metrics}, nil
}

// user returns the index of the user id v (an int64 or a string) names,
// and false if the model does not know the user. A text id of an integer
// model, or the reverse, is converted.
func (s *storedRec) user(v any) (int, bool) {
	var id recommender.ID
	switch x := v.(type) {
	case int64:
		id = recommender.Int(x)
		if s.Columns.UserIsText {
			id = recommender.Text(strconv.FormatInt(x, 10))
		}
	case string:
		id = recommender.Text(x)
		if !s.Columns.UserIsText {
			n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
			if err != nil {
				return 0, false
			}
			id = recommender.Int(n)
		}
	default:
		return 0, false
	}
	u, ok := s.Model.UserIDs.Index(id)
	if ok && s.Train.Ptr[u+1] == s.Train.Ptr[u] && s.Test.Ptr[u+1] == s.Test.Ptr[u] {
		return 0, false
	}
	return u, ok
}

// checkUser fails unless the model knows user v or fallback is "popular".
func (s *storedRec) checkUser(fn string, v any, fallback string) error {
	if _, ok := s.user(v); ok || fallback == "popular" {
		return nil
	}
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s: user_id := %v is not a user %s was trained on", fn, describeID(v), s.ref).
		WithDetail("It knows %d users.", s.Model.UserIDs.Len()).
		WithHint("fallback := 'popular' recommends the most popular items to users it does not know.")
}

// recommend returns user v's k best items; a user the model does not know
// gets the most popular items when fallback is "popular", else an error.
func (s *storedRec) recommend(fn string, v any, k int, excludeSeen bool, fallback string) ([]recommender.Scored, error) {
	u, ok := s.user(v)
	if !ok {
		if err := s.checkUser(fn, v, fallback); err != nil {
			return nil, err
		}
		pop := s.popularItems()
		return pop[:min(k, len(pop))], nil
	}
	items, vals := recommender.Known(s.Train, s.Test, u)
	return s.Model.Recommend(items, vals, k, excludeSeen), nil
}

func describeID(v any) string {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	return fmt.Sprint(v)
}

// itemValue is item j's id as the model's item column holds it.
func (s *storedRec) itemValue(j int) any {
	id := s.Model.ItemIDs.At(j)
	if id.IsText {
		return id.Text
	}
	return id.Int
}

func idTypeInfo(isText bool) duckdb.TypeInfo {
	if isText {
		return varcharType()
	}
	return bigintType()
}

func bindRecommend(c *call, a args) (*table, error) {
	ref, err := modelRef(recommendName, a)
	if err != nil {
		return nil, err
	}
	s, err := loadRec(c.ctx(), c, recommendName, ref)
	if err != nil {
		return nil, err
	}
	k, exclude, fallback := int(a.int("k")), a.bool("exclude_seen"), a.text("fallback")
	if err := s.checkUser(recommendName, a.value("user_id"), fallback); err != nil {
		return nil, err
	}
	cols := []duckdb.ColumnInfo{{Name: "rank", T: bigintType()}, {Name: "item", T: idTypeInfo(s.Columns.ItemIsText)},
		{Name: "score", T: doubleType()}}
	var items *itemTable
	if a.given("items") {
		if items, err = openItems(c, a.text("items"), s.Columns); err != nil {
			return nil, err
		}
		cols = append(cols, items.cols...)
	}
	return &table{cols: cols, open: func(ctx context.Context) (*run, error) {
		recs, err := s.recommend(recommendName, a.value("user_id"), k, exclude, fallback)
		if err != nil {
			return nil, err
		}
		var extra map[any][]any
		if items != nil {
			if extra, err = items.lookup(ctx, c, s, recs); err != nil {
				return nil, err
			}
		}
		rows := make([][]any, len(recs))
		for i, r := range recs {
			id := s.itemValue(r.Item)
			rows[i] = []any{int64(i + 1), id, r.Score}
			if items != nil {
				vals, ok := extra[id]
				if !ok {
					vals = make([]any, len(items.cols))
				}
				rows[i] = append(rows[i], vals...)
			}
		}
		return rowsRun(rows), nil
	}}, nil
}

// itemTable is the items argument of recommend: a table with a column
// named as the model's item column, whose other columns recommend adds.
type itemTable struct {
	src   *source
	key   string // the item column
	exprs []string
	cols  []duckdb.ColumnInfo
}

func openItems(c *call, text string, rc recColumns) (*itemTable, error) {
	src, err := openSource(c.ctx(), c, recommendName, text)
	if err != nil {
		return nil, err
	}
	t := &itemTable{src: src}
	for i, col := range src.cols {
		if strings.EqualFold(col.Name, rc.Item) {
			t.key = col.Name
			continue
		}
		switch strings.ToLower(col.Name) {
		case "rank", "item", "score": // recommend's own columns
			continue
		}
		expr, typ, err := src.passThrough(i)
		if err != nil {
			return nil, err
		}
		t.exprs = append(t.exprs, expr)
		t.cols = append(t.cols, duckdb.ColumnInfo{Name: col.Name, T: typ})
	}
	if t.key == "" {
		return nil, sqlstate.New(sqlstate.UndefinedColumn, "%s: items := %s has no column %s, the item column the model was trained on",
			recommendName, quote(text), rc.Item).WithHint("It has columns %s; select the item column as %s.", src.columnList(), ident(rc.Item))
	}
	return t, nil
}

// lookup reads the items table's rows of the recommended items, by item id.
func (t *itemTable) lookup(ctx context.Context, c *call, s *storedRec, recs []recommender.Scored) (map[any][]any, error) {
	out := map[any][]any{}
	if len(recs) == 0 {
		return out, nil
	}
	ids := make([]string, len(recs))
	for i, r := range recs {
		id := s.Model.ItemIDs.At(r.Item)
		ids[i] = id.String()
		if id.IsText {
			ids[i] = quote(id.Text)
		}
	}
	key := "CAST(" + ident(t.key) + " AS " + idType(s.Columns.ItemIsText) + ")"
	query := "SELECT " + strings.Join(append([]string{key}, t.exprs...), ", ") + " FROM " + t.src.from +
		" WHERE " + key + " IN (" + strings.Join(ids, ", ") + ")"
	rd, err := c.read(ctx, query)
	if err != nil {
		return nil, t.src.wrap(err)
	}
	defer rd.Close()
	for rd.Next() {
		b := rd.Batch()
		keys := idColumn(b.Column(0))
		for row := range int(b.NumRows()) {
			id := keys(row)
			if id == nil {
				continue
			}
			var k any = id.Int
			if id.IsText {
				k = id.Text
			}
			if _, dup := out[k]; dup {
				continue // the first row of an item that appears twice
			}
			vals := make([]any, len(t.exprs))
			for col := range vals {
				vals[col] = valueAt(b.Column(col+1), row)
			}
			out[k] = vals
		}
	}
	return out, t.src.wrap(rd.Err())
}

// bindEvaluateRecommender is evaluate of a recommender: the held-out
// metrics of the model and the baselines, as measured after training.
func bindEvaluateRecommender(c *call, ref mlops.Ref) (*table, error) {
	s, err := loadRec(c.ctx(), c, "evaluate", ref)
	if err != nil {
		return nil, err
	}
	if s.metrics == "" {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "evaluate: %s did not finish training and has no metrics", s.ref)
	}
	var ms []recMetrics
	if err := json.Unmarshal([]byte(s.metrics), &ms); err != nil {
		return nil, fmt.Errorf("decode metrics of %s: %w", s.ref, err)
	}
	cols := []duckdb.ColumnInfo{{Name: "method", T: varcharType()}, {Name: "test_rmse", T: doubleType()},
		{Name: "recall_at_10", T: doubleType()}, {Name: "ndcg_at_10", T: doubleType()}}
	return &table{cols: cols, open: func(context.Context) (*run, error) {
		rows := make([][]any, len(ms))
		for i, m := range ms {
			rows[i] = []any{m.Method, optional(m.RMSE), optional(m.RecallAt10), optional(m.NDCGAt10)}
		}
		return rowsRun(rows), nil
	}}, nil
}

// recommendationsFunction is the scalar recommendations(model, user_id,
// k): user_id's k best items as a list of (item, score) structs, for use
// per row over a table of users. It has an overload for integer and one
// for text user ids; the items come back as the user id's type (see
// recommendationsUDF). The planner passes the caller first.
type recommendationsUDF struct {
	e *env
	// text is the overload for text user ids, whose items are text.
	text bool
}

// recMemo keeps, for one statement, the models its rows have named.
type recMemo struct {
	mu     sync.Mutex
	models map[string]*storedRec
}

type recMemoKey struct{}

func (f recommendationsUDF) Config() duckdb.ScalarFuncConfig {
	item := idTypeInfo(f.text)
	itemEntry, _ := duckdb.NewStructEntry(item, "item")
	scoreEntry, _ := duckdb.NewStructEntry(doubleType(), "score")
	st, _ := duckdb.NewStructInfo(itemEntry, scoreEntry)
	list, _ := duckdb.NewListInfo(st)
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{varcharType(), varcharType(), item, bigintType()},
		ResultTypeInfo: list, Volatile: true}
}

func (f recommendationsUDF) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{
		ScalarBinder: func(ctx context.Context, _ []duckdb.ScalarUDFArg) (context.Context, error) {
			return context.WithValue(ctx, recMemoKey{}, &recMemo{models: map[string]*storedRec{}}), nil
		},
		RowContextExecutor: func(ctx context.Context, values []driver.Value) (any, error) {
			c := newCall(f.e, values[0])
			out, err := f.row(ctx, c, values[1:])
			if err != nil {
				return nil, c.caller.Fail(err)
			}
			return out, nil
		},
	}
}

const recommendationsName = "recommendations"

func (f recommendationsUDF) row(ctx context.Context, c *call, values []driver.Value) (any, error) {
	name, _ := values[0].(string)
	k, _ := values[2].(int64)
	if k < 1 || k > maxK {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: k := %d is out of range; it must be ≥ 1 and ≤ %d", recommendationsName, k, maxK)
	}
	memo, _ := ctx.Value(recMemoKey{}).(*recMemo)
	if memo == nil {
		memo = &recMemo{models: map[string]*storedRec{}}
	}
	memo.mu.Lock()
	s, ok := memo.models[name]
	memo.mu.Unlock()
	if !ok {
		ref, err := mlops.ParseRef(name)
		if err != nil {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: model: %v", recommendationsName, err)
		}
		if s, err = loadRec(c.ctx(), c, recommendationsName, ref); err != nil {
			return nil, err
		}
		if s.Columns.ItemIsText && !f.text {
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "%s: %s has text item ids, which an integer user_id cannot return", recommendationsName, s.ref).
				WithHint("Pass the user id as text: recommendations('%s', CAST(user_id AS VARCHAR), k).", name)
		}
		memo.mu.Lock()
		memo.models[name] = s
		memo.mu.Unlock()
	}
	recs, err := s.recommend(recommendationsName, values[1], int(k), true, "error")
	if err != nil {
		return nil, err
	}
	out := make([]any, len(recs))
	for i, r := range recs {
		item := s.itemValue(r.Item)
		if f.text {
			item = s.Model.ItemIDs.At(r.Item).String()
		}
		out[i] = map[string]any{"item": item, "score": r.Score}
	}
	return out, nil
}

// Scalars names the scalar functions that take their caller first, for the planner.
func Scalars() []string { return []string{recommendationsName} }

func registerRecommendations(conn *sql.Conn, e *env) error {
	return duckdb.RegisterScalarUDFSet(conn, recommendationsName, recommendationsUDF{e: e}, recommendationsUDF{e: e, text: true})
}
