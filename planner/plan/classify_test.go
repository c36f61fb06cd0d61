package plan_test

import (
	"testing"

	"github.com/mallard/mallard/planner/plan"
)

// classifyCase is one Classify input and the Kind and Tag it should get.
type classifyCase struct {
	name     string
	input    string
	wantKind plan.Kind
	wantTag  string
}

// checkClassify runs Classify on each case.
func checkClassify(t *testing.T, tests []classifyCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := plan.Classify(tt.input)
			if got.Kind != tt.wantKind || got.Tag != tt.wantTag {
				t.Errorf("Classify(%q) = %v %q, want %v %q", tt.input, got.Kind, got.Tag, tt.wantKind, tt.wantTag)
			}
			if got.Text != tt.input || got.Offset != 0 {
				t.Errorf("Classify(%q) has Text %q, Offset %d", tt.input, got.Text, got.Offset)
			}
		})
	}
}

func TestClassifyQueries(t *testing.T) {
	checkClassify(t, []classifyCase{
		{"empty", "", plan.KindEmpty, ""},
		{"only comment", "-- x\n/* y */", plan.KindEmpty, ""},
		{"only semicolon", ";", plan.KindEmpty, ""},
		{"select", "SELECT 1", plan.KindQuery, "SELECT"},
		{"lower case", "select 1", plan.KindQuery, "SELECT"},
		{"leading comments", "-- a\n/* b /* c */ */ SeLeCt 1", plan.KindQuery, "SELECT"},
		{"parenthesised union", "(SELECT 1) UNION (SELECT 2)", plan.KindQuery, "SELECT"},
		{"values", "VALUES (1), (2)", plan.KindQuery, "SELECT"},
		{"table", "TABLE t", plan.KindQuery, "SELECT"},
		{"from first", "FROM t SELECT a", plan.KindQuery, "SELECT"},
		{"pivot", "PIVOT t ON a USING sum(b)", plan.KindQuery, "SELECT"},
		{"unpivot", "UNPIVOT t ON a, b INTO NAME k VALUE v", plan.KindQuery, "SELECT"},
		{"describe", "DESCRIBE t", plan.KindQuery, "SELECT"},
		{"summarize", "SUMMARIZE t", plan.KindQuery, "SELECT"},
		{"pragma", "PRAGMA table_info('t')", plan.KindQuery, "SELECT"},
		{"call", "CALL duckdb_settings()", plan.KindQuery, "SELECT"},
		{"show", "SHOW search_path", plan.KindQuery, "SHOW"},
		{"show tables", "SHOW TABLES", plan.KindQuery, "SHOW"},
		{"explain", "EXPLAIN ANALYZE SELECT 1", plan.KindQuery, "EXPLAIN"},
		{"with select", "WITH x AS (SELECT 1) SELECT * FROM x", plan.KindQuery, "SELECT"},
		{"with recursive", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT * FROM r",
			plan.KindQuery, "SELECT"},
		{"with insert", "WITH x AS (SELECT 1 AS a) INSERT INTO t SELECT a FROM x", plan.KindInsert, "INSERT"},
		{"with several ctes and update", "with a as (select 1), b (c) as materialized (select 2) update t set c = 1",
			plan.KindUpdate, "UPDATE"},
		{"with not materialized delete", "WITH a AS NOT MATERIALIZED (SELECT 1) DELETE FROM t",
			plan.KindDelete, "DELETE"},
		{"with delete cte then select", "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
			plan.KindQuery, "SELECT"},
		{"with cte named insert", "WITH insert AS (SELECT 1) SELECT * FROM insert", plan.KindQuery, "SELECT"},
		{"with parenthesised main", "WITH a AS (SELECT 1) (SELECT * FROM a)", plan.KindQuery, "SELECT"},
	})
}

func TestClassifyDML(t *testing.T) {
	checkClassify(t, []classifyCase{
		{"insert", "INSERT INTO t VALUES (1)", plan.KindInsert, "INSERT"},
		{"insert or replace", "INSERT OR REPLACE INTO t VALUES (1)", plan.KindInsert, "INSERT"},
		{"update", "UPDATE t SET a = 1", plan.KindUpdate, "UPDATE"},
		{"delete", "DELETE FROM t", plan.KindDelete, "DELETE"},
		{"merge", "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE", plan.KindMerge, "MERGE"},
	})
}

func TestClassifyTransactions(t *testing.T) {
	checkClassify(t, []classifyCase{
		{"begin", "BEGIN", plan.KindBegin, "BEGIN"},
		{"begin transaction", "BEGIN TRANSACTION ISOLATION LEVEL SERIALIZABLE", plan.KindBegin, "BEGIN"},
		{"start transaction", "START TRANSACTION", plan.KindBegin, "BEGIN"},
		{"commit", "COMMIT", plan.KindCommit, "COMMIT"},
		{"commit work", "commit work", plan.KindCommit, "COMMIT"},
		{"end", "END", plan.KindCommit, "COMMIT"},
		{"rollback", "ROLLBACK", plan.KindRollback, "ROLLBACK"},
		{"rollback transaction", "ROLLBACK TRANSACTION", plan.KindRollback, "ROLLBACK"},
		{"abort", "ABORT", plan.KindRollback, "ROLLBACK"},
		{"commit prepared", "COMMIT PREPARED 'x'", plan.KindOther, "COMMIT PREPARED"},
		{"rollback prepared", "ROLLBACK PREPARED 'x'", plan.KindOther, "ROLLBACK PREPARED"},
		{"prepare transaction", "PREPARE TRANSACTION 'x'", plan.KindOther, "PREPARE TRANSACTION"},
		{"savepoint", "SAVEPOINT s", plan.KindSavepoint, "SAVEPOINT"},
		{"release", "RELEASE SAVEPOINT s", plan.KindSavepoint, "RELEASE"},
		{"rollback to", "ROLLBACK TO s", plan.KindSavepoint, "ROLLBACK"},
		{"rollback to savepoint", "ROLLBACK TO SAVEPOINT s", plan.KindSavepoint, "ROLLBACK"},
		{"rollback work to savepoint", "ROLLBACK WORK TO SAVEPOINT s", plan.KindSavepoint, "ROLLBACK"},
	})
}

func TestClassifyCreateDropAlter(t *testing.T) {
	checkClassify(t, []classifyCase{
		{"create table", "CREATE TABLE t (a int)", plan.KindDDL, "CREATE TABLE"},
		{"create or replace table", "CREATE OR REPLACE TABLE t (a int)", plan.KindDDL, "CREATE TABLE"},
		{"create temp table", "CREATE TEMP TABLE t (a int)", plan.KindDDL, "CREATE TABLE"},
		{"create temporary table", "create temporary table t (a int)", plan.KindDDL, "CREATE TABLE"},
		{"create table if not exists", "CREATE TABLE IF NOT EXISTS t (a int)", plan.KindDDL, "CREATE TABLE"},
		{"create table generated as", "CREATE TABLE t (a int, b int GENERATED ALWAYS AS (a + 1))",
			plan.KindDDL, "CREATE TABLE"},
		{"create table as", "CREATE TABLE t AS SELECT 1", plan.KindDDL, "SELECT"},
		{"create table columns as", "CREATE TABLE t (a) AS (SELECT 1)", plan.KindDDL, "SELECT"},
		{"create or replace temp table as", "CREATE OR REPLACE TEMP TABLE t AS FROM s", plan.KindDDL, "SELECT"},
		{"create view", "CREATE VIEW v AS SELECT 1", plan.KindDDL, "CREATE VIEW"},
		{"create or replace view", "CREATE OR REPLACE VIEW v AS SELECT 1", plan.KindDDL, "CREATE VIEW"},
		{"create temporary view", "CREATE TEMPORARY VIEW v AS SELECT 1", plan.KindDDL, "CREATE VIEW"},
		{"create materialized view", "CREATE MATERIALIZED VIEW v AS SELECT 1", plan.KindDDL, "SELECT"},
		{"create index", "CREATE INDEX i ON t (a)", plan.KindDDL, "CREATE INDEX"},
		{"create unique index", "CREATE UNIQUE INDEX i ON t (a)", plan.KindDDL, "CREATE INDEX"},
		{"create schema", "CREATE SCHEMA s", plan.KindDDL, "CREATE SCHEMA"},
		{"create sequence", "CREATE SEQUENCE s", plan.KindDDL, "CREATE SEQUENCE"},
		{"create macro", "CREATE MACRO m(a) AS a + 1", plan.KindDDL, "CREATE FUNCTION"},
		{"create or replace temp macro", "CREATE OR REPLACE TEMP MACRO m(a) AS TABLE SELECT a",
			plan.KindDDL, "CREATE FUNCTION"},
		{"create function", "CREATE FUNCTION f(a) AS a + 1", plan.KindDDL, "CREATE FUNCTION"},
		{"create type", "CREATE TYPE mood AS ENUM ('happy')", plan.KindDDL, "CREATE TYPE"},
		{"create unknown object", "CREATE SECRET s (TYPE s3)", plan.KindDDL, "CREATE SECRET"},
		{"drop table", "DROP TABLE t", plan.KindDDL, "DROP TABLE"},
		{"drop table if exists", "DROP TABLE IF EXISTS t CASCADE", plan.KindDDL, "DROP TABLE"},
		{"drop view", "DROP VIEW v", plan.KindDDL, "DROP VIEW"},
		{"drop index", "DROP INDEX i", plan.KindDDL, "DROP INDEX"},
		{"drop schema", "DROP SCHEMA s", plan.KindDDL, "DROP SCHEMA"},
		{"drop sequence", "DROP SEQUENCE s", plan.KindDDL, "DROP SEQUENCE"},
		{"drop function", "DROP FUNCTION f", plan.KindDDL, "DROP FUNCTION"},
		{"drop macro", "DROP MACRO m", plan.KindDDL, "DROP FUNCTION"},
		{"drop macro table", "DROP MACRO TABLE m", plan.KindDDL, "DROP FUNCTION"},
		{"drop type", "DROP TYPE mood", plan.KindDDL, "DROP TYPE"},
		{"drop materialized view", "DROP MATERIALIZED VIEW v", plan.KindDDL, "DROP MATERIALIZED VIEW"},
		{"alter table", "ALTER TABLE t ADD COLUMN b int", plan.KindDDL, "ALTER TABLE"},
		{"alter view", "ALTER VIEW v RENAME TO w", plan.KindDDL, "ALTER VIEW"},
		{"alter sequence", "ALTER SEQUENCE s RESTART", plan.KindDDL, "ALTER SEQUENCE"},
	})
}

func TestClassifyCommands(t *testing.T) {
	checkClassify(t, []classifyCase{
		{"copy", "COPY t FROM STDIN", plan.KindCopy, "COPY"},
		{"set", "SET search_path = public", plan.KindSet, "SET"},
		{"set local", "SET LOCAL x = 1", plan.KindSet, "SET"},
		{"reset", "RESET ALL", plan.KindReset, "RESET"},
		{"truncate", "TRUNCATE t", plan.KindDDL, "TRUNCATE TABLE"},
		{"truncate table", "TRUNCATE TABLE t", plan.KindDDL, "TRUNCATE TABLE"},
		{"comment", "COMMENT ON TABLE t IS 'x'", plan.KindDDL, "COMMENT"},
		{"attach", "ATTACH 'f.db' AS f", plan.KindDDL, "ATTACH"},
		{"detach", "DETACH f", plan.KindDDL, "DETACH"},
		{"checkpoint", "CHECKPOINT", plan.KindDDL, "CHECKPOINT"},
		{"force checkpoint", "FORCE CHECKPOINT", plan.KindDDL, "CHECKPOINT"},
		{"vacuum", "VACUUM", plan.KindDDL, "VACUUM"},
		{"analyze", "ANALYZE t", plan.KindDDL, "ANALYZE"},
		{"analyse", "ANALYSE", plan.KindDDL, "ANALYZE"},
		{"load", "LOAD httpfs", plan.KindDDL, "LOAD"},
		{"install", "INSTALL httpfs", plan.KindDDL, "INSTALL"},
		{"force install", "FORCE INSTALL httpfs", plan.KindDDL, "INSTALL"},
		{"export", "EXPORT DATABASE 'dir'", plan.KindDDL, "EXPORT"},
		{"import", "IMPORT DATABASE 'dir'", plan.KindDDL, "IMPORT"},
		{"use", "USE memory", plan.KindDDL, "USE"},
		{"deallocate", "DEALLOCATE p", plan.KindDDL, "DEALLOCATE"},
		{"deallocate prepare all", "DEALLOCATE PREPARE ALL", plan.KindDDL, "DEALLOCATE"},
		{"prepare", "PREPARE p AS SELECT 1", plan.KindDDL, "PREPARE"},
		{"discard all", "DISCARD ALL", plan.KindDDL, "DISCARD ALL"},
		{"discard temporary", "DISCARD TEMPORARY", plan.KindDDL, "DISCARD TEMP"},
		{"execute", "EXECUTE p(1)", plan.KindOther, "EXECUTE"},
		{"unknown", "listen foo", plan.KindOther, "LISTEN"},
		{"start without transaction", "START x", plan.KindOther, "START"},
		{"not a word", "$1", plan.KindOther, "$"},
	})
}

// boolCase is a statement and the value a property of its Statement
// should have.
type boolCase struct {
	name  string
	input string
	want  bool
}

// checkProperty checks property, named as its failures print it, of
// Classify's result for each case.
func checkProperty(t *testing.T, property string, of func(plan.Statement) bool, cases []boolCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			if got := of(plan.Classify(tt.input)); got != tt.want {
				t.Errorf("Classify(%q).%s = %v, want %v", tt.input, property, got, tt.want)
			}
		})
	}
}

func TestClassifyReturning(t *testing.T) {
	checkProperty(t, "Returning", func(s plan.Statement) bool { return s.Returning }, []boolCase{
		{"insert", "INSERT INTO t VALUES (1)", false},
		{"insert returning", "INSERT INTO t VALUES (1) RETURNING *", true},
		{"update returning", "update t set a = 1 returning a", true},
		{"delete returning", "DELETE FROM t RETURNING a", true},
		{"merge returning", "MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE RETURNING *", true},
		{"with insert returning", "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x RETURNING *", true},
		{"returning inside parentheses", "INSERT INTO t SELECT * FROM (DELETE FROM s RETURNING *)", false},
		{"returning in string", "INSERT INTO t VALUES ('RETURNING')", false},
		{"returning after semicolon", "DELETE FROM t; SELECT 1 AS returning", false},
		{"select is not dml", "SELECT 1 AS returning", false},
	})
}

func TestIsTransactionExit(t *testing.T) {
	checkProperty(t, "IsTransactionExit()", plan.Statement.IsTransactionExit, []boolCase{
		{"commit", "COMMIT", true},
		{"end", "END TRANSACTION", true},
		{"rollback", "ROLLBACK", true},
		{"abort", "abort", true},
		{"rollback to savepoint", "ROLLBACK TO SAVEPOINT s", false},
		{"commit prepared", "COMMIT PREPARED 'x'", false},
		{"begin", "BEGIN", false},
		{"savepoint", "SAVEPOINT s", false},
		{"select", "SELECT 1", false},
	})
}

func TestSavepointName(t *testing.T) {
	tests := []struct{ text, want string }{
		{"SAVEPOINT s1", "s1"},
		{"savepoint Mixed_Case", "mixed_case"},
		{`SAVEPOINT "Two ""Words"""`, `Two "Words"`},
		{"RELEASE s1", "s1"},
		{"RELEASE SAVEPOINT _pg3_1", "_pg3_1"},
		{"ROLLBACK TO sa_savepoint_1", "sa_savepoint_1"},
		{"ROLLBACK TRANSACTION TO SAVEPOINT \"X\"", "X"},
		{"SAVEPOINT", ""},
	}
	for _, tt := range tests {
		if got := plan.Classify(tt.text).Savepoint; got != tt.want {
			t.Errorf("Classify(%q).Savepoint = %q, want %q", tt.text, got, tt.want)
		}
	}
}
