//go:build duckdb_arrow

package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/functions"
	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/server"
)

// connect starts a server on a fresh in-memory database and connects to
// it with pgx in mode.
func connect(t *testing.T, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	_, addr := testserver.Start(t, server.Config{})
	cfg, err := pgx.ParseConfig(testserver.ConnString(addr))
	if err != nil {
		t.Fatal(err)
	}
	return testserver.Connect(t, cfg, mode)
}

// TestFunctionDefinitions: pg_get_function_arguments, pg_get_function_result
// and pg_get_functiondef show Mallard's table functions as declared, as
// pgAdmin and DBeaver read them, in both protocol modes.
func TestFunctionDefinitions(t *testing.T) {
	tests := []struct {
		name, fn, wantArgs, wantResult, wantDef string
	}{
		{"declared result", "attention", "model text, version bigint DEFAULT NULL::bigint",
			"TABLE(source text, target text, weight double precision)",
			"CREATE OR REPLACE FUNCTION pg_catalog.attention(model text, version bigint DEFAULT NULL::bigint)\n" +
				" RETURNS TABLE(source text, target text, weight double precision)\n LANGUAGE internal\n" +
				" PARALLEL SAFE\nAS $function$attention$function$\n"},
		{"result that depends on the call", "forecast",
			"model text, steps bigint DEFAULT 1, version bigint DEFAULT NULL::bigint, method text DEFAULT 'model'::text, entity text DEFAULT NULL::text, level double precision DEFAULT 0.9",
			"SETOF record",
			"CREATE OR REPLACE FUNCTION pg_catalog.forecast(model text, steps bigint DEFAULT 1, version bigint DEFAULT NULL::bigint, " +
				"method text DEFAULT 'model'::text, entity text DEFAULT NULL::text, level double precision DEFAULT 0.9)\n RETURNS SETOF record\n LANGUAGE internal\n" +
				" PARALLEL SAFE\nAS $function$forecast$function$\n"},
	}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		conn := connect(t, mode)
		for _, tt := range tests {
			t.Run(mode.String()+"/"+tt.name, func(t *testing.T) {
				var args, result, def string
				err := conn.QueryRow(context.Background(), `SELECT pg_get_function_arguments(oid), pg_get_function_result(oid),
					pg_get_functiondef(oid) FROM pg_proc WHERE proname = $1`, tt.fn).Scan(&args, &result, &def)
				if err != nil {
					t.Fatal(err)
				}
				if args != tt.wantArgs || result != tt.wantResult || def != tt.wantDef {
					t.Errorf("%s:\n got args %q\n     result %q\n     def %q\nwant args %q\n     result %q\n     def %q",
						tt.fn, args, result, def, tt.wantArgs, tt.wantResult, tt.wantDef)
				}
			})
		}
	}
}

// TestEveryFunctionShowsItsDeclaration: pg_proc shows every table function
// functions declares with its arguments in declared order, without the
// hidden caller argument or DuckDB's positional names (col0), and with as
// many defaults as declared.
func TestEveryFunctionShowsItsDeclaration(t *testing.T) {
	conn := connect(t, pgx.QueryExecModeCacheStatement)
	for _, sig := range functions.Surface().Signatures {
		var names []string
		var nargs, ndefaults int
		var args string
		err := conn.QueryRow(context.Background(), `SELECT proargnames, pronargs, pronargdefaults, pg_get_function_arguments(oid)
			FROM pg_proc WHERE proname = $1`, sig.Name).Scan(&names, &nargs, &ndefaults, &args)
		if err != nil {
			t.Fatalf("%s: %v", sig.Name, err)
		}
		want, defaults := []string{}, 0
		for _, a := range sig.Args {
			want = append(want, a.Name)
			if a.Default != "" {
				defaults++
			}
		}
		for _, c := range sig.Result {
			want = append(want, c.Name)
		}
		if strings.Join(names, ",") != strings.Join(want, ",") || nargs != len(sig.Args) || ndefaults != defaults {
			t.Errorf("%s: proargnames %v, pronargs %d, pronargdefaults %d; want %v, %d, %d", sig.Name, names, nargs, ndefaults, want, len(sig.Args), defaults)
		}
		if strings.Contains(args, "mallard_connection") || strings.Contains(args, "col0") {
			t.Errorf("%s: pg_get_function_arguments shows an internal argument: %s", sig.Name, args)
		}
	}
}
