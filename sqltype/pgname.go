package sqltype

import (
	"fmt"
	"strings"
)

// PGName is t as Postgres names the type a client sees for it (the name
// format_type gives, as in Postgres' own messages): integer, double
// precision, text, character varying, numeric(10,2), integer[]. Messages
// about a value's type use it, so that they agree with what the client's
// driver and the catalog report. A type Postgres has no counterpart for
// keeps DuckDB's name, in lower case.
func (t Type) PGName() string {
	switch t.ID {
	case Decimal:
		if t.IsMoney() {
			return "money"
		}
		return fmt.Sprintf("numeric(%d,%d)", t.Width, t.Scale)
	case List, Array:
		if t.Elem != nil {
			return t.Elem.PGName() + "[]"
		}
	case Varchar:
		if name, ok := pgAliasNames[t.Alias]; ok {
			return name
		}
		return "text"
	}
	if name, ok := pgNames[t.ID]; ok {
		return name
	}
	return strings.ToLower(t.String())
}

// pgAliasNames are the Postgres names of the string types that stand for
// Postgres' own (see the Alias constants), and of DuckDB's JSON.
var pgAliasNames = map[string]string{
	AliasName: "name", AliasChar: `"char"`, AliasVarchar: "character varying", AliasBPChar: "character",
	AliasJSONB: "jsonb", "JSON": "json", AliasRegClass: "regclass", AliasRegType: "regtype",
	AliasRegProc: "regproc", AliasRegNamespace: "regnamespace",
}

// pgNames are the Postgres names of the types Mallard presents as
// Postgres' (unsigned and wide integers as the next wider signed type).
var pgNames = map[ID]string{
	Boolean: "boolean", TinyInt: "smallint", SmallInt: "smallint", Integer: "integer", BigInt: "bigint",
	UTinyInt: "smallint", USmallInt: "integer", UInteger: "bigint", UBigInt: "numeric", HugeInt: "numeric",
	UHugeInt: "numeric", BigNum: "numeric", Float: "real", Double: "double precision",
	Timestamp: "timestamp without time zone", TimestampS: "timestamp without time zone",
	TimestampMS: "timestamp without time zone", TimestampNS: "timestamp without time zone",
	TimestampTZ: "timestamp with time zone", Date: "date", Time: "time without time zone",
	TimeTZ: "time with time zone", Interval: "interval", Blob: "bytea", UUID: "uuid", Bit: "bit varying",
	Enum: "text",
}
