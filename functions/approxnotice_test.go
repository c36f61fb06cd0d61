//go:build duckdb_arrow

package functions_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/mlops/gat"
)

// TestTrainGATApproxNeighborsNotice: past gat.ApproxNeighborsEntities
// entities train_gat with a neighbour limit says that the graph is
// approximate; at the limit it does not. The run is stopped right after the NOTICE by a horizon past
// the validation rows (22023), so that 20,001 entities cost no training.
func TestTrainGATApproxNeighborsNotice(t *testing.T) {
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	const rows = 24
	for _, n := range []int{gat.ApproxNeighborsEntities, gat.ApproxNeighborsEntities + 1} {
		exec(t, conn, fmt.Sprintf("CREATE TABLE long%d AS SELECT e, t, sin(t * 0.3 + e) + (hash(e * 31 + t) %% 1000) / 2000.0 AS v FROM range(%d) a(e), range(%d) b(t)", n, n, rows))
	}
	prefix := fmt.Sprintf("train_gat: %d entities are more than %d: each sample's graph keeps the neighbors := 3 sources an approximate search finds",
		gat.ApproxNeighborsEntities+1, gat.ApproxNeighborsEntities)
	for _, c := range []struct {
		n    int
		want bool
	}{
		{gat.ApproxNeighborsEntities + 1, true},
		{gat.ApproxNeighborsEntities, false},
	} {
		notices = nil
		e := errorCode(t, conn, fmt.Sprintf("SELECT * FROM train_gat('long%d', model := 'a', entity := 'e', time := 't', value := 'v', neighbors := 3, epochs := 1, horizon := 99)", c.n))
		if e.Code != "22023" || !strings.Contains(e.Message, "horizon := 99") {
			t.Fatalf("%d entities: %s %q, want 22023 refusing horizon := 99", c.n, e.Code, e.Message)
		}
		said := slices.ContainsFunc(notices, func(s string) bool { return strings.HasPrefix(s, prefix) })
		if said != c.want {
			t.Errorf("%d entities: approximate-graph NOTICE sent %v, want %v; NOTICEs %q", c.n, said, c.want, notices)
		}
	}
}
