package sqltype_test

import (
	"testing"

	"github.com/mallard/mallard/sqltype"
)

func TestTypeString(t *testing.T) {
	bigint := sqltype.Type{ID: sqltype.BigInt}
	tests := []struct {
		name string
		typ  sqltype.Type
		want string
	}{
		{"primitive", sqltype.Type{ID: sqltype.TimestampTZ}, "TIMESTAMPTZ"},
		{"decimal", sqltype.Type{ID: sqltype.Decimal, Width: 18, Scale: 2}, "DECIMAL(18,2)"},
		{"decimal under an alias", sqltype.Type{ID: sqltype.Decimal, Alias: sqltype.AliasMoney, Width: 18, Scale: 2}, "DECIMAL(18,2)"},
		{"list", sqltype.Type{ID: sqltype.List, Elem: &bigint}, "BIGINT[]"},
		{"array", sqltype.Type{ID: sqltype.Array, Elem: &bigint, Size: 3}, "BIGINT[3]"},
		{"list of lists", sqltype.Type{ID: sqltype.List, Elem: &sqltype.Type{ID: sqltype.List, Elem: &bigint}}, "BIGINT[][]"},
		{"alias", sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasJSONB}, "pg_jsonb"},
		{"list without element", sqltype.Type{ID: sqltype.List}, "TYPE(24)"},
		{"unknown", sqltype.Type{ID: 99}, "TYPE(99)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.typ.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTypeAliases(t *testing.T) {
	tests := []struct {
		name               string
		typ                sqltype.Type
		json, jsonb, money bool
	}{
		{"json", sqltype.Type{ID: sqltype.Varchar, Alias: "JSON"}, true, false, false},
		{"jsonb", sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasJSONB}, false, true, false},
		{"money", sqltype.Type{ID: sqltype.Decimal, Alias: sqltype.AliasMoney, Width: 18, Scale: 2}, false, false, true},
		{"varchar", sqltype.Type{ID: sqltype.Varchar}, false, false, false},
		{"money alias on the wrong base type", sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasMoney}, false, false, false},
		{"jsonb alias on the wrong base type", sqltype.Type{ID: sqltype.Blob, Alias: sqltype.AliasJSONB}, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.typ.IsJSON(); got != tt.json {
				t.Errorf("IsJSON() = %v, want %v", got, tt.json)
			}
			if got := tt.typ.IsJSONB(); got != tt.jsonb {
				t.Errorf("IsJSONB() = %v, want %v", got, tt.jsonb)
			}
			if got := tt.typ.IsMoney(); got != tt.money {
				t.Errorf("IsMoney() = %v, want %v", got, tt.money)
			}
		})
	}
}

func TestPGName(t *testing.T) {
	elem := sqltype.Type{ID: sqltype.Integer}
	tests := []struct {
		typ  sqltype.Type
		want string
	}{
		{sqltype.Type{ID: sqltype.Varchar}, "text"},
		{sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasVarchar}, "character varying"},
		{sqltype.Type{ID: sqltype.Varchar, Alias: sqltype.AliasJSONB}, "jsonb"},
		{sqltype.Type{ID: sqltype.Double}, "double precision"},
		{sqltype.Type{ID: sqltype.Decimal, Width: 10, Scale: 2}, "numeric(10,2)"},
		{sqltype.Type{ID: sqltype.List, Elem: &elem}, "integer[]"},
		{sqltype.Type{ID: sqltype.TimestampTZ}, "timestamp with time zone"},
		{sqltype.Type{ID: sqltype.Struct}, "struct"},
	}
	for _, tt := range tests {
		if got := tt.typ.PGName(); got != tt.want {
			t.Errorf("%v.PGName() = %q, want %q", tt.typ, got, tt.want)
		}
	}
}
