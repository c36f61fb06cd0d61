package storage

/*
#include <stdbool.h>
#include <stdint.h>

// The parts of DuckDB's C API (duckdb.h) that duckdb-go does not wrap,
// declared as duckdb.h declares them: the header ships inside
// duckdb-go-bindings' platform module, which cgo cannot include from here.
// The symbols are in the DuckDB library duckdb-go links.
typedef uint64_t idx_t;
typedef struct _duckdb_connection { void *internal_ptr; } *duckdb_connection;
typedef struct _duckdb_logical_type { void *internal_ptr; } *duckdb_logical_type;
typedef struct _duckdb_function_info { void *internal_ptr; } *duckdb_function_info;
typedef struct _duckdb_vector { void *internal_ptr; } *duckdb_vector;
typedef struct _duckdb_cast_function { void *internal_ptr; } *duckdb_cast_function;
typedef struct {
	union {
		struct { uint32_t length; char prefix[4]; char *ptr; } pointer;
		struct { uint32_t length; char inlined[12]; } inlined;
	} value;
} duckdb_string_t;
typedef bool (*duckdb_cast_function_t)(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output);

duckdb_cast_function duckdb_create_cast_function(void);
void duckdb_cast_function_set_source_type(duckdb_cast_function cast_function, duckdb_logical_type source_type);
void duckdb_cast_function_set_target_type(duckdb_cast_function cast_function, duckdb_logical_type target_type);
void duckdb_cast_function_set_implicit_cast_cost(duckdb_cast_function cast_function, int64_t cost);
void duckdb_cast_function_set_function(duckdb_cast_function cast_function, duckdb_cast_function_t function);
int duckdb_register_cast_function(duckdb_connection con, duckdb_cast_function cast_function);
void duckdb_destroy_cast_function(duckdb_cast_function *cast_function);
void *duckdb_vector_get_data(duckdb_vector vector);
uint64_t *duckdb_vector_get_validity(duckdb_vector vector);
void duckdb_vector_ensure_validity_writable(duckdb_vector vector);
void duckdb_vector_assign_string_element_len(duckdb_vector vector, idx_t index, const char *str, idx_t str_len);
bool duckdb_validity_row_is_valid(uint64_t *validity, idx_t row);
void duckdb_validity_set_row_invalid(uint64_t *validity, idx_t row);
uint32_t duckdb_string_t_length(duckdb_string_t string);
const char *duckdb_string_t_data(duckdb_string_t *string);

// copy_strings casts between two VARCHAR types that differ only in alias:
// every string is copied unchanged, every NULL stays NULL. DuckDB hands a
// cast a flat input vector.
static bool copy_strings(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	duckdb_string_t *in = duckdb_vector_get_data(input);
	uint64_t *valid = duckdb_vector_get_validity(input);
	for (idx_t i = 0; i < count; i++) {
		if (valid && !duckdb_validity_row_is_valid(valid, i)) {
			duckdb_vector_ensure_validity_writable(output);
			duckdb_validity_set_row_invalid(duckdb_vector_get_validity(output), i);
			continue;
		}
		duckdb_vector_assign_string_element_len(output, i, duckdb_string_t_data(&in[i]), duckdb_string_t_length(in[i]));
	}
	return true;
}

// register_copy_cast registers copy_strings as the cast from one VARCHAR
// type to another, implicit at the given cost; 1 on failure.
static int register_copy_cast(duckdb_connection con, duckdb_logical_type from, duckdb_logical_type to, int64_t cost) {
	duckdb_cast_function f = duckdb_create_cast_function();
	duckdb_cast_function_set_source_type(f, from);
	duckdb_cast_function_set_target_type(f, to);
	duckdb_cast_function_set_implicit_cast_cost(f, cost);
	duckdb_cast_function_set_function(f, copy_strings);
	int state = duckdb_register_cast_function(con, f);
	duckdb_destroy_cast_function(&f);
	return state;
}
*/
import "C"

import (
	"context"
	"fmt"

	"github.com/duckdb/duckdb-go/v2/mapping"
)

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
)

// pgStringAliases are the aliases registerPGTypes registers.
var pgStringAliases = []string{AliasName, AliasChar, AliasVarchar}

// registerPGTypes registers the pg_* VARCHAR aliases and their casts to
// VARCHAR with the database instance, once: DuckDB keeps both for as long
// as the instance lives, for every connection, and refuses to register a
// type twice, which a second Open of a cached instance would.
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
	for _, alias := range pgStringAliases {
		if registered[alias] {
			continue
		}
		if err := registerStringAlias(conn, varchar, alias); err != nil {
			return fmt.Errorf("register Postgres type %s: %w", alias, err)
		}
	}
	return nil
}

// implicitCastCost is what converting an aliased VARCHAR to VARCHAR costs
// when DuckDB picks a function overload: as little as possible, so that a
// string overload wins over any other.
const implicitCastCost = 1

func registerStringAlias(conn mapping.Connection, varchar mapping.LogicalType, alias string) error {
	t := mapping.CreateLogicalType(mapping.TypeVarchar)
	defer mapping.DestroyLogicalType(&t)
	mapping.LogicalTypeSetAlias(t, alias)
	var info mapping.CreateTypeInfo // DuckDB ignores it
	if mapping.RegisterLogicalType(conn, t, info) == mapping.StateError {
		return fmt.Errorf("DuckDB refused the type")
	}
	if C.register_copy_cast(C.duckdb_connection(conn.Ptr), C.duckdb_logical_type(t.Ptr),
		C.duckdb_logical_type(varchar.Ptr), implicitCastCost) != 0 {
		return fmt.Errorf("DuckDB refused the cast to VARCHAR")
	}
	return nil
}
