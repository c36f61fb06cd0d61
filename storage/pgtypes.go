package storage

/*
#include "pgtypes.h"
*/
import "C"

import (
	"context"
	"fmt"

	"github.com/duckdb/duckdb-go/v2/mapping"

	"github.com/mallard/mallard/sqltype"
)

// pgStringAliases are the VARCHAR aliases registerPGTypes registers (see
// package sqltype for what each stands for), each with whether its
// conversion to VARCHAR drops trailing spaces.
var pgStringAliases = []struct {
	alias string
	trim  bool
}{
	{sqltype.AliasName, false}, {sqltype.AliasChar, false}, {sqltype.AliasVarchar, false}, {sqltype.AliasBPChar, true}, {sqltype.AliasJSONB, false},
	{sqltype.AliasRegClass, false}, {sqltype.AliasRegType, false}, {sqltype.AliasRegProc, false}, {sqltype.AliasRegNamespace, false},
}

// The width and scale of sqltype.AliasMoney's DECIMAL: Postgres' money
// holds cents in an int64, and so does a DECIMAL of up to 18 digits.
const (
	moneyWidth = 18
	moneyScale = 2
)

// pgVectorElems are the element aliases registerPGTypes registers, each
// with its base type and whether that is BIGINT (oidvector).
var pgVectorElems = []struct {
	alias string
	base  mapping.Type
	wide  bool
}{{sqltype.AliasInt2VectorElem, mapping.TypeSmallInt, false}, {sqltype.AliasOIDVectorElem, mapping.TypeBigInt, true}}

// registerPGTypes registers the pg_* aliases and their casts with the
// database instance, once: DuckDB keeps both for as long as the instance
// lives, for every connection, and refuses to register a type twice, which
// a second Open of a cached instance would.
func (d *DB) registerPGTypes(ctx context.Context) error {
	registered := map[string]bool{}
	rows, err := d.sqldb.QueryContext(ctx, "SELECT type_name FROM duckdb_types() WHERE database_name = 'system' AND internal")
	if err != nil {
		return fmt.Errorf("register Postgres types: %w", err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return fmt.Errorf("register Postgres types: %w", err)
		}
		registered[name] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("register Postgres types: %w", err)
	}
	var conn mapping.Connection
	if mapping.Connect(d.db, &conn) == mapping.StateError {
		return fmt.Errorf("register Postgres types: cannot open a DuckDB connection")
	}
	defer mapping.Disconnect(&conn)
	varchar := mapping.CreateLogicalType(mapping.TypeVarchar)
	defer mapping.DestroyLogicalType(&varchar)
	for _, a := range pgStringAliases {
		if registered[a.alias] {
			continue
		}
		if err := registerStringAlias(conn, varchar, a.alias, a.trim); err != nil {
			return fmt.Errorf("register Postgres type %s: %w", a.alias, err)
		}
	}
	if !registered[sqltype.AliasMoney] { // a cast has no name to look up: it comes with money
		if err := registerByteaCasts(conn, varchar); err != nil {
			return err
		}
		if err := registerMoney(conn, varchar); err != nil {
			return fmt.Errorf("register Postgres type %s: %w", sqltype.AliasMoney, err)
		}
	}
	for _, v := range pgVectorElems {
		if registered[v.alias] {
			continue
		}
		if err := registerVectorElem(conn, varchar, v.alias, v.base, v.wide); err != nil {
			return fmt.Errorf("register Postgres type %s: %w", v.alias, err)
		}
	}
	return nil
}

// implicitCastCost is what converting an alias to its base type (pg_name to
// VARCHAR, pg_int2vector_elem to SMALLINT) costs when DuckDB picks a
// function overload: as little as possible, so that the base type's
// overload wins over any other.
const implicitCastCost = 1

// registerStringAlias registers a VARCHAR alias and its implicit cast to
// VARCHAR, which drops trailing spaces if trim; jsonb's also converts to
// and from JSON.
func registerStringAlias(conn mapping.Connection, varchar mapping.LogicalType, alias string, trim bool) error {
	t := mapping.CreateLogicalType(mapping.TypeVarchar)
	defer mapping.DestroyLogicalType(&t)
	mapping.LogicalTypeSetAlias(t, alias)
	var info mapping.CreateTypeInfo // DuckDB ignores it
	if mapping.RegisterLogicalType(conn, t, info) == mapping.StateError {
		return fmt.Errorf("DuckDB refused the type")
	}
	cost := implicitCastCost
	if alias == sqltype.AliasJSONB {
		cost++ // JSON's overload of a function wins over VARCHAR's
		if err := registerJSONCasts(conn, t); err != nil {
			return err
		}
	}
	if C.mallard_register_copy_cast(C.duckdb_connection(conn.Ptr), C.duckdb_logical_type(t.Ptr),
		C.duckdb_logical_type(varchar.Ptr), C.int64_t(cost), C.bool(trim)) != 0 {
		return fmt.Errorf("DuckDB refused the cast to VARCHAR")
	}
	return nil
}

// registerJSONCasts registers the casts between DuckDB's JSON (a VARCHAR
// aliased JSON) and the jsonb alias t: implicit from t, explicit to it, both
// copying the text.
func registerJSONCasts(conn mapping.Connection, t mapping.LogicalType) error {
	json := mapping.CreateLogicalType(mapping.TypeVarchar)
	defer mapping.DestroyLogicalType(&json)
	mapping.LogicalTypeSetAlias(json, "JSON")
	con := C.duckdb_connection(conn.Ptr)
	if C.mallard_register_copy_cast(con, C.duckdb_logical_type(t.Ptr), C.duckdb_logical_type(json.Ptr), implicitCastCost, false) != 0 ||
		C.mallard_register_copy_cast(con, C.duckdb_logical_type(json.Ptr), C.duckdb_logical_type(t.Ptr), -1, false) != 0 {
		return fmt.Errorf("DuckDB refused the casts to and from JSON")
	}
	return nil
}

// registerMoney registers the money alias of DECIMAL(18,2) and its casts.
func registerMoney(conn mapping.Connection, varchar mapping.LogicalType) error {
	dbl := mapping.CreateLogicalType(mapping.TypeDouble)
	defer mapping.DestroyLogicalType(&dbl)
	money := mapping.CreateDecimalType(moneyWidth, moneyScale)
	defer mapping.DestroyLogicalType(&money)
	mapping.LogicalTypeSetAlias(money, sqltype.AliasMoney)
	var info mapping.CreateTypeInfo // DuckDB ignores it
	if mapping.RegisterLogicalType(conn, money, info) == mapping.StateError {
		return fmt.Errorf("DuckDB refused the type")
	}
	if C.mallard_register_money_casts(C.duckdb_connection(conn.Ptr), C.duckdb_logical_type(money.Ptr),
		C.duckdb_logical_type(dbl.Ptr), C.duckdb_logical_type(varchar.Ptr), implicitCastCost) != 0 {
		return fmt.Errorf("DuckDB refused its casts")
	}
	return nil
}

// registerVectorElem registers an element alias of base and the casts of it
// and of a list of it.
func registerVectorElem(conn mapping.Connection, varchar mapping.LogicalType, alias string, base mapping.Type, wide bool) error {
	baseType := mapping.CreateLogicalType(base)
	defer mapping.DestroyLogicalType(&baseType)
	elem := mapping.CreateLogicalType(base)
	defer mapping.DestroyLogicalType(&elem)
	mapping.LogicalTypeSetAlias(elem, alias)
	var info mapping.CreateTypeInfo // DuckDB ignores it
	if mapping.RegisterLogicalType(conn, elem, info) == mapping.StateError {
		return fmt.Errorf("DuckDB refused the type")
	}
	list := mapping.CreateListType(elem)
	defer mapping.DestroyLogicalType(&list)
	if C.mallard_register_vector_casts(C.duckdb_connection(conn.Ptr), C.duckdb_logical_type(elem.Ptr),
		C.duckdb_logical_type(baseType.Ptr), C.duckdb_logical_type(list.Ptr), C.duckdb_logical_type(varchar.Ptr),
		implicitCastCost, C.bool(wide)) != 0 {
		return fmt.Errorf("DuckDB refused its casts")
	}
	return nil
}
