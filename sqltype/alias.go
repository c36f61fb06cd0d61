package sqltype

// The DuckDB types that stand for Postgres string types DuckDB lacks. Each
// is a VARCHAR under an alias, so that a front end can present its values
// under the Postgres type's OID; the catalog gives its columns these types
// (a relation's name is a name, its relkind a "char"), and a value keeps
// its alias through views, joins, unions, CASE and min/max, as a Postgres
// value keeps its type. Each converts implicitly to VARCHAR, so every
// string function takes it and returns VARCHAR, as Postgres' name and
// "char" convert to text.
const (
	// AliasName stands for Postgres' name, an identifier.
	AliasName = "pg_name"
	// AliasChar stands for Postgres' "char", a one-byte code such as relkind.
	AliasChar = "pg_char"
	// AliasVarchar stands for Postgres' varchar: Mallard presents DuckDB's
	// own VARCHAR as text, and information_schema's character data is
	// varchar.
	AliasVarchar = "pg_varchar"
	// AliasBPChar stands for Postgres' bpchar, character(n): a string
	// padded with spaces to its length. It converts to VARCHAR without
	// the trailing spaces, as bpchar converts to text in Postgres, so
	// 'a'::char(3) || 'b' is 'ab' and length('a'::char(3)) is 1.
	AliasBPChar = "pg_bpchar"
	// AliasJSONB stands for Postgres' jsonb: JSON text that a front end
	// prints in jsonb's normalized form. It converts implicitly to JSON,
	// whose functions take it, and to VARCHAR.
	AliasJSONB = "pg_jsonb"
	// AliasRegClass, AliasRegType, AliasRegProc and AliasRegNamespace
	// stand for Postgres' regclass, regtype, regproc and regnamespace as
	// a select list shows them: the name of the object an OID stands for.
	AliasRegClass     = "pg_regclass"
	AliasRegType      = "pg_regtype"
	AliasRegProc      = "pg_regproc"
	AliasRegNamespace = "pg_regnamespace"
)

// AliasMoney stands for Postgres' money: a DECIMAL(18,2) under an alias,
// so that a front end presents it as money, "$1,234.56". Its casts to and
// from VARCHAR use that text (the C locale's); other casts are DECIMAL's.
// For arithmetic and functions it converts implicitly to DOUBLE, as
// Postgres multiplies and divides money in float8: DuckDB's arithmetic
// takes a DECIMAL of any width, which no cast registered through the C API
// can name, and an alias converts implicitly only where a cast is
// registered. A sum of money is thus float8 where Postgres' is money; the
// planner casts the arithmetic of values it can see are money back.
const AliasMoney = "pg_money"

// The element types of the DuckDB lists that stand for Postgres' int2vector
// and oidvector, the catalog's vectors of column numbers and type OIDs
// (pg_index.indkey, pg_proc.proargtypes). An int2vector is a list of
// AliasInt2VectorElem, a SMALLINT under an alias, and an oidvector a list of
// AliasOIDVectorElem, a BIGINT (Mallard's OIDs are BIGINT) under an alias.
// The alias is on the element, not the list: DuckDB matches no list
// function (len, list_contains, subscripts) to a list type with an alias of
// its own, but takes a list of any element type. So a vector keeps what
// clients do with the Postgres type in SQL (= ANY, unnest, subscripts),
// while its type still tells a front end to present it under the Postgres
// type's OID. A cast of the list to VARCHAR prints it as Postgres does, "1
// 2" rather than DuckDB's "[1, 2]", and a cast from VARCHAR reads that form
// ('1 2'::int2vector, proargtypes = '23'); neither is implicit, since a
// list that turned into a string to fit a function would change what the
// function means. An element converts implicitly to SMALLINT or BIGINT, as
// pg_name does to VARCHAR. Postgres numbers a vector's elements from 0,
// DuckDB from 1: the planner shifts the subscripts (see
// mallard_first_subscript in the catalog).
const (
	// AliasInt2VectorElem is the element type of an int2vector.
	AliasInt2VectorElem = "pg_int2vector_elem"
	// AliasOIDVectorElem is the element type of an oidvector.
	AliasOIDVectorElem = "pg_oidvector_elem"
)
