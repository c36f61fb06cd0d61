package storage

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "duckdb_capi.h"

// hex_digit is the value of a hexadecimal digit, or -1.
static int hex_digit(char c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

// bytea_hex decodes the hex form after its \x: pairs of hexadecimal
// digits, with white space allowed between pairs, as PostgreSQL's byteain
// reads it. It returns the number of bytes written to out, or -1 with msg
// filled in.
static long bytea_hex(const char *s, uint32_t len, char *out, char *msg, size_t msglen) {
	long n = 0;
	for (uint32_t k = 0; k < len;) {
		char c = s[k];
		if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
			k++;
			continue;
		}
		int hi = hex_digit(c);
		if (hi < 0) {
			snprintf(msg, msglen, "invalid hexadecimal digit: \"%c\"", c);
			return -1;
		}
		if (k + 1 >= len) {
			snprintf(msg, msglen, "invalid hexadecimal data: odd number of digits");
			return -1;
		}
		int lo = hex_digit(s[k + 1]);
		if (lo < 0) {
			snprintf(msg, msglen, "invalid hexadecimal digit: \"%c\"", s[k + 1]);
			return -1;
		}
		out[n++] = (char)(hi << 4 | lo);
		k += 2;
	}
	return n;
}

// bytea_escape decodes the escape form as PostgreSQL's byteain reads it:
// \\ is a backslash, \ooo (first digit 0-3) an octal byte, any other byte
// itself; any other backslash is an error.
static long bytea_escape(const char *s, uint32_t len, char *out, char *msg, size_t msglen) {
	long n = 0;
	for (uint32_t k = 0; k < len;) {
		if (s[k] != '\\') {
			out[n++] = s[k++];
		} else if (k + 1 < len && s[k + 1] == '\\') {
			out[n++] = '\\';
			k += 2;
		} else if (k + 3 < len && s[k + 1] >= '0' && s[k + 1] <= '3' && s[k + 2] >= '0' && s[k + 2] <= '7' &&
			s[k + 3] >= '0' && s[k + 3] <= '7') {
			out[n++] = (char)((s[k + 1] - '0') << 6 | (s[k + 2] - '0') << 3 | (s[k + 3] - '0'));
			k += 4;
		} else {
			snprintf(msg, msglen, "invalid input syntax for type bytea");
			return -1;
		}
	}
	return n;
}

// bytea_in casts VARCHAR to BLOB as PostgreSQL's byteain reads text: the
// hex form (\xdeadbeef) if the string starts with \x, else the escape form
// (\336\255, \\). A string that is neither fails the cast, or is NULL in
// TRY_CAST; either way the cast reports the failure, which is how a reader
// that casts in TRY mode (COPY's) learns that a row failed. Decoding never lengthens a string, so one buffer of the
// longest input's size serves every row.
static bool bytea_in(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	bool try_cast = duckdb_cast_function_get_cast_mode(info) == 1; // DUCKDB_CAST_TRY
	duckdb_string_t *in = duckdb_vector_get_data(input);
	uint64_t *valid = duckdb_vector_get_validity(input);
	char *buf = NULL;
	size_t cap = 0;
	bool failed = false;
	for (idx_t i = 0; i < count && !(failed && !try_cast); i++) {
		if (valid && !duckdb_validity_row_is_valid(valid, i)) {
			duckdb_vector_ensure_validity_writable(output);
			duckdb_validity_set_row_invalid(duckdb_vector_get_validity(output), i);
			continue;
		}
		const char *s = duckdb_string_t_data(&in[i]);
		uint32_t len = duckdb_string_t_length(in[i]);
		if (len + 1 > cap) {
			char *grown = realloc(buf, len + 1);
			if (!grown) {
				free(buf);
				duckdb_cast_function_set_error(info, "out of memory");
				return false;
			}
			buf = grown;
			cap = len + 1;
		}
		char msg[80];
		long n = len >= 2 && s[0] == '\\' && s[1] == 'x' ? bytea_hex(s + 2, len - 2, buf, msg, sizeof msg)
		                                                  : bytea_escape(s, len, buf, msg, sizeof msg);
		if (n < 0) {
			duckdb_cast_function_set_row_error(info, msg, i, output);
			failed = true;
			continue;
		}
		duckdb_vector_assign_string_element_len(output, i, buf, (idx_t)n);
	}
	free(buf);
	return !failed;
}

// bytea_out casts BLOB to VARCHAR as PostgreSQL's byteaout prints bytea
// with bytea_output = hex: \x and two lower-case digits a byte.
static bool bytea_out(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	static const char digits[] = "0123456789abcdef";
	duckdb_string_t *in = duckdb_vector_get_data(input);
	uint64_t *valid = duckdb_vector_get_validity(input);
	char *buf = NULL;
	size_t cap = 0;
	for (idx_t i = 0; i < count; i++) {
		if (valid && !duckdb_validity_row_is_valid(valid, i)) {
			duckdb_vector_ensure_validity_writable(output);
			duckdb_validity_set_row_invalid(duckdb_vector_get_validity(output), i);
			continue;
		}
		const unsigned char *s = (const unsigned char *)duckdb_string_t_data(&in[i]);
		uint32_t len = duckdb_string_t_length(in[i]);
		size_t need = 2 + 2 * (size_t)len;
		if (need > cap) {
			char *grown = realloc(buf, need);
			if (!grown) {
				free(buf);
				duckdb_cast_function_set_error(info, "out of memory");
				return false;
			}
			buf = grown;
			cap = need;
		}
		buf[0] = '\\';
		buf[1] = 'x';
		for (uint32_t k = 0; k < len; k++) {
			buf[2 + 2 * k] = digits[s[k] >> 4];
			buf[3 + 2 * k] = digits[s[k] & 15];
		}
		duckdb_vector_assign_string_element_len(output, i, buf, need);
	}
	free(buf);
	return true;
}

// register_bytea_cast registers fn as the cast from one type to another; 1
// on failure.
static int register_bytea_cast(duckdb_connection con, duckdb_logical_type from, duckdb_logical_type to, duckdb_cast_function_t fn) {
	duckdb_cast_function f = duckdb_create_cast_function();
	duckdb_cast_function_set_source_type(f, from);
	duckdb_cast_function_set_target_type(f, to);
	duckdb_cast_function_set_function(f, fn);
	int state = duckdb_register_cast_function(con, f);
	duckdb_destroy_cast_function(&f);
	return state;
}

// register_bytea_casts registers bytea_in and bytea_out as the casts
// between VARCHAR and BLOB; 1 on failure.
static int register_bytea_casts(duckdb_connection con, duckdb_logical_type varchar, duckdb_logical_type blob) {
	return register_bytea_cast(con, varchar, blob, bytea_in) || register_bytea_cast(con, blob, varchar, bytea_out);
}
*/
import "C"

import (
	"fmt"

	"github.com/duckdb/duckdb-go/v2/mapping"
)

// registerByteaCasts makes a string convert to a BLOB as Postgres converts
// text to bytea: '\xdeadbeef' is four bytes, as a Postgres client and
// pg_dump --inserts mean it, where DuckDB's own cast reads one escaped byte
// followed by the letters "adbeef". The cast replaces DuckDB's for every
// conversion of a VARCHAR to a BLOB: a string constant stored in or compared
// with a bytea column, an explicit cast, and COPY. A blob written in
// DuckDB's escape form ('\xDE\xAD') is thus an error, as it is in Postgres.
// The cast back prints Postgres' hex form, so that what DuckDB writes as
// text (COPY TO a file, EXPORT DATABASE, b::text) reads back the same.
// DuckDB keeps the casts for as long as the instance lives; registering
// them again only adds identical ones.
func registerByteaCasts(conn mapping.Connection, varchar mapping.LogicalType) error {
	blob := mapping.CreateLogicalType(mapping.TypeBlob)
	defer mapping.DestroyLogicalType(&blob)
	if C.register_bytea_casts(C.duckdb_connection(conn.Ptr), C.duckdb_logical_type(varchar.Ptr), C.duckdb_logical_type(blob.Ptr)) != 0 {
		return fmt.Errorf("register the bytea casts: DuckDB refused them")
	}
	return nil
}
