// Package catalog holds Mallard's PostgreSQL-compatible system catalog: the
// pg_catalog and information_schema relations and the catalog functions that
// psql, drivers and BI tools query, written as DuckDB views and macros over
// DuckDB's own catalog functions (duckdb_tables(), duckdb_columns(), ...).
//
// The objects live in an in-memory database attached as mallard_catalog, in
// schema pg (pg_catalog's relations and functions) and schema info
// (information_schema's): DuckDB refuses schemas named pg_catalog or
// information_schema there. The planner routes a client's references to
// them by rewriting names (pg_catalog.pg_class or pg_class becomes
// mallard_catalog.pg.pg_class, information_schema.tables becomes
// mallard_catalog.info.tables, format_type(...) becomes
// mallard_catalog.pg.format_type(...)).
//
// Each object is one embedded .sql file named after it. The files are run in
// name order, and a two-digit prefix puts each in its layer, because DuckDB
// binds a view's or macro's body when it is created, so everything it refers
// to must exist by then:
//
//	00-04  helper macros that read no relation, and static tables
//	05-07  helper views and static facts: DuckDB's catalog reshaped
//	10     pg_catalog's relations and the functions they need
//	20, 21 functions that read those relations
//	30     relations that call those functions, and information_schema
//
// Helper objects are named mallard_*; the planner may call the mallard_reg*
// macros to implement regclass, regtype, regproc, regnamespace and regrole
// casts. Static facts harvested from PostgreSQL 15 (its built-in types,
// catalog relation OIDs, keywords) are tables, because DuckDB binds a
// view's VALUES list again for every query that reads it.
//
// DuckDB substitutes a macro's arguments into its body as written, so a
// macro that queries a relation binds its arguments first, in a derived
// table of their own (FROM (SELECT p_x AS v) AS __arg JOIN ...), and names
// its relations __x: an argument such as oid, meant for the caller's
// pg_constraint, is then never captured by a relation inside the macro.
//
// Catalog OIDs are PostgreSQL's own for the built-in objects (pg_catalog is
// 11, public 2200, information_schema 13207, int4 23, pg_class 1259) and
// DuckDB's for the user's tables, views, indexes, sequences, schemas and
// types. Objects DuckDB gives no OID of their own (constraints, the indexes
// behind PRIMARY KEY and UNIQUE, column defaults, enum labels, function
// overloads) get table_oid*4096 + kind*1024 + n (see 00_mallard_sub_oid.sql).
// OID columns are BIGINT, as in DuckDB's own catalog functions. Columns of
// PostgreSQL's types name and "char", and information_schema's varchar
// ones, are of the VARCHAR aliases storage registers for them (pg_name,
// pg_char, pg_varchar), so that clients are sent PostgreSQL's type OIDs.
package catalog

import (
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

//go:embed *.sql
var files embed.FS

// Names of the attached database and its schemas. They must agree with the
// qualified names in the .sql files.
const (
	// Database is the attached in-memory database that holds the catalog.
	Database = "mallard_catalog"
	// PGSchema holds pg_catalog's relations and functions.
	PGSchema = "pg"
	// InfoSchema holds information_schema's relations and functions.
	InfoSchema = "info"
)

// objectRE finds the object a file creates.
var objectRE = regexp.MustCompile(`(?is)^\s*(?:--[^\n]*\n\s*)*CREATE\s+OR\s+REPLACE\s+(VIEW|MACRO|TABLE)\s+mallard_catalog\.(pg|info)\.([a-z0-9_]+)`)

// object is one catalog object and the statement that creates it.
type object struct {
	file   string
	kind   string // "VIEW", "MACRO" or "TABLE"
	schema string // "pg" or "info"
	name   string
	sql    string
}

// objects returns the embedded objects in file-name order. The files are
// fixed at build time and a test runs every one, so a malformed file is a
// programming error and panics.
func objects() []object {
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		panic(err)
	}
	sort.Strings(names)
	out := make([]object, 0, len(names))
	for _, name := range names {
		data, err := files.ReadFile(name)
		if err != nil {
			panic(err)
		}
		m := objectRE.FindStringSubmatch(string(data))
		if m == nil {
			panic(fmt.Sprintf("catalog: %s does not start with CREATE OR REPLACE VIEW|MACRO|TABLE mallard_catalog.<schema>.<name>", name))
		}
		out = append(out, object{
			file: name, kind: strings.ToUpper(m[1]), schema: m[2], name: m[3],
			sql: strings.TrimSpace(string(data)),
		})
	}
	return out
}

// Statements returns the SQL that installs Mallard's catalog, in order:
// ATTACH, CREATE SCHEMA, then every embedded file. Every statement can be run
// again on a database that already has the catalog.
func Statements() []string {
	stmts := []string{
		"ATTACH IF NOT EXISTS ':memory:' AS " + Database,
		"CREATE SCHEMA IF NOT EXISTS " + Database + "." + PGSchema,
		"CREATE SCHEMA IF NOT EXISTS " + Database + "." + InfoSchema,
	}
	for _, o := range objects() {
		stmts = append(stmts, o.sql)
	}
	return stmts
}

// Views returns the names of the pg_catalog relations in mallard_catalog.pg,
// sorted. Helper views (mallard_*) are not among them: nothing but the
// catalog itself refers to those.
func Views() []string { return names("VIEW", PGSchema, "pg_") }

// InfoViews returns the names of the information_schema relations in
// mallard_catalog.info, sorted.
func InfoViews() []string { return names("VIEW", InfoSchema, "") }

// Macros returns the names of the functions in mallard_catalog.pg, sorted,
// each once however many overloads it has. A call to any of them, qualified
// with pg_catalog or not, is to be rewritten to mallard_catalog.pg.<name>.
func Macros() []string { return names("MACRO", PGSchema, "") }

// InfoMacros returns the names of the functions in mallard_catalog.info, such
// as _pg_expandarray, sorted. A call information_schema.<name>(...) is to be
// rewritten to mallard_catalog.info.<name>(...).
func InfoMacros() []string { return names("MACRO", InfoSchema, "") }

func names(kind, schema, prefix string) []string {
	var out []string
	for _, o := range objects() {
		if o.kind == kind && o.schema == schema && strings.HasPrefix(o.name, prefix) {
			out = append(out, o.name)
		}
	}
	sort.Strings(out)
	return out
}
