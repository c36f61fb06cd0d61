package sqlfront

import (
	"strconv"
	"strings"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// addConstraint adds a PRIMARY KEY, UNIQUE, CHECK or FOREIGN KEY
// constraint to an existing table by rebuilding the table (see
// plan.ConstraintStep for why): its
// rows go to a temporary table, the table is created again from its own
// definition plus the constraint, the rows come back (which checks them
// against the constraint, as Postgres does when it adds one), and its
// indexes and comments are made again.
//
// DuckDB refuses to drop a table that other tables' foreign keys
// reference, so those tables (and the ones that reference them) are
// rebuilt with it, unchanged. Rows that break the constraint fail the
// statement with 23503, 23505 or 23514 and leave the tables as they were.
func (s *session) addConstraint(c *plan.ConstraintStep) error {
	schema, err := s.relationSchema("duckdb_tables()", "table_name", c.Schema, c.Table)
	if err != nil {
		return err
	}
	target, err := s.saveDefinition(schema, c.Table)
	if err != nil {
		return err
	}
	tables, err := s.referencing(target)
	if err != nil {
		return err
	}
	for i, t := range tables {
		t.temp = quoteIdent("mallard_rebuild_" + strconv.Itoa(i) + "_" + t.name)
		if err := s.execInternal("CREATE TEMP TABLE " + t.temp + " AS SELECT * FROM " + t.qualified()); err != nil {
			return err
		}
		defer s.execInternal("DROP TABLE IF EXISTS temp." + t.temp)
	}
	if c.SelfClause != "" {
		self := *c
		self.Clause = strings.Replace(c.SelfClause, plan.SelfSchema+".", quoteIdent(schema)+".", 1)
		c = &self
	}
	old := target.sql
	if target.sql, err = withConstraint(old, c); err != nil {
		return err
	}
	if err := s.rebuild(tables); err != nil {
		target.sql = old
		if s.rebuild(tables) == nil {
			err = violation(c, err)
		}
		return err
	}
	return nil
}

// tableDefinition is what rebuilding a table must make again.
type tableDefinition struct {
	schema, name, sql, comment string
	indexes                    []string
	columnComments             [][]string // column, comment
	temp                       string     // the temporary table holding its rows
}

func (t *tableDefinition) qualified() string { return quoteIdent(t.schema) + "." + quoteIdent(t.name) }

// saveDefinition reads a table's definition from DuckDB's catalog.
func (s *session) saveDefinition(schema, table string) (*tableDefinition, error) {
	where := " WHERE database_name = current_database() AND schema_name = " + quoteLiteral(schema) + " AND table_name = " + quoteLiteral(table)
	defs, err := s.queryText("SELECT sql, coalesce(comment, '') FROM duckdb_tables()" + where)
	if err != nil || len(defs) != 1 {
		return nil, relationMissing(schema, table, err)
	}
	t := &tableDefinition{schema: schema, name: table, sql: strings.TrimSuffix(strings.TrimSpace(defs[0][0]), ";"), comment: defs[0][1]}
	indexes, err := s.queryText("SELECT sql FROM duckdb_indexes()" + where + " AND sql IS NOT NULL")
	if err != nil {
		return nil, err
	}
	for _, ix := range indexes {
		t.indexes = append(t.indexes, ix[0])
	}
	t.columnComments, err = s.queryText("SELECT column_name, comment FROM duckdb_columns()" + where + " AND comment IS NOT NULL AND comment <> ''")
	return t, err
}

// referencing returns target and every table whose foreign keys reference
// it, directly or through another, in an order in which each table comes
// before the tables that reference it (the order to create them in).
func (s *session) referencing(target *tableDefinition) ([]*tableDefinition, error) {
	fks, err := s.queryText("SELECT DISTINCT schema_name, table_name, referenced_table FROM duckdb_constraints()" +
		" WHERE database_name = current_database() AND constraint_type = 'FOREIGN KEY' AND table_name <> referenced_table")
	if err != nil {
		return nil, err
	}
	order := []*tableDefinition{target}
	seen := map[string]bool{target.schema + "." + target.name: true}
	for i := 0; i < len(order); i++ {
		for _, fk := range fks {
			key := fk[0] + "." + fk[1]
			if fk[2] != order[i].name || seen[key] {
				continue
			}
			t, err := s.saveDefinition(fk[0], fk[1])
			if err != nil {
				return nil, err
			}
			seen[key] = true
			order = append(order, t)
		}
	}
	return order, nil
}

// rebuild drops tables (referencing ones first), creates them again from
// their definitions (referenced ones first), copies their rows back from
// their temporary tables and makes their indexes and comments again.
func (s *session) rebuild(tables []*tableDefinition) error {
	for i := len(tables) - 1; i >= 0; i-- {
		if err := s.execInternal("DROP TABLE IF EXISTS " + tables[i].qualified()); err != nil {
			return err
		}
	}
	for _, t := range tables {
		if err := s.execInternal(t.sql); err != nil {
			return err
		}
	}
	for _, t := range tables {
		if err := s.copyBack(t); err != nil {
			return err
		}
	}
	for _, t := range tables {
		restore := t.indexes
		if t.comment != "" {
			restore = append(restore, "COMMENT ON TABLE "+t.qualified()+" IS "+quoteLiteral(t.comment))
		}
		for _, cm := range t.columnComments {
			restore = append(restore, "COMMENT ON COLUMN "+t.qualified()+"."+quoteIdent(cm[0])+" IS "+quoteLiteral(cm[1]))
		}
		for _, q := range restore {
			if err := s.execInternal(q); err != nil {
				return err
			}
		}
	}
	return nil
}

// violation words a failed rebuild as Postgres reports rows that break a
// constraint being added, keeping DuckDB's message as the detail.
func violation(c *plan.ConstraintStep, err error) error {
	e := sqlstate.From(err)
	switch e.Code {
	case sqlstate.ForeignKeyViolation:
		return sqlstate.New(e.Code, "insert or update on table %q violates foreign key constraint %q", c.Table, c.Name).WithDetail("%s", e.Message)
	case sqlstate.NotNullViolation:
		if c.Kind == "NOT NULL" {
			return sqlstate.New(e.Code, "column %q of relation %q contains null values", c.Column, c.Table).WithDetail("%s", e.Message)
		}
		return sqlstate.New(e.Code, "could not create unique index %q", c.Name).WithDetail("%s", e.Message)
	case sqlstate.UniqueViolation, sqlstate.IntegrityConstraintViolation:
		if e.Code == sqlstate.IntegrityConstraintViolation { // DuckDB's duplicates within one INSERT
			e = &sqlstate.Error{Code: sqlstate.UniqueViolation, Message: e.Message}
		}
		return sqlstate.New(e.Code, "could not create unique index %q", c.Name).WithDetail("%s", e.Message)
	case sqlstate.CheckViolation:
		return sqlstate.New(e.Code, "check constraint %q of relation %q is violated by some row", c.Name, c.Table).WithDetail("%s", e.Message)
	}
	return err
}

// withConstraint returns the definition of a table (CREATE TABLE
// name(...), as DuckDB's catalog writes it) with c added: a table
// constraint at the end of the list, or NOT NULL on c's column.
func withConstraint(def string, c *plan.ConstraintStep) (string, error) {
	open, end := strings.IndexByte(def, '('), strings.LastIndexByte(def, ')')
	if open < 0 || end < open || !strings.HasPrefix(def, "CREATE TABLE ") {
		return "", sqlstate.New(sqlstate.InternalError, "cannot read the definition of table %q", c.Table)
	}
	if c.Kind != "NOT NULL" {
		return def[:end] + ", " + c.Clause + def[end:], nil
	}
	elems := splitTopLevel(def[open+1 : end])
	for i, e := range elems {
		name := strings.TrimSpace(e)
		if sp := strings.IndexByte(name, ' '); sp > 0 {
			name = name[:sp]
		}
		if name == c.Column || name == quoteIdent(c.Column) {
			if !strings.Contains(e, "NOT NULL") {
				elems[i] = e + " NOT NULL"
			}
			return def[:open+1] + strings.Join(elems, ",") + def[end:], nil
		}
	}
	return "", sqlstate.New(sqlstate.UndefinedColumn, "column %q of relation %q does not exist", c.Column, c.Table)
}

// splitTopLevel splits a column list at the commas outside parentheses,
// string constants and quoted names.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
