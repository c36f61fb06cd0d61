package planner_test

import (
	"testing"

	"github.com/mallard/mallard/planner"
)

// classifyCase is one Classify input and the Kind and Tag it should get.
type classifyCase struct {
	name     string
	input    string
	wantKind planner.Kind
	wantTag  string
}

// checkClassify runs Classify on each case.
func checkClassify(t *testing.T, tests []classifyCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := planner.Classify(tt.input)
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
		{"empty", "", planner.KindEmpty, ""},
		{"only comment", "-- x\n/* y */", planner.KindEmpty, ""},
		{"only semicolon", ";", planner.KindEmpty, ""},
		{"select", "SELECT 1", planner.KindQuery, "SELECT"},
		{"lower case", "select 1", planner.KindQuery, "SELECT"},
		{"leading comments", "-- a\n/* b /* c */ */ SeLeCt 1", planner.KindQuery, "SELECT"},
		{"parenthesised union", "(SELECT 1) UNION (SELECT 2)", planner.KindQuery, "SELECT"},
		{"values", "VALUES (1), (2)", planner.KindQuery, "SELECT"},
		{"table", "TABLE t", planner.KindQuery, "SELECT"},
		{"from first", "FROM t SELECT a", planner.KindQuery, "SELECT"},
		{"pivot", "PIVOT t ON a USING sum(b)", planner.KindQuery, "SELECT"},
		{"unpivot", "UNPIVOT t ON a, b INTO NAME k VALUE v", planner.KindQuery, "SELECT"},
		{"describe", "DESCRIBE t", planner.KindQuery, "SELECT"},
		{"summarize", "SUMMARIZE t", planner.KindQuery, "SELECT"},
		{"pragma", "PRAGMA table_info('t')", planner.KindQuery, "SELECT"},
		{"call", "CALL duckdb_settings()", planner.KindQuery, "SELECT"},
		{"show", "SHOW search_path", planner.KindQuery, "SHOW"},
		{"show tables", "SHOW TABLES", planner.KindQuery, "SHOW"},
		{"explain", "EXPLAIN ANALYZE SELECT 1", planner.KindQuery, "EXPLAIN"},
		{"with select", "WITH x AS (SELECT 1) SELECT * FROM x", planner.KindQuery, "SELECT"},
		{"with recursive", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT * FROM r",
			planner.KindQuery, "SELECT"},
		{"with insert", "WITH x AS (SELECT 1 AS a) INSERT INTO t SELECT a FROM x", planner.KindInsert, "INSERT"},
		{"with several ctes and update", "with a as (select 1), b (c) as materialized (select 2) update t set c = 1",
			planner.KindUpdate, "UPDATE"},
		{"with not materialized delete", "WITH a AS NOT MATERIALIZED (SELECT 1) DELETE FROM t",
			planner.KindDelete, "DELETE"},
		{"with delete cte then select", "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
			planner.KindQuery, "SELECT"},
		{"with cte named insert", "WITH insert AS (SELECT 1) SELECT * FROM insert", planner.KindQuery, "SELECT"},
		{"with parenthesised main", "WITH a AS (SELECT 1) (SELECT * FROM a)", planner.KindQuery, "SELECT"},
	})
}

func TestClassifyDML(t *testing.T) {
	checkClassify(t, []classifyCase{
		{"insert", "INSERT INTO t VALUES (1)", planner.KindInsert, "INSERT"},
		{"insert or replace", "INSERT OR REPLACE INTO t VALUES (1)", planner.KindInsert, "INSERT"},
		{"update", "UPDATE t SET a = 1", planner.KindUpdate, "UPDATE"},
		{"delete", "DELETE FROM t", planner.KindDelete, "DELETE"},
		{"merge", "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE", planner.KindMerge, "MERGE"},
	})
}

func TestClassifyTransactions(t *testing.T) {
	checkClassify(t, []classifyCase{
		{"begin", "BEGIN", planner.KindBegin, "BEGIN"},
		{"begin transaction", "BEGIN TRANSACTION ISOLATION LEVEL SERIALIZABLE", planner.KindBegin, "BEGIN"},
		{"start transaction", "START TRANSACTION", planner.KindBegin, "BEGIN"},
		{"commit", "COMMIT", planner.KindCommit, "COMMIT"},
		{"commit work", "commit work", planner.KindCommit, "COMMIT"},
		{"end", "END", planner.KindCommit, "COMMIT"},
		{"rollback", "ROLLBACK", planner.KindRollback, "ROLLBACK"},
		{"rollback transaction", "ROLLBACK TRANSACTION", planner.KindRollback, "ROLLBACK"},
		{"abort", "ABORT", planner.KindRollback, "ROLLBACK"},
		{"commit prepared", "COMMIT PREPARED 'x'", planner.KindOther, "COMMIT PREPARED"},
		{"rollback prepared", "ROLLBACK PREPARED 'x'", planner.KindOther, "ROLLBACK PREPARED"},
		{"prepare transaction", "PREPARE TRANSACTION 'x'", planner.KindOther, "PREPARE TRANSACTION"},
		{"savepoint", "SAVEPOINT s", planner.KindSavepoint, "SAVEPOINT"},
		{"release", "RELEASE SAVEPOINT s", planner.KindSavepoint, "RELEASE"},
		{"rollback to", "ROLLBACK TO s", planner.KindSavepoint, "ROLLBACK"},
		{"rollback to savepoint", "ROLLBACK TO SAVEPOINT s", planner.KindSavepoint, "ROLLBACK"},
		{"rollback work to savepoint", "ROLLBACK WORK TO SAVEPOINT s", planner.KindSavepoint, "ROLLBACK"},
	})
}

func TestClassifyCreateDropAlter(t *testing.T) {
	checkClassify(t, []classifyCase{
		{"create table", "CREATE TABLE t (a int)", planner.KindDDL, "CREATE TABLE"},
		{"create or replace table", "CREATE OR REPLACE TABLE t (a int)", planner.KindDDL, "CREATE TABLE"},
		{"create temp table", "CREATE TEMP TABLE t (a int)", planner.KindDDL, "CREATE TABLE"},
		{"create temporary table", "create temporary table t (a int)", planner.KindDDL, "CREATE TABLE"},
		{"create table if not exists", "CREATE TABLE IF NOT EXISTS t (a int)", planner.KindDDL, "CREATE TABLE"},
		{"create table generated as", "CREATE TABLE t (a int, b int GENERATED ALWAYS AS (a + 1))",
			planner.KindDDL, "CREATE TABLE"},
		{"create table as", "CREATE TABLE t AS SELECT 1", planner.KindDDL, "SELECT"},
		{"create table columns as", "CREATE TABLE t (a) AS (SELECT 1)", planner.KindDDL, "SELECT"},
		{"create or replace temp table as", "CREATE OR REPLACE TEMP TABLE t AS FROM s", planner.KindDDL, "SELECT"},
		{"create view", "CREATE VIEW v AS SELECT 1", planner.KindDDL, "CREATE VIEW"},
		{"create or replace view", "CREATE OR REPLACE VIEW v AS SELECT 1", planner.KindDDL, "CREATE VIEW"},
		{"create temporary view", "CREATE TEMPORARY VIEW v AS SELECT 1", planner.KindDDL, "CREATE VIEW"},
		{"create materialized view", "CREATE MATERIALIZED VIEW v AS SELECT 1", planner.KindDDL, "SELECT"},
		{"create index", "CREATE INDEX i ON t (a)", planner.KindDDL, "CREATE INDEX"},
		{"create unique index", "CREATE UNIQUE INDEX i ON t (a)", planner.KindDDL, "CREATE INDEX"},
		{"create schema", "CREATE SCHEMA s", planner.KindDDL, "CREATE SCHEMA"},
		{"create sequence", "CREATE SEQUENCE s", planner.KindDDL, "CREATE SEQUENCE"},
		{"create macro", "CREATE MACRO m(a) AS a + 1", planner.KindDDL, "CREATE FUNCTION"},
		{"create or replace temp macro", "CREATE OR REPLACE TEMP MACRO m(a) AS TABLE SELECT a",
			planner.KindDDL, "CREATE FUNCTION"},
		{"create function", "CREATE FUNCTION f(a) AS a + 1", planner.KindDDL, "CREATE FUNCTION"},
		{"create type", "CREATE TYPE mood AS ENUM ('happy')", planner.KindDDL, "CREATE TYPE"},
		{"create unknown object", "CREATE SECRET s (TYPE s3)", planner.KindDDL, "CREATE SECRET"},
		{"drop table", "DROP TABLE t", planner.KindDDL, "DROP TABLE"},
		{"drop table if exists", "DROP TABLE IF EXISTS t CASCADE", planner.KindDDL, "DROP TABLE"},
		{"drop view", "DROP VIEW v", planner.KindDDL, "DROP VIEW"},
		{"drop index", "DROP INDEX i", planner.KindDDL, "DROP INDEX"},
		{"drop schema", "DROP SCHEMA s", planner.KindDDL, "DROP SCHEMA"},
		{"drop sequence", "DROP SEQUENCE s", planner.KindDDL, "DROP SEQUENCE"},
		{"drop function", "DROP FUNCTION f", planner.KindDDL, "DROP FUNCTION"},
		{"drop macro", "DROP MACRO m", planner.KindDDL, "DROP FUNCTION"},
		{"drop macro table", "DROP MACRO TABLE m", planner.KindDDL, "DROP FUNCTION"},
		{"drop type", "DROP TYPE mood", planner.KindDDL, "DROP TYPE"},
		{"drop materialized view", "DROP MATERIALIZED VIEW v", planner.KindDDL, "DROP MATERIALIZED VIEW"},
		{"alter table", "ALTER TABLE t ADD COLUMN b int", planner.KindDDL, "ALTER TABLE"},
		{"alter view", "ALTER VIEW v RENAME TO w", planner.KindDDL, "ALTER VIEW"},
		{"alter sequence", "ALTER SEQUENCE s RESTART", planner.KindDDL, "ALTER SEQUENCE"},
	})
}

func TestClassifyCommands(t *testing.T) {
	checkClassify(t, []classifyCase{
		{"copy", "COPY t FROM STDIN", planner.KindCopy, "COPY"},
		{"set", "SET search_path = public", planner.KindSet, "SET"},
		{"set local", "SET LOCAL x = 1", planner.KindSet, "SET"},
		{"reset", "RESET ALL", planner.KindReset, "RESET"},
		{"truncate", "TRUNCATE t", planner.KindDDL, "TRUNCATE TABLE"},
		{"truncate table", "TRUNCATE TABLE t", planner.KindDDL, "TRUNCATE TABLE"},
		{"comment", "COMMENT ON TABLE t IS 'x'", planner.KindDDL, "COMMENT"},
		{"attach", "ATTACH 'f.db' AS f", planner.KindDDL, "ATTACH"},
		{"detach", "DETACH f", planner.KindDDL, "DETACH"},
		{"checkpoint", "CHECKPOINT", planner.KindDDL, "CHECKPOINT"},
		{"force checkpoint", "FORCE CHECKPOINT", planner.KindDDL, "CHECKPOINT"},
		{"vacuum", "VACUUM", planner.KindDDL, "VACUUM"},
		{"analyze", "ANALYZE t", planner.KindDDL, "ANALYZE"},
		{"analyse", "ANALYSE", planner.KindDDL, "ANALYZE"},
		{"load", "LOAD httpfs", planner.KindDDL, "LOAD"},
		{"install", "INSTALL httpfs", planner.KindDDL, "INSTALL"},
		{"force install", "FORCE INSTALL httpfs", planner.KindDDL, "INSTALL"},
		{"export", "EXPORT DATABASE 'dir'", planner.KindDDL, "EXPORT"},
		{"import", "IMPORT DATABASE 'dir'", planner.KindDDL, "IMPORT"},
		{"use", "USE memory", planner.KindDDL, "USE"},
		{"deallocate", "DEALLOCATE p", planner.KindDDL, "DEALLOCATE"},
		{"deallocate prepare all", "DEALLOCATE PREPARE ALL", planner.KindDDL, "DEALLOCATE"},
		{"prepare", "PREPARE p AS SELECT 1", planner.KindDDL, "PREPARE"},
		{"discard all", "DISCARD ALL", planner.KindDDL, "DISCARD ALL"},
		{"discard temporary", "DISCARD TEMPORARY", planner.KindDDL, "DISCARD TEMP"},
		{"execute", "EXECUTE p(1)", planner.KindOther, "EXECUTE"},
		{"unknown", "listen foo", planner.KindOther, "LISTEN"},
		{"start without transaction", "START x", planner.KindOther, "START"},
		{"not a word", "$1", planner.KindOther, "$"},
	})
}

func TestClassifyReturning(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  bool
	}{
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := planner.Classify(tt.input).Returning; got != tt.want {
				t.Errorf("Classify(%q).Returning = %v, want %v", tt.input, got, tt.want)
			}
		})
	}
}

func TestIsTransactionExit(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  bool
	}{
		{"commit", "COMMIT", true},
		{"end", "END TRANSACTION", true},
		{"rollback", "ROLLBACK", true},
		{"abort", "abort", true},
		{"rollback to savepoint", "ROLLBACK TO SAVEPOINT s", false},
		{"commit prepared", "COMMIT PREPARED 'x'", false},
		{"begin", "BEGIN", false},
		{"savepoint", "SAVEPOINT s", false},
		{"select", "SELECT 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := planner.Classify(tt.input).IsTransactionExit(); got != tt.want {
				t.Errorf("Classify(%q).IsTransactionExit() = %v, want %v", tt.input, got, tt.want)
			}
		})
	}
}
