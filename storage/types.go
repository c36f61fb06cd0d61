package storage

import (
	"fmt"

	"github.com/duckdb/duckdb-go/v2/mapping"
)

// TypeID names a DuckDB logical type. The values are DuckDB's own
// (duckdb_type in the C API), so they are stable across the versions
// Mallard pins.
type TypeID int

// The DuckDB types Mallard distinguishes.
const (
	TypeInvalid     TypeID = 0
	TypeBoolean     TypeID = 1
	TypeTinyInt     TypeID = 2
	TypeSmallInt    TypeID = 3
	TypeInteger     TypeID = 4
	TypeBigInt      TypeID = 5
	TypeUTinyInt    TypeID = 6
	TypeUSmallInt   TypeID = 7
	TypeUInteger    TypeID = 8
	TypeUBigInt     TypeID = 9
	TypeFloat       TypeID = 10
	TypeDouble      TypeID = 11
	TypeTimestamp   TypeID = 12
	TypeDate        TypeID = 13
	TypeTime        TypeID = 14
	TypeInterval    TypeID = 15
	TypeHugeInt     TypeID = 16
	TypeVarchar     TypeID = 17
	TypeBlob        TypeID = 18
	TypeDecimal     TypeID = 19
	TypeTimestampS  TypeID = 20
	TypeTimestampMS TypeID = 21
	TypeTimestampNS TypeID = 22
	TypeEnum        TypeID = 23
	TypeList        TypeID = 24
	TypeStruct      TypeID = 25
	TypeMap         TypeID = 26
	TypeUUID        TypeID = 27
	TypeUnion       TypeID = 28
	TypeBit         TypeID = 29
	TypeTimeTZ      TypeID = 30
	TypeTimestampTZ TypeID = 31
	TypeUHugeInt    TypeID = 32
	TypeArray       TypeID = 33
	TypeAny         TypeID = 34
	TypeBigNum      TypeID = 35
	TypeSQLNull     TypeID = 36
)

// Type describes a DuckDB logical type: enough for a front end to choose a
// wire type and an encoder without asking DuckDB again.
type Type struct {
	ID TypeID
	// Alias is DuckDB's alias of the type, such as "JSON"; empty if none.
	Alias string
	// Width and Scale are set for TypeDecimal.
	Width, Scale uint8
	// Elem is the element type of TypeList and TypeArray, and the value
	// type of TypeMap.
	Elem *Type
	// Key is the key type of TypeMap.
	Key *Type
	// Fields are the members of TypeStruct and TypeUnion.
	Fields []Field
	// Size is the fixed length of TypeArray.
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
func (t Type) IsJSON() bool { return t.ID == TypeVarchar && t.Alias == "JSON" }

// IsJSONB reports whether t is the alias that stands for Postgres' jsonb.
func (t Type) IsJSONB() bool { return t.ID == TypeVarchar && t.Alias == AliasJSONB }

// IsMoney reports whether t is the alias that stands for Postgres' money.
func (t Type) IsMoney() bool { return t.ID == TypeDecimal && t.Alias == AliasMoney }

// String renders t in DuckDB's SQL spelling, for messages.
func (t Type) String() string {
	switch t.ID {
	case TypeDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Width, t.Scale)
	case TypeList:
		if t.Elem != nil {
			return t.Elem.String() + "[]"
		}
	case TypeArray:
		if t.Elem != nil {
			return fmt.Sprintf("%s[%d]", t.Elem.String(), t.Size)
		}
	}
	if t.Alias != "" {
		return t.Alias
	}
	if name, ok := typeNames[t.ID]; ok {
		return name
	}
	return fmt.Sprintf("TYPE(%d)", int(t.ID))
}

var typeNames = map[TypeID]string{
	TypeBoolean: "BOOLEAN", TypeTinyInt: "TINYINT", TypeSmallInt: "SMALLINT",
	TypeInteger: "INTEGER", TypeBigInt: "BIGINT", TypeUTinyInt: "UTINYINT",
	TypeUSmallInt: "USMALLINT", TypeUInteger: "UINTEGER", TypeUBigInt: "UBIGINT",
	TypeFloat: "FLOAT", TypeDouble: "DOUBLE", TypeTimestamp: "TIMESTAMP",
	TypeDate: "DATE", TypeTime: "TIME", TypeInterval: "INTERVAL",
	TypeHugeInt: "HUGEINT", TypeVarchar: "VARCHAR", TypeBlob: "BLOB",
	TypeTimestampS: "TIMESTAMP_S", TypeTimestampMS: "TIMESTAMP_MS",
	TypeTimestampNS: "TIMESTAMP_NS", TypeEnum: "ENUM", TypeStruct: "STRUCT",
	TypeMap: "MAP", TypeUUID: "UUID", TypeUnion: "UNION", TypeBit: "BIT",
	TypeTimeTZ: "TIMETZ", TypeTimestampTZ: "TIMESTAMPTZ", TypeUHugeInt: "UHUGEINT",
	TypeAny: "ANY", TypeBigNum: "BIGNUM", TypeSQLNull: "NULL",
}

// typeOf describes a DuckDB logical type. It does not take ownership of lt.
func typeOf(lt mapping.LogicalType) Type {
	t := Type{ID: TypeID(mapping.GetTypeId(lt)), Alias: mapping.LogicalTypeGetAlias(lt)}
	switch t.ID {
	case TypeDecimal:
		t.Width, t.Scale = mapping.DecimalWidth(lt), mapping.DecimalScale(lt)
	case TypeList:
		t.Elem = childType(mapping.ListTypeChildType(lt))
	case TypeArray:
		t.Elem = childType(mapping.ArrayTypeChildType(lt))
		t.Size = int(mapping.ArrayTypeArraySize(lt))
	case TypeMap:
		t.Key = childType(mapping.MapTypeKeyType(lt))
		t.Elem = childType(mapping.MapTypeValueType(lt))
	case TypeStruct:
		n := mapping.StructTypeChildCount(lt)
		for i := mapping.IdxT(0); i < n; i++ {
			t.Fields = append(t.Fields, Field{
				Name: mapping.StructTypeChildName(lt, i),
				Type: *childType(mapping.StructTypeChildType(lt, i)),
			})
		}
	case TypeUnion:
		n := mapping.UnionTypeMemberCount(lt)
		for i := mapping.IdxT(0); i < n; i++ {
			t.Fields = append(t.Fields, Field{
				Name: mapping.UnionTypeMemberName(lt, i),
				Type: *childType(mapping.UnionTypeMemberType(lt, i)),
			})
		}
	}
	return t
}

// childType describes and destroys a child logical type.
func childType(lt mapping.LogicalType) *Type {
	t := typeOf(lt)
	mapping.DestroyLogicalType(&lt)
	return &t
}
