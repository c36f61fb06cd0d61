// The C half of the Postgres types storage registers with DuckDB (see
// pgtypes.go and pgbytea.go): casts written against DuckDB's C API, which duckdb-go does
// not wrap. Each function returns 0 on success and 1 if DuckDB refused a
// registration.
#ifndef MALLARD_PGTYPES_H
#define MALLARD_PGTYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "duckdb_capi.h"

// mallard_register_copy_cast registers the cast from one VARCHAR type to
// another that copies each string, without its trailing spaces if trim,
// implicit at cost if cost >= 0; 1 on failure.
int mallard_register_copy_cast(duckdb_connection con, duckdb_logical_type from, duckdb_logical_type to, int64_t cost, bool trim);

// mallard_register_money_casts registers the casts of the money alias: explicit
// ones to and from VARCHAR in Postgres' text form, and an implicit one to
// DOUBLE at cost; 1 on failure.
int mallard_register_money_casts(duckdb_connection con, duckdb_logical_type money, duckdb_logical_type dbl,
		duckdb_logical_type varchar, int64_t cost);

// mallard_register_vector_casts registers the casts of an int2vector (wide false)
// or oidvector (wide true) element alias and of the list of it: the element
// converts implicitly to its base type at cost, the list explicitly to and
// from VARCHAR; 1 on failure.
int mallard_register_vector_casts(duckdb_connection con, duckdb_logical_type elem, duckdb_logical_type base,
		duckdb_logical_type list, duckdb_logical_type varchar, int64_t cost, bool wide);

// mallard_register_bytea_casts registers the casts between VARCHAR and
// BLOB that read and print bytea as PostgreSQL does (see pgbytea.go); 1 on
// failure.
int mallard_register_bytea_casts(duckdb_connection con, duckdb_logical_type varchar, duckdb_logical_type blob);

#endif
