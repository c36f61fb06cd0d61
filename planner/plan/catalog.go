package plan

// Catalog names the objects Mallard installs in place of Postgres' system
// catalog, which the planner redirects references to.
type Catalog struct {
	// Database and the schemas in it that hold the replacement objects.
	Database, PGSchema, InfoSchema string
	// Views are pg_catalog relations (pg_class, ...), InfoViews
	// information_schema relations, Macros pg_catalog functions and
	// InfoMacros information_schema functions (_pg_expandarray).
	Views, InfoViews, Macros, InfoMacros []string
	// Functions maps each of Mallard's table functions to the names of its
	// named arguments; the planner rewrites calls of them (planner.rewriteCalls).
	Functions map[string][]string
	// Positional maps each of Mallard's table functions to the names of
	// its positional arguments, in order. A call that gives another number
	// of positional values is passed to the function with the count it
	// gave, for the function to refuse in its own words.
	Positional map[string][]string
	// Operations are Mallard's scalar functions named schema.function
	// (mlops.cancel, ...); calls of them are rewritten too.
	Operations []string
	// Scalars are Mallard's scalar functions that take the calling
	// session before their own arguments (recommendations).
	Scalars []string
	// Signatures are Mallard's table functions as the catalog shows them
	// (see catalog.Signatures).
	Signatures []Signature
}

// Signature is a function Mallard registers outside the catalog, as the
// catalog shows it (pg_proc, pg_get_function_arguments, psql's \df): its
// arguments in their declared order and the columns it returns.
type Signature struct {
	Name string
	// Args are the arguments a caller gives, in order.
	Args []Argument
	// Result are the columns it returns; nil shows as SETOF record.
	Result []Column
}

// Argument is an argument of a Signature: Type is a PostgreSQL type name,
// Default the SQL of its default value, empty when it has none.
type Argument struct {
	Name, Type, Default string
}

// Column is a column of a Signature's result and its PostgreSQL type name.
type Column struct {
	Name, Type string
}
