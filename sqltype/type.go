// Package sqltype describes the types of the values Mallard's engine
// produces: DuckDB's logical types, with the aliases Mallard registers for
// Postgres types DuckDB lacks. It is plain data with no DuckDB in it, so
// that the wire protocol's codecs, and their tests and fuzzers, build
// without cgo; storage fills these descriptions in from DuckDB.
package sqltype

import "fmt"

// ID names a DuckDB logical type. The values are DuckDB's own (duckdb_type
// in the C API), so they are stable across the versions Mallard pins.
type ID int

// The DuckDB types Mallard distinguishes.
const (
	Invalid     ID = 0
	Boolean     ID = 1
	TinyInt     ID = 2
	SmallInt    ID = 3
	Integer     ID = 4
	BigInt      ID = 5
	UTinyInt    ID = 6
	USmallInt   ID = 7
	UInteger    ID = 8
	UBigInt     ID = 9
	Float       ID = 10
	Double      ID = 11
	Timestamp   ID = 12
	Date        ID = 13
	Time        ID = 14
	Interval    ID = 15
	HugeInt     ID = 16
	Varchar     ID = 17
	Blob        ID = 18
	Decimal     ID = 19
	TimestampS  ID = 20
	TimestampMS ID = 21
	TimestampNS ID = 22
	Enum        ID = 23
	List        ID = 24
	Struct      ID = 25
	Map         ID = 26
	UUID        ID = 27
	Union       ID = 28
	Bit         ID = 29
	TimeTZ      ID = 30
	TimestampTZ ID = 31
	UHugeInt    ID = 32
	Array       ID = 33
	Any         ID = 34
	BigNum      ID = 35
	SQLNull     ID = 36
)

// Type describes a DuckDB logical type: enough for a front end to choose a
// wire type and an encoder without asking DuckDB again.
type Type struct {
	ID ID
	// Alias is DuckDB's alias of the type, such as "JSON"; empty if none.
	Alias string
	// Width and Scale are set for Decimal.
	Width, Scale uint8
	// Elem is the element type of List and Array, and the value type of
	// Map.
	Elem *Type
	// Key is the key type of Map.
	Key *Type
	// Fields are the members of Struct and Union.
	Fields []Field
	// Size is the fixed length of Array.
	Size int
}

// Field is a named member of a STRUCT or UNION.
type Field struct {
	Name string
	Type Type
}

// Column is a named, typed result column.
type Column struct {
	Name string
	Type Type
}

// IsJSON reports whether t is DuckDB's JSON type (VARCHAR aliased JSON).
func (t Type) IsJSON() bool { return t.ID == Varchar && t.Alias == "JSON" }

// IsJSONB reports whether t is the alias that stands for Postgres' jsonb.
func (t Type) IsJSONB() bool { return t.ID == Varchar && t.Alias == AliasJSONB }

// IsMoney reports whether t is the alias that stands for Postgres' money.
func (t Type) IsMoney() bool { return t.ID == Decimal && t.Alias == AliasMoney }

// String renders t in DuckDB's SQL spelling, for messages.
func (t Type) String() string {
	switch t.ID {
	case Decimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Width, t.Scale)
	case List:
		if t.Elem != nil {
			return t.Elem.String() + "[]"
		}
	case Array:
		if t.Elem != nil {
			return fmt.Sprintf("%s[%d]", t.Elem.String(), t.Size)
		}
	}
	if t.Alias != "" {
		return t.Alias
	}
	if name, ok := names[t.ID]; ok {
		return name
	}
	return fmt.Sprintf("TYPE(%d)", int(t.ID))
}

// names is a read-only table of DuckDB's spelling of each type.
var names = map[ID]string{
	Boolean: "BOOLEAN", TinyInt: "TINYINT", SmallInt: "SMALLINT",
	Integer: "INTEGER", BigInt: "BIGINT", UTinyInt: "UTINYINT",
	USmallInt: "USMALLINT", UInteger: "UINTEGER", UBigInt: "UBIGINT",
	Float: "FLOAT", Double: "DOUBLE", Timestamp: "TIMESTAMP",
	Date: "DATE", Time: "TIME", Interval: "INTERVAL",
	HugeInt: "HUGEINT", Varchar: "VARCHAR", Blob: "BLOB",
	TimestampS: "TIMESTAMP_S", TimestampMS: "TIMESTAMP_MS",
	TimestampNS: "TIMESTAMP_NS", Enum: "ENUM", Struct: "STRUCT",
	Map: "MAP", UUID: "UUID", Union: "UNION", Bit: "BIT",
	TimeTZ: "TIMETZ", TimestampTZ: "TIMESTAMPTZ", UHugeInt: "UHUGEINT",
	Any: "ANY", BigNum: "BIGNUM", SQLNull: "NULL",
}
