//go:build duckdb_arrow

package functions_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/server"
)

// smallRatingsSQL makes table r: 60 users' ratings of 40 items.
const smallRatingsSQL = `CREATE TABLE r AS SELECT u AS user_id, i AS item_id, CAST(1 + (u * 7 + i * 13) % 5 AS DOUBLE) AS rating
	FROM range(60) t(u), range(40) s(i) WHERE (u * 31 + i * 17) % 3 = 0`

// TestRanksRefused checks the errors of ranks := N that cannot start: a
// value out of range, no mpirun, no job directory, no MPI in the worker.
func TestRanksRefused(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "a-file")
	if err := os.WriteFile(notDir, []byte("not a directory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notExec := filepath.Join(dir, "mpirun")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		mpi  training.MPI
		call string
		code string
		want string
	}{
		{"zero", training.MPI{JobDir: dir}, "ranks := 0", "22023", "ranks"},
		{"negative", training.MPI{JobDir: dir}, "ranks := -2", "22023", "ranks"},
		{"too many", training.MPI{JobDir: dir}, "ranks := 5000", "22023", "ranks"},
		{"text", training.MPI{JobDir: dir}, "ranks := 'two'", "42883", "argument ranks must be an integer"}, // as every argument of the wrong type
		{"no mpirun", training.MPI{JobDir: dir, Mpirun: "/nonexistent/mpirun", Worker: "/bin/true"}, "ranks := 2", "55000", "--mpirun"},
		{"mpirun not executable", training.MPI{JobDir: dir, Mpirun: notExec, Worker: "/bin/true"}, "ranks := 2", "55000", "--mpirun"},
		{"job dir not writable", training.MPI{JobDir: filepath.Join(notDir, "jobs"), Mpirun: "/bin/true", Worker: "/bin/true"}, "ranks := 2", "55000", "--job-dir " + filepath.Join(notDir, "jobs")},
		{"no job dir", training.MPI{Mpirun: "/bin/true", Worker: "/bin/true"}, "ranks := 2", "55000", "--job-dir"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn := connect(t, startServerWith(t, server.Config{MPI: tc.mpi}), pgx.QueryExecModeSimpleProtocol)
			exec(t, conn, smallRatingsSQL)
			e := errorCode(t, conn, "SELECT * FROM train_recommender('r', model := 'm', "+tc.call+")")
			if e.Code != tc.code || !strings.Contains(e.Message+" "+e.Hint, tc.want) {
				t.Errorf("%s: %s %s (hint %q), want %s naming %s", tc.call, e.Code, e.Message, e.Hint, tc.code, tc.want)
			}
			var versions, runs int64
			if err := conn.QueryRow(context.Background(), "SELECT (SELECT count(*) FROM mlops.models), (SELECT count(*) FROM mlops.training_runs)").Scan(&versions, &runs); err != nil {
				t.Fatal(err)
			}
			if versions != 0 || runs != 0 {
				t.Errorf("%s: refused, yet %d versions and %d runs are recorded", tc.call, versions, runs)
			}
		})
	}
}

// TestRanksNeedMPI checks that a server built without MPI refuses ranks
// := N rather than run ranks that would each train alone.
func TestRanksNeedMPI(t *testing.T) {
	if parallel.MPI {
		t.Skip("this test binary is built with MPI")
	}
	conn := connect(t, startServerWith(t, server.Config{MPI: training.MPI{Mpirun: "/bin/true", JobDir: t.TempDir()}}), pgx.QueryExecModeSimpleProtocol)
	exec(t, conn, smallRatingsSQL)
	for _, q := range []string{"SELECT * FROM train_recommender('r', model := 'm', ranks := 2)", "SELECT * FROM train_gat('r', model := 'g', ranks := 2)",
		"SELECT * FROM train_classifier('r', label := 'item_id', model := 'c', ranks := 2)", "SELECT * FROM train_regressor('r', target := 'rating', model := 'c', ranks := 2)"} {
		if e := errorCode(t, conn, q); e.Code != "0A000" || !strings.Contains(e.Message, "built with MPI") || !strings.Contains(e.Hint, "make build-mpi") {
			t.Errorf("%s: %s %s (hint %q), want 0A000 asking for make build-mpi", q, e.Code, e.Message, e.Hint)
		}
	}
}

// TestLauncherFails checks the runs of a --launcher template that fails
// (58030 with the launcher's output, naming the job directory it was
// given) or that exits without running the ranks as one MPI job (0A000),
// and that a launcher needs no mpirun.
func TestLauncherFails(t *testing.T) {
	cases := []struct {
		name, launcher, code string
		want                 []string
	}{
		{"fails", "echo the scheduler refuses job {job} of {ranks} ranks >&2; exit 7", "58030",
			[]string{"the launcher's output ends", "the scheduler refuses job ", " of 2 ranks"}},
		{"runs no ranks", "true {worker} {job}", "0A000", []string{"did not run as 2 ranks of one MPI job"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			jobs := t.TempDir()
			mpi := training.MPI{Mpirun: "/nonexistent/mpirun", Worker: "/bin/true", JobDir: jobs, Launcher: tc.launcher}
			conn := connect(t, startServerWith(t, server.Config{MPI: mpi}), pgx.QueryExecModeSimpleProtocol)
			exec(t, conn, smallRatingsSQL)
			e := errorCode(t, conn, "SELECT * FROM train_recommender('r', model := 'm', ranks := 2)")
			if e.Code != tc.code {
				t.Errorf("error %s %s, want %s", e.Code, e.Message, tc.code)
			}
			if tc.code == "58030" && !strings.Contains(e.Message, "job "+jobs+"/train-") {
				t.Errorf("error %s, want the launcher's output to name the job directory under %s", e.Message, jobs)
			}
			for _, w := range tc.want {
				if !strings.Contains(e.Message, w) {
					t.Errorf("error %s, want it to say %q", e.Message, w)
				}
			}
			var status string
			var artifacts int64
			if err := conn.QueryRow(context.Background(), "SELECT status, (SELECT count(*) FROM mlops.artifacts) FROM mlops.models WHERE name = 'm'").Scan(&status, &artifacts); err != nil {
				t.Fatal(err)
			}
			if status != "failed" || artifacts != 0 {
				t.Errorf("model m: status %s, %d artifacts; want failed and none", status, artifacts)
			}
		})
	}
}
