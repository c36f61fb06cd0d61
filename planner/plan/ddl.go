package plan

// DDL is a Postgres statement that the server carries out as several DuckDB
// steps, or as none: the DDL that pg_dump, pgbench and schema tools write in
// forms DuckDB does not accept. Notices tell the client, before the steps
// run, what Mallard did not keep (an owner, a storage parameter, a
// privilege); a statement whose whole meaning is lost has no steps.
type DDL struct {
	Notices []string
	// Warnings say where Mallard keeps less than Postgres would in a way
	// that changes what later statements do (a foreign key's ON DELETE
	// CASCADE); they are sent as WARNINGs, which a dump's
	// client_min_messages = warning still shows.
	Warnings []string
	Steps    []DDLStep
	// Columns are the result columns (text) of a statement that returns
	// one row, such as setval; nil for none.
	Columns []string
}

// DDLStep is one step of a DDL: exactly one field is set.
type DDLStep struct {
	// SQL is a statement for DuckDB.
	SQL string
	// Setval moves a sequence, which DuckDB cannot set.
	Setval *Setval
	// Index creates an index of an access method DuckDB lacks as DuckDB's
	// own, unless a key column has a type DuckDB cannot index.
	Index *IndexStep
	// Constraint adds a constraint that DuckDB's ALTER TABLE cannot add.
	Constraint *ConstraintStep
	// Insert is an INSERT whose array constants depend on its columns' types.
	Insert *InsertStep
	// View is a CREATE VIEW whose relation names the server qualifies.
	View *ViewStep
}

// Setval is setval(Sequence, Value, IsCalled): after it, nextval returns
// Value plus the increment if IsCalled, else Value.
type Setval struct {
	Schema, Sequence string // Schema "" for the search path
	Value            int64
	IsCalled         bool
}

// IndexStep is CREATE INDEX SQL on Schema.Table, whose key columns are
// Columns (expressions are not checked).
type IndexStep struct {
	SQL, Name, Method, Schema, Table string
	Columns                          []string
}

// ConstraintStep is ALTER TABLE Schema.Table ADD Clause, where Clause is a
// PRIMARY KEY, UNIQUE, CHECK or FOREIGN KEY constraint (Kind) as CREATE
// TABLE writes it. DuckDB's ALTER TABLE adds none of them to a table with
// indexes, and no foreign key may reference the unique index it could
// make instead, so the server rebuilds the table.
type ConstraintStep struct {
	Schema, Table, Name, Clause, Kind string
	// Column is the column of a NOT NULL constraint (Kind "NOT NULL",
	// Clause ""), which the server adds to the column's definition.
	Column string
	// SelfClause, set for a foreign key that names its own table without a
	// schema, is Clause with that table qualified by SelfSchema, which the
	// server replaces with the schema it finds the table in: DuckDB takes
	// an unqualified name in the key of a CREATE TABLE for another table.
	// It is text, not a function, so that a plan stays plain data.
	SelfClause string
}

// SelfSchema stands for the schema of a self-referencing foreign key's
// table in ConstraintStep.SelfClause.
const SelfSchema = "mallard_self_schema"

// InsertStep is an INSERT ... VALUES with string constants in Postgres'
// array form ('{1,2}', '{"a b",c}'), as pg_dump --inserts writes array
// values. DuckDB reads only its own list form ('[1, 2]') as a list, and
// whether such a constant is an array or just text (or JSON: '{}') depends
// on the column it goes to, which the server looks up before SQL renders
// the statement.
type InsertStep struct {
	Schema, Table string // Schema "" for the search path
	// Columns are the statement's target columns, lower-cased as Postgres
	// folds them; nil for all of the table's columns in order.
	Columns []string
	render  func(columns []string, lists map[string]bool) string
}

// NewInsertStep returns the step for an INSERT into schema.table (columns
// as InsertStep.Columns) that render writes for DuckDB, as SQL describes.
func NewInsertStep(schema, table string, columns []string, render func(columns []string, lists map[string]bool) string) *InsertStep {
	return &InsertStep{Schema: schema, Table: table, Columns: columns, render: render}
}

// SQL renders the statement for DuckDB: each array constant that goes to
// a column in lists (a list column; keys lower-cased) becomes an ARRAY of
// its elements, which DuckDB casts element by element, and every other
// constant stays as it is. columns are the table's columns in order.
func (s *InsertStep) SQL(columns []string, lists map[string]bool) string {
	return s.render(columns, lists)
}

// ViewStep is CREATE VIEW whose query names relations without a schema.
// Postgres binds those names when it creates the view, so a view keeps
// meaning the relations it meant, and pg_get_viewdef shows them qualified;
// DuckDB keeps the query's text and binds it anew at each use. The server
// finds each name's schema in the search path, as Postgres would, and SQL
// writes the view with the names qualified: DuckDB then means the same
// relations whatever the reader's search path, and a pg_dump of Mallard
// (which empties the search path) restores the view into PostgreSQL.
type ViewStep struct {
	// Names are the unqualified relation names of the query, each once;
	// names of its WITH queries are not among them.
	Names  []string
	render func(schemas map[string]string) string
}

// NewViewStep returns the step for a CREATE VIEW naming names that render
// writes with each name qualified, as SQL describes.
func NewViewStep(names []string, render func(schemas map[string]string) string) *ViewStep {
	return &ViewStep{Names: names, render: render}
}

// SQL renders the statement with each name in schemas qualified by its
// schema; a name not in schemas (not found) stays as written.
func (v *ViewStep) SQL(schemas map[string]string) string { return v.render(schemas) }
