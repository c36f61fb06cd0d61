//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/mlops/gat"
)

// TestTrainingNoticesFollowClientMinMessages checks that SET
// client_min_messages = warning silences train_gat's per-epoch NOTICEs
// while its rows still stream, and that notice brings them back, in both
// protocols.
func TestTrainingNoticesFollowClientMinMessages(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t)
	scaledUnemployment(t, connect(t, addr, pgx.QueryExecModeSimpleProtocol))
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		t.Run(mode.String(), func(t *testing.T) {
			var notices []string
			cfg, err := pgx.ParseConfig(testserver.ConnString(addr))
			if err != nil {
				t.Fatal(err)
			}
			cfg.DefaultQueryExecMode = mode
			cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Message) }
			conn, err := pgx.ConnectConfig(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			for i, tt := range []struct {
				level string
				quiet bool
			}{{"warning", true}, {"notice", false}} {
				notices = nil
				exec(t, conn, "SET client_min_messages = "+tt.level)
				rows, err := conn.Query(ctx, fmt.Sprintf("SELECT epoch FROM train_gat('uw', model := 'quiet', epochs := 3, seed := %d)", i+1))
				if err != nil {
					t.Fatal(err)
				}
				epochs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
				if err != nil || len(epochs) != 3 {
					t.Fatalf("client_min_messages = %s: epochs %v (%v), want 3 rows", tt.level, epochs, err)
				}
				if tt.quiet && len(notices) != 0 || !tt.quiet && len(notices) < 3 {
					t.Errorf("client_min_messages = %s: %d notices %q", tt.level, len(notices), notices)
				}
			}
		})
	}
}

// TestTrainGATNoticesTimeEveryPhase checks that train_gat's closing
// NOTICEs give the time of every phase outside the epochs, storing
// included: the phases before storing, then, after the deployment's
// NOTICE, storing with the size of the stored artifact and the time after
// the last epoch, which covers the phases after the epochs and storing.
func TestTrainGATNoticesTimeEveryPhase(t *testing.T) {
	ctx := context.Background()
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	scaledUnemployment(t, conn)
	exec(t, conn, "SELECT count(*) FROM train_gat('uw', model := 'timed', epochs := 2, scaler := 'u', seed := 5)")
	if len(notices) < 3 {
		t.Fatalf("notices %q", notices)
	}
	phases := regexp.MustCompile(`^train_gat timed@1: outside the epochs: read (\d+\.\d\d)s, prepare (\d+\.\d\d)s, setup (\d+\.\d\d)s, ` +
		`checkpoints (\d+\.\d\d)s, evaluate\+report\+artifact (\d+\.\d\d)s \(together; alone (\d+\.\d\d)s, (\d+\.\d\d)s, (\d+\.\d\d)s\); storing follows$`).
		FindStringSubmatch(notices[len(notices)-3])
	deployed := notices[len(notices)-2]
	storing := regexp.MustCompile(`^train_gat timed@1: outside the epochs: storing (\d+\.\d\d)s \(artifact (\d+\.\d\d) MB\); after the last epoch (\d+\.\d\d)s in all$`).
		FindStringSubmatch(notices[len(notices)-1])
	if phases == nil || deployed != "train_gat: timed@1 is deployed" || storing == nil {
		t.Fatalf("the last three notices %q: want the phases, the deployment, then storing", notices[len(notices)-3:])
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var size int64
	if err := conn.QueryRow(ctx, "SELECT artifact_size FROM mlops.models WHERE name = 'timed' AND version = 1").Scan(&size); err != nil {
		t.Fatal(err)
	}
	// Each figure is rounded to 0.01: finishing (evaluate, report and
	// artifact together) and storing both follow the last epoch.
	store, mb, after, finish := num(storing[1]), num(storing[2]), num(storing[3]), num(phases[5])
	if want := float64(size) / 1e6; size <= 0 || mb < want-0.006 || mb > want+0.006 {
		t.Errorf("storing notice says artifact %.2f MB; mlops.models says %d bytes", mb, size)
	}
	if store+finish > after+0.02 {
		t.Errorf("storing %.2fs and evaluate+report+artifact %.2fs exceed the %.2fs after the last epoch", store, finish, after)
	}
}

// TestTrainGATNeighborsClamped checks that neighbors := k of at least the
// other entities trains on every pair, as neighbors := 0 does (the same
// losses), and says so in a NOTICE; a k below them sends none.
func TestTrainGATNeighborsClamped(t *testing.T) {
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	exec(t, conn, "CREATE TABLE tri AS SELECT i AS t, sin(i / 3.0) AS a, cos(i / 5.0) AS b, sin(i / 7.0) AS c FROM range(60) r(i)")
	losses := func(neighbors int) []float64 {
		return scanAll[float64](t, conn, fmt.Sprintf(
			"SELECT train_mse FROM train_gat('tri', model := 'n%d', time := ['t'], epochs := 2, neighbors := %d)", neighbors, neighbors))
	}
	clamped := func() bool {
		for _, n := range notices {
			if regexp.MustCompile(`^train_gat: neighbors := \d+ is at least the 2 other entities of each; every pair`).MatchString(n) {
				return true
			}
		}
		return false
	}
	notices = nil
	all := losses(0)
	if clamped() {
		t.Errorf("neighbors := 0 sent the clamp NOTICE: %q", notices)
	}
	for _, k := range []int{2, 50} {
		notices = nil
		if got := losses(k); fmt.Sprint(got) != fmt.Sprint(all) || !clamped() {
			t.Errorf("neighbors := %d: losses %v (neighbors := 0: %v), NOTICEs %q; want the same losses and the clamp NOTICE", k, got, all, notices)
		}
	}
	notices = nil
	if losses(1); clamped() {
		t.Errorf("neighbors := 1 of 2 other entities sent the clamp NOTICE: %q", notices)
	}
}

// TestTrainGATCompleteGraphLimit: every pair of more than 2,000 entities
// (neighbors := 0, or k of at least the other entities) fails with 54000
// before any training, naming the entities and suggesting neighbors := k;
// no model is registered.
func TestTrainGATCompleteGraphLimit(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, wideSQL("big", 2001, 12))
	for _, k := range []int{0, 2000, 5000} {
		e := errorCode(t, conn, fmt.Sprintf("SELECT * FROM train_gat('big', model := 'big', time := ['t'], epochs := 1, neighbors := %d)", k))
		if e.Code != "54000" || !strings.Contains(e.Message, "2001 entities") || !strings.Contains(e.Hint, "neighbors := 10") {
			t.Errorf("neighbors := %d: %s %q (hint %q), want 54000 naming the 2001 entities and suggesting neighbors := 10", k, e.Code, e.Message, e.Hint)
		}
	}
	if n := scanAll[int64](t, conn, "SELECT count(*) FROM mlops.models WHERE name = 'big'"); n[0] != 0 {
		t.Errorf("%d versions of the refused model registered", n[0])
	}
}

// TestTrainGATAnchorOriginsNotice: past gat.CatalogueEntities entities
// anchor 'auto' scores its candidates on the validation span alone and a
// NOTICE says so, naming anchor_origins := 'rolling'; at the limit, or
// with anchor_origins := 'rolling' given, no NOTICE; anchor_origins
// with an anchor given is refused (22023).
func TestTrainGATAnchorOriginsNotice(t *testing.T) {
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeSimpleProtocol, &notices)
	exec(t, conn, wideSQL("big", gat.CatalogueEntities+1, 24))
	exec(t, conn, wideSQL("atlimit", gat.CatalogueEntities, 24))
	said := func() bool {
		return sizeRuleSaid(notices, "anchor 'auto' scores its candidates on the validation span alone", "anchor_origins := 'rolling'")
	}
	for _, c := range []struct {
		table, extra string
		want         bool
	}{
		{"big", "", true},
		{"atlimit", "", false},
		{"big", ", anchor_origins := 'rolling'", false},
	} {
		notices = nil
		exec(t, conn, fmt.Sprintf("SELECT * FROM train_gat('%s', model := 'o', time := ['t'], epochs := 1, neighbors := 2%s)", c.table, c.extra))
		if said() != c.want {
			t.Errorf("%s%s: NOTICE sent %v, want %v; NOTICEs %q", c.table, c.extra, !c.want, c.want, notices)
		}
	}
	e := errorCode(t, conn, "SELECT * FROM train_gat('big', model := 'o', time := ['t'], anchor := 'ets', anchor_origins := 'validation')")
	if e.Code != "22023" || !strings.Contains(e.Message, "anchor_origins := 'validation'") {
		t.Errorf("anchor_origins with anchor := 'ets': %s %q, want 22023 naming anchor_origins", e.Code, e.Message)
	}
}
