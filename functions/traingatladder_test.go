//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/mlops/gat"
)

// TestTrainGATLadderNotice: past gat.CatalogueEntities entities the
// ladder leaves arima out and a NOTICE says so, naming ladder := 'full';
// at the limit, or with ladder := 'full' given, no NOTICE and arima is
// evaluated. A version without arima still forecasts and evaluates its
// other methods, and refuses method := 'arima' (22023); ladder with an
// anchor that fits arima, or an unknown ladder, is refused (22023).
func TestTrainGATLadderNotice(t *testing.T) {
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	exec(t, conn, wideSQL("big", gat.CatalogueEntities+1, 24))
	exec(t, conn, wideSQL("atlimit", gat.CatalogueEntities, 24))
	said := func() bool { return sizeRuleSaid(notices, "the ladder leaves arima out", "ladder := 'full'") }
	for _, c := range []struct {
		table, extra string
		want         bool
	}{
		{"big", "", true},
		{"atlimit", "", false},
		{"big", ", ladder := 'full'", false},
	} {
		notices = nil
		model := "l_" + c.table + strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' {
				return r
			}
			return -1
		}, c.extra)
		exec(t, conn, fmt.Sprintf("SELECT * FROM train_gat('%s', model := '%s', time := ['t'], epochs := 1, neighbors := 2%s)", c.table, model, c.extra))
		if said() != c.want {
			t.Errorf("%s%s: NOTICE sent %v, want %v; NOTICEs %q", c.table, c.extra, !c.want, c.want, notices)
		}
		if got := evaluatedMethods(t, conn, model); slices.Contains(got, "arima") == c.want {
			t.Errorf("%s%s: evaluate's methods %v: arima there is %v, want %v", c.table, c.extra, got, !c.want, !c.want)
		}
	}
	var rows int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM forecast('l_big', steps := 2, method := 'ets', entity := 'e7')").Scan(&rows); err != nil || rows != 2 {
		t.Errorf("forecast by ets without arima in the ladder: %d rows, %v; want 2", rows, err)
	}
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM forecast('l_big', steps := 1)").Scan(&rows); err != nil || rows != gat.CatalogueEntities+1 {
		t.Errorf("forecast by the network without arima in the ladder: %d rows, %v; want %d", rows, err, gat.CatalogueEntities+1)
	}
	for _, c := range []struct{ query, want string }{
		{"SELECT * FROM forecast('l_big', steps := 2, method := 'arima')", "method 'arima' was left out"},
		{"SELECT * FROM train_gat('big', model := 'x', time := ['t'], anchor := 'arima', ladder := 'without_arima')", "ladder := 'without_arima'"},
		{"SELECT * FROM train_gat('big', model := 'x', time := ['t'], anchor := 'ets_arima_theta', ladder := 'without_arima')", "ladder := 'without_arima'"},
		{"SELECT * FROM train_gat('big', model := 'x', time := ['t'], ladder := 'no_arima')", "ladder"},
	} {
		if e := errorCode(t, conn, c.query); e.Code != "22023" || !strings.Contains(e.Message, c.want) {
			t.Errorf("%s: %s %q, want 22023 with %q", c.query, e.Code, e.Message, c.want)
		}
	}
}

// evaluatedMethods are the methods evaluate lists for model.
func evaluatedMethods(t *testing.T, conn *pgx.Conn, model string) []string {
	t.Helper()
	rows, err := conn.Query(context.Background(), fmt.Sprintf("SELECT DISTINCT method FROM evaluate('%s') ORDER BY method", model))
	if err != nil {
		t.Fatal(err)
	}
	methods, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return methods
}

// TestResumeTakesLadder: a resumed run fits the ladder the call names, not
// the checkpoint's (ladder is not part of the architecture).
func TestResumeTakesLadder(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'r', epochs := 2, hidden := [4], checkpoint_every := 1, seed := 1)",
		"SELECT count(*) FROM train_gat('uw', resume := 'r', epochs := 3, ladder := 'without_arima')")
	if got := evaluatedMethods(t, conn, "r@1"); !slices.Contains(got, "arima") {
		t.Errorf("r@1 (ladder full) evaluates %v, want arima among them", got)
	}
	if got := evaluatedMethods(t, conn, "r@2"); slices.Contains(got, "arima") {
		t.Errorf("r@2, resumed with ladder := 'without_arima', evaluates %v", got)
	}
}

// sizeRuleSaid reports whether notices hold the NOTICE of a size rule
// firing at gat.CatalogueEntities+1 entities: it begins "train_gat: N
// entities are more than L: " and rule, and names override.
func sizeRuleSaid(notices []string, rule, override string) bool {
	prefix := fmt.Sprintf("train_gat: %d entities are more than %d: %s", gat.CatalogueEntities+1, gat.CatalogueEntities, rule)
	return slices.ContainsFunc(notices, func(n string) bool { return strings.HasPrefix(n, prefix) && strings.Contains(n, override) })
}
