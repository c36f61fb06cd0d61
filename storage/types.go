package storage

import (
	"github.com/duckdb/duckdb-go/v2/mapping"

	"github.com/mallard/mallard/sqltype"
)

// The descriptions of DuckDB types are package sqltype's, which has no
// cgo, so that packages that only read them need not link DuckDB. storage
// names them too, for its callers that also run statements.
type (
	Type   = sqltype.Type
	TypeID = sqltype.ID
	Field  = sqltype.Field
	Column = sqltype.Column
)

// The DuckDB types Mallard distinguishes, as sqltype names them.
const (
	TypeInvalid     = sqltype.Invalid
	TypeBoolean     = sqltype.Boolean
	TypeTinyInt     = sqltype.TinyInt
	TypeSmallInt    = sqltype.SmallInt
	TypeInteger     = sqltype.Integer
	TypeBigInt      = sqltype.BigInt
	TypeUTinyInt    = sqltype.UTinyInt
	TypeUSmallInt   = sqltype.USmallInt
	TypeUInteger    = sqltype.UInteger
	TypeUBigInt     = sqltype.UBigInt
	TypeFloat       = sqltype.Float
	TypeDouble      = sqltype.Double
	TypeTimestamp   = sqltype.Timestamp
	TypeDate        = sqltype.Date
	TypeTime        = sqltype.Time
	TypeInterval    = sqltype.Interval
	TypeHugeInt     = sqltype.HugeInt
	TypeVarchar     = sqltype.Varchar
	TypeBlob        = sqltype.Blob
	TypeDecimal     = sqltype.Decimal
	TypeTimestampS  = sqltype.TimestampS
	TypeTimestampMS = sqltype.TimestampMS
	TypeTimestampNS = sqltype.TimestampNS
	TypeEnum        = sqltype.Enum
	TypeList        = sqltype.List
	TypeStruct      = sqltype.Struct
	TypeMap         = sqltype.Map
	TypeUUID        = sqltype.UUID
	TypeUnion       = sqltype.Union
	TypeBit         = sqltype.Bit
	TypeTimeTZ      = sqltype.TimeTZ
	TypeTimestampTZ = sqltype.TimestampTZ
	TypeUHugeInt    = sqltype.UHugeInt
	TypeArray       = sqltype.Array
	TypeAny         = sqltype.Any
	TypeBigNum      = sqltype.BigNum
	TypeSQLNull     = sqltype.SQLNull
)

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
