// The parts of DuckDB's C API (duckdb.h) that duckdb-go does not wrap and
// the storage package's C code calls, declared as duckdb.h declares them:
// the header ships inside duckdb-go-bindings' platform module, which cgo
// cannot include from here. The symbols are in the DuckDB library
// duckdb-go links.
#ifndef MALLARD_DUCKDB_CAPI_H
#define MALLARD_DUCKDB_CAPI_H

#include <stdbool.h>
#include <stdint.h>

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
typedef struct { uint64_t offset; uint64_t length; } duckdb_list_entry;
duckdb_vector duckdb_list_vector_get_child(duckdb_vector vector);
int duckdb_list_vector_set_size(duckdb_vector vector, idx_t size);
int duckdb_list_vector_reserve(duckdb_vector vector, idx_t required_capacity);
int duckdb_cast_function_get_cast_mode(duckdb_function_info info);
void duckdb_cast_function_set_error(duckdb_function_info info, const char *error);
void duckdb_cast_function_set_row_error(duckdb_function_info info, const char *error, idx_t row, duckdb_vector output);
void duckdb_vector_reference_vector(duckdb_vector to_vector, duckdb_vector from_vector);

#endif
