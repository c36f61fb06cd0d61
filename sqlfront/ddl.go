package sqlfront

import (
	"strconv"
	"strings"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// ddlStatement is the synthetic form of a plan.DDL: the notices saying
// what is not kept, then each step in order. The steps run in the session's
// transaction, if one is open; a step that fails ends the statement with
// its error.
func (s *session) ddlStatement(st plan.Statement) *synthetic {
	ddl := st.DDL
	return &synthetic{cols: ddl.Columns, tag: st.Tag, run: func(s *session, _ []any) ([][]string, error) {
		if s.readOnly {
			return nil, s.srv.db.ReadOnlyError(st.Tag)
		}
		for _, n := range ddl.Notices {
			s.sendNotice("NOTICE", sqlstate.SuccessfulCompletion, n)
		}
		for _, w := range ddl.Warnings {
			s.sendNotice("WARNING", sqlstate.Warning, w)
		}
		var rows [][]string
		for _, step := range ddl.Steps {
			value, err := s.ddlStep(step)
			if err != nil {
				return nil, err
			}
			if value != "" && ddl.Columns != nil {
				rows = append(rows, []string{value})
			}
		}
		return rows, nil
	}}
}

// ddlStep runs one step; a setval step returns the value set.
func (s *session) ddlStep(step plan.DDLStep) (string, error) {
	switch {
	case step.Setval != nil:
		return s.setval(step.Setval)
	case step.Index != nil:
		return "", s.createIndex(step.Index)
	case step.Constraint != nil:
		return "", s.addConstraint(step.Constraint)
	case step.Insert != nil:
		return "", s.insertArrays(step.Insert)
	case step.View != nil:
		return "", s.createView(step.View)
	}
	return "", s.execInternal(step.SQL)
}

// execInternal runs one statement the server wrote. Its error positions
// point into that text, not the client's, so they are dropped.
func (s *session) execInternal(q string) error {
	ctx, done := s.statementContext()
	defer done()
	if err := s.db.Exec(ctx, q); err != nil {
		e := *sqlstate.From(err)
		e.Position = 0
		return &e
	}
	return nil
}

// setval moves a sequence, which DuckDB cannot set, by drawing values from
// it until its last value is the one setval asks for. A DuckDB sequence
// only advances by its increment, so setval refuses a value behind it or
// off its step; a freshly restored sequence is always behind.
func (s *session) setval(sv *plan.Setval) (string, error) {
	schema, err := s.relationSchema("duckdb_sequences()", "sequence_name", sv.Schema, sv.Sequence)
	if err != nil {
		return "", err
	}
	rows, err := s.queryText("SELECT coalesce(last_value, start_value - increment_by), increment_by, min_value, max_value FROM duckdb_sequences()" +
		" WHERE database_name = current_database() AND schema_name = " + quoteLiteral(schema) + " AND sequence_name = " + quoteLiteral(sv.Sequence))
	if err != nil || len(rows) != 1 {
		return "", relationMissing(sv.Schema, sv.Sequence, err)
	}
	var n [4]int64
	for i := range n {
		if n[i], err = strconv.ParseInt(rows[0][i], 10, 64); err != nil {
			return "", err
		}
	}
	last, inc, lo, hi := n[0], n[1], n[2], n[3]
	if sv.Value < lo || sv.Value > hi {
		return "", sqlstate.New(sqlstate.NumericValueOutOfRange, "setval: value %d is out of bounds for sequence %q (%d..%d)", sv.Value, sv.Sequence, lo, hi)
	}
	target := sv.Value
	if !sv.IsCalled {
		target -= inc
	}
	diff := target - last
	if diff%inc != 0 || diff/inc < 0 {
		return "", sqlstate.New(sqlstate.FeatureNotSupported,
			"setval of sequence %q to %d is not supported: its last value is %d, and a DuckDB sequence only moves forward by its increment (%d)",
			sv.Sequence, sv.Value, last, inc).WithHint("Drop the sequence and create it with START WITH the value you need.")
	}
	if steps := diff / inc; steps > 0 {
		name := quoteLiteral(quoteIdent(schema) + "." + quoteIdent(sv.Sequence))
		if err := s.execInternal("SELECT max(nextval(" + name + ")) FROM range(" + strconv.FormatInt(steps, 10) + ")"); err != nil {
			return "", err
		}
	}
	return strconv.FormatInt(sv.Value, 10), nil
}

// relationSchema finds the schema of a relation listed in catalog
// (duckdb_tables() or duckdb_sequences()) under column: schema itself if
// given, else the first schema of the search path that has it.
func (s *session) relationSchema(catalog, column, schema, name string) (string, error) {
	if schema != "" {
		return schema, nil
	}
	rows, err := s.queryText("SELECT schema_name FROM " + catalog + " WHERE database_name = current_database() AND " + column + " = " + quoteLiteral(name) +
		" AND list_contains(current_schemas(true), schema_name) ORDER BY list_position(current_schemas(true), schema_name) LIMIT 1")
	if err != nil || len(rows) == 0 {
		return "", relationMissing(schema, name, err)
	}
	return rows[0][0], nil
}

func relationMissing(schema, name string, err error) error {
	if err != nil {
		return err
	}
	if schema != "" {
		name = schema + "." + name
	}
	return sqlstate.New(sqlstate.UndefinedTable, "relation %q does not exist", name)
}

// createIndex creates an index of an access method DuckDB lacks as
// DuckDB's own (an ART index), and says so; when a key column has a type
// an ART index cannot hold (a list, struct or map, as gin indexes on
// arrays and jsonb have), it creates none and says that instead.
func (s *session) createIndex(ix *plan.IndexStep) error {
	schema, err := s.relationSchema("duckdb_tables()", "table_name", ix.Schema, ix.Table)
	if err != nil {
		return err
	}
	rows, err := s.queryText("SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = " +
		quoteLiteral(schema) + " AND table_name = " + quoteLiteral(ix.Table))
	if err != nil {
		return err
	}
	for _, r := range rows {
		for _, c := range ix.Columns {
			if r[0] == c && unindexable(r[1]) {
				s.sendNotice("NOTICE", sqlstate.SuccessfulCompletion, ix.Method+" index "+quoteIdent(ix.Name)+" is not created: DuckDB cannot index column "+
					quoteIdent(c)+" of type "+r[1]+"; queries on it scan the table")
				return nil
			}
		}
	}
	s.sendNotice("NOTICE", sqlstate.SuccessfulCompletion, "DuckDB has no "+ix.Method+" indexes: index "+quoteIdent(ix.Name)+" is created as DuckDB's own (ART) index")
	return s.execInternal(ix.SQL)
}

// unindexable reports whether an ART index cannot have a key of DuckDB type t.
func unindexable(t string) bool {
	return strings.HasSuffix(t, "]") || strings.HasPrefix(t, "STRUCT") || strings.HasPrefix(t, "MAP") || strings.HasPrefix(t, "UNION")
}

// insertArrays runs an INSERT whose array constants ('{1,2}') become lists
// where they go to a list column of the table (see plan.InsertStep).
func (s *session) insertArrays(ins *plan.InsertStep) error {
	schema, err := s.relationSchema("duckdb_tables()", "table_name", ins.Schema, ins.Table)
	if err != nil {
		return err
	}
	rows, err := s.queryText("SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = " +
		quoteLiteral(schema) + " AND table_name = " + quoteLiteral(ins.Table) + " ORDER BY column_index")
	if err != nil {
		return err
	}
	columns := make([]string, len(rows))
	lists := map[string]bool{}
	for i, r := range rows {
		columns[i] = r[0]
		if strings.HasSuffix(r[1], "]") {
			lists[strings.ToLower(r[0])] = true
		}
	}
	return s.execInternal(ins.SQL(columns, lists))
}

// relations lists the tables and views of every schema, for relationSchema.
const relations = "(SELECT database_name, schema_name, table_name FROM duckdb_tables()" +
	" UNION ALL SELECT database_name, schema_name, view_name FROM duckdb_views() WHERE NOT internal)"

// createView creates a view with the relation names of its query
// qualified by the schema the search path finds them in (see
// plan.ViewStep); a name found nowhere is left for DuckDB to report.
func (s *session) createView(v *plan.ViewStep) error {
	schemas := map[string]string{}
	for _, name := range v.Names {
		if schema, err := s.relationSchema(relations, "table_name", "", name); err == nil {
			schemas[name] = schema
		}
	}
	return s.execInternal(v.SQL(schemas))
}
