package sqlfront

import (
	"strconv"

	"github.com/mallard/mallard/sqlstate"
)

// copyBack copies a rebuilt table's rows back from its temporary table.
// DuckDB checks a foreign key that references the key's own table (an
// employee's manager_id, another employee's id) only against the rows that
// were in the table before the statement, so when the table has one, the
// rows go back a level of the hierarchy at a time: first those that
// reference no row, then those that reference them, and so on. Rows that
// reference themselves or each other in a cycle, which Postgres accepts,
// cannot go back at all: the statement fails with 0A000 naming the key.
// Only a single-column key is treated so; a table with several such keys,
// or a wider one, is copied in one statement.
func (s *session) copyBack(t *tableDefinition) error {
	copyAll := "INSERT INTO " + t.qualified() + " SELECT * FROM temp." + t.temp
	fks, err := s.queryText("SELECT constraint_column_names[1], referenced_column_names[1], coalesce(constraint_name, '') FROM duckdb_constraints()" +
		" WHERE database_name = current_database() AND schema_name = " + quoteLiteral(t.schema) + " AND table_name = " + quoteLiteral(t.name) +
		" AND constraint_type = 'FOREIGN KEY' AND referenced_table = table_name AND len(constraint_column_names) = 1")
	if err != nil {
		return err
	}
	if len(fks) != 1 {
		return s.execInternal(copyAll)
	}
	fk, ref, name := quoteIdent(fks[0][0]), quoteIdent(fks[0][1]), fks[0][2]
	levels := quoteIdent("mallard_levels_" + t.name)
	src := "temp." + t.temp
	if err := s.execInternal("CREATE TEMP TABLE " + levels + " AS WITH RECURSIVE l(rid, depth) AS (" +
		"SELECT rowid, 0 FROM " + src + " WHERE " + fk + " IS NULL UNION ALL " +
		"SELECT c.rowid, l.depth + 1 FROM " + src + " AS c JOIN " + src + " AS p ON c." + fk + " = p." + ref +
		" JOIN l ON l.rid = p.rowid WHERE c.rowid <> p.rowid) SELECT rid, max(depth) AS depth FROM l GROUP BY rid"); err != nil {
		return err
	}
	defer s.execInternal("DROP TABLE IF EXISTS temp." + levels)
	rows, err := s.queryText("SELECT coalesce(max(depth), -1) FROM temp." + levels)
	if err != nil || len(rows) != 1 {
		return err
	}
	deepest, err := strconv.Atoi(rows[0][0])
	if err != nil {
		return err
	}
	for level := 0; level <= deepest; level++ {
		if err := s.execInternal("INSERT INTO " + t.qualified() + " SELECT r.* FROM " + src + " AS r JOIN temp." + levels +
			" AS v ON v.rid = r.rowid WHERE v.depth = " + strconv.Itoa(level)); err != nil {
			return err
		}
	}
	rest := " FROM " + src + " AS r WHERE r.rowid NOT IN (SELECT rid FROM temp." + levels + ")"
	cyclic, err := s.queryText("SELECT count(*)" + rest + " AND r." + fk + " IN (SELECT " + ref + " FROM " + src + ")")
	if err != nil || len(cyclic) != 1 {
		return err
	}
	if cyclic[0][0] != "0" {
		return sqlstate.New(sqlstate.FeatureNotSupported,
			"foreign key %q of table %q cannot be added: %s row(s) reference themselves, each other in a cycle, or such rows, which DuckDB cannot check", name, t.name, cyclic[0][0]).
			WithHint("DuckDB checks a key that references its own table only against rows already in the table.")
	}
	// What is left references no row: inserting it fails as Postgres does (23503).
	return s.execInternal("INSERT INTO " + t.qualified() + " SELECT r.*" + rest)
}
