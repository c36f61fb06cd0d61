// The casts of the Postgres types storage registers with DuckDB; pgtypes.h
// declares the functions pgtypes.go and pgbytea.go call.
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duckdb_capi.h"
#include "pgtypes.h"

// grow makes the buffer *buf of *cap bytes hold need, freeing it and
// failing the cast with "out of memory" if it cannot.
static bool grow(char **buf, size_t *cap, size_t need, duckdb_function_info info) {
	if (need <= *cap) {
		return true;
	}
	char *grown = realloc(*buf, need);
	if (!grown) {
		free(*buf);
		*buf = NULL;
		duckdb_cast_function_set_error(info, "out of memory");
		return false;
	}
	*buf = grown;
	*cap = need;
	return true;
}

// copy_strings_trimmed copies every string of a flat VARCHAR vector into
// output, without its trailing spaces if trim; every NULL stays NULL.
static bool copy_strings_trimmed(idx_t count, duckdb_vector input, duckdb_vector output, bool trim) {
	duckdb_string_t *in = duckdb_vector_get_data(input);
	uint64_t *valid = duckdb_vector_get_validity(input);
	for (idx_t i = 0; i < count; i++) {
		if (valid && !duckdb_validity_row_is_valid(valid, i)) {
			duckdb_vector_ensure_validity_writable(output);
			duckdb_validity_set_row_invalid(duckdb_vector_get_validity(output), i);
			continue;
		}
		const char *s = duckdb_string_t_data(&in[i]);
		uint32_t len = duckdb_string_t_length(in[i]);
		while (trim && len > 0 && s[len - 1] == ' ') {
			len--;
		}
		duckdb_vector_assign_string_element_len(output, i, s, len);
	}
	return true;
}

// copy_strings casts between two VARCHAR types that differ only in alias:
// every string is copied unchanged. DuckDB hands a cast a flat input
// vector.
static bool copy_strings(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	return copy_strings_trimmed(count, input, output, false);
}

// rtrim_spaces casts Postgres' bpchar to VARCHAR as Postgres casts it to
// text: trailing spaces, which bpchar pads with and ignores, are dropped.
static bool rtrim_spaces(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	return copy_strings_trimmed(count, input, output, true);
}

// reference_values casts between two types that differ only in alias: the
// output shares the input's data.
static bool reference_values(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	duckdb_vector_reference_vector(output, input);
	return true;
}

// register_cast registers fn as the cast from one type to another, implicit
// at cost if cost >= 0; 1 on failure.
static int register_cast(duckdb_connection con, duckdb_logical_type from, duckdb_logical_type to, int64_t cost, duckdb_cast_function_t fn) {
	duckdb_cast_function f = duckdb_create_cast_function();
	duckdb_cast_function_set_source_type(f, from);
	duckdb_cast_function_set_target_type(f, to);
	if (cost >= 0) {
		duckdb_cast_function_set_implicit_cast_cost(f, cost);
	}
	duckdb_cast_function_set_function(f, fn);
	int state = duckdb_register_cast_function(con, f);
	duckdb_destroy_cast_function(&f);
	return state;
}

int mallard_register_copy_cast(duckdb_connection con, duckdb_logical_type from, duckdb_logical_type to, int64_t cost, bool trim) {
	return register_cast(con, from, to, cost, trim ? rtrim_spaces : copy_strings);
}

// set_null marks row i of a flat vector NULL.
static void set_null(duckdb_vector v, idx_t i) {
	duckdb_vector_ensure_validity_writable(v);
	duckdb_validity_set_row_invalid(duckdb_vector_get_validity(v), i);
}

// vector_elem reads element j of a vector's SMALLINT (int2vector) or
// BIGINT (oidvector) child.
static int64_t vector_elem(void *elems, idx_t j, bool wide) {
	return wide ? ((int64_t *)elems)[j] : ((int16_t *)elems)[j];
}

// vector_out prints each list as PostgreSQL's int2vectorout and
// oidvectorout do: the elements in decimal, separated by single spaces.
// Neither PostgreSQL type can hold a NULL; a NULL element of a DuckDB list
// prints as NULL, as in an array.
static bool vector_out(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output, bool wide) {
	duckdb_list_entry *rows = duckdb_vector_get_data(input);
	uint64_t *valid = duckdb_vector_get_validity(input);
	duckdb_vector child = duckdb_list_vector_get_child(input);
	void *elems = duckdb_vector_get_data(child);
	uint64_t *elem_valid = duckdb_vector_get_validity(child);
	char *buf = NULL;
	size_t cap = 0;
	for (idx_t i = 0; i < count; i++) {
		if (valid && !duckdb_validity_row_is_valid(valid, i)) {
			set_null(output, i);
			continue;
		}
		size_t need = rows[i].length * 21 + 1; // "-9223372036854775808" and a space
		if (!grow(&buf, &cap, need, info)) {
			return false;
		}
		size_t n = 0;
		for (idx_t j = rows[i].offset; j < rows[i].offset + rows[i].length; j++) {
			if (j > rows[i].offset) {
				buf[n++] = ' ';
			}
			if (elem_valid && !duckdb_validity_row_is_valid(elem_valid, j)) {
				memcpy(buf + n, "NULL", 4);
				n += 4;
				continue;
			}
			n += snprintf(buf + n, cap - n, "%lld", (long long)vector_elem(elems, j, wide));
		}
		duckdb_vector_assign_string_element_len(output, i, buf, n);
	}
	free(buf);
	return true;
}

// parse_elem reads one decimal integer in [lo, hi] at s[*k:], up to white
// space or the end, and advances *k past it; false if there is none.
static bool parse_elem(const char *s, uint32_t len, uint32_t *k, int64_t lo, int64_t hi, int64_t *out) {
	bool neg = false;
	if (*k < len && (s[*k] == '-' || s[*k] == '+')) {
		neg = s[(*k)++] == '-';
	}
	int64_t v = 0;
	uint32_t digits = 0;
	for (; *k < len && !isspace((unsigned char)s[*k]); (*k)++, digits++) {
		if (!isdigit((unsigned char)s[*k]) || v > hi) {
			return false;
		}
		v = v * 10 + (s[*k] - '0');
	}
	if (neg) {
		v = -v;
	}
	*out = v;
	return digits > 0 && v >= lo && v <= hi;
}

// vector_in reads each string as PostgreSQL's int2vectorin and oidvectorin
// do: integers separated by white space; an empty string is an empty
// vector. A string that is not one fails the cast, or is NULL in TRY_CAST.
static bool vector_in(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output, bool wide) {
	const char *type = wide ? "oidvector" : "int2vector";
	int64_t lo = wide ? 0 : INT16_MIN, hi = wide ? UINT32_MAX : INT16_MAX;
	bool try_cast = duckdb_cast_function_get_cast_mode(info) == 1; // DUCKDB_CAST_TRY
	duckdb_string_t *in = duckdb_vector_get_data(input);
	uint64_t *valid = duckdb_vector_get_validity(input);
	duckdb_list_entry *rows = duckdb_vector_get_data(output);
	idx_t size = 0;
	bool ok = true;
	for (idx_t i = 0; i < count && ok; i++) {
		rows[i].offset = size;
		rows[i].length = 0;
		if (valid && !duckdb_validity_row_is_valid(valid, i)) {
			set_null(output, i);
			continue;
		}
		const char *s = duckdb_string_t_data(&in[i]);
		uint32_t len = duckdb_string_t_length(in[i]);
		idx_t start = size;
		for (uint32_t k = 0;;) {
			while (k < len && isspace((unsigned char)s[k])) {
				k++;
			}
			if (k == len) {
				break;
			}
			int64_t v;
			if (!parse_elem(s, len, &k, lo, hi, &v)) {
				char msg[160];
				snprintf(msg, sizeof msg, "invalid input syntax for type %s: \"%.*s\"", type, len > 64 ? 64 : (int)len, s);
				duckdb_cast_function_set_row_error(info, msg, i, output);
				size = start;
				ok = try_cast;
				break;
			}
			if (duckdb_list_vector_reserve(output, size + 1) != 0) {
				duckdb_cast_function_set_error(info, "out of memory");
				return false;
			}
			void *elems = duckdb_vector_get_data(duckdb_list_vector_get_child(output));
			if (wide) {
				((int64_t *)elems)[size++] = v;
			} else {
				((int16_t *)elems)[size++] = (int16_t)v;
			}
		}
		rows[i].length = size - start;
	}
	duckdb_list_vector_set_size(output, size);
	return ok;
}

static bool int2vector_out(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	return vector_out(info, count, input, output, false);
}

static bool oidvector_out(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	return vector_out(info, count, input, output, true);
}

static bool int2vector_in(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	return vector_in(info, count, input, output, false);
}

static bool oidvector_in(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	return vector_in(info, count, input, output, true);
}

// MONEY_MAX is the most cents a money value holds: its DECIMAL(18,2) has
// 18 digits, where Postgres' int64 has one more.
#define MONEY_MAX 999999999999999999LL

// skip_money_noise skips white space and then a currency symbol ('$', the
// C locale's) and the white space after it, as cash_in does around a sign.
static void skip_money_noise(const char *s, uint32_t len, uint32_t *k) {
	while (*k < len && isspace((unsigned char)s[*k])) {
		(*k)++;
	}
	if (*k < len && s[*k] == '$') {
		(*k)++;
	}
	while (*k < len && isspace((unsigned char)s[*k])) {
		(*k)++;
	}
}

// money_digits reads the digits of a money amount from s[*k:] into *v as
// cents, as cash_in does: ',' separates thousands, '.' starts the two
// fraction digits, a third fraction digit of 5 or more rounds the cents
// up, and further digits are ignored. false if the amount is out of range.
static bool money_digits(const char *s, uint32_t len, uint32_t *k, int64_t *v) {
	bool seen_dot = false;
	int dec = 0;
	for (; *k < len; (*k)++) {
		char c = s[*k];
		if (isdigit((unsigned char)c) && (!seen_dot || dec < 2)) {
			if (*v > (MONEY_MAX - (c - '0')) / 10) {
				return false;
			}
			*v = *v * 10 + (c - '0');
			dec += seen_dot;
		} else if (c == '.' && !seen_dot) {
			seen_dot = true;
		} else if (c != ',') {
			break;
		}
	}
	if (*k < len && s[*k] >= '5' && s[*k] <= '9') {
		(*v)++;
	}
	for (; dec < 2; dec++) {
		if (*v > MONEY_MAX / 10) {
			return false;
		}
		*v *= 10;
	}
	while (*k < len && isdigit((unsigned char)s[*k])) {
		(*k)++;
	}
	return *v <= MONEY_MAX;
}

// parse_money reads s as PostgreSQL's cash_in reads money in the C locale:
// white space, '$', a sign ('-' or '(' for negative, '+'), then the amount,
// then any of white space, ')', a sign and '$'. It returns 0 and the cents
// in *out, 1 if s is not money, 2 if it is out of range.
static int parse_money(const char *s, uint32_t len, int64_t *out) {
	uint32_t k = 0;
	bool neg = false;
	int64_t v = 0;
	skip_money_noise(s, len, &k);
	if (k < len && (s[k] == '-' || s[k] == '(' || s[k] == '+')) {
		neg = s[k++] != '+';
	}
	skip_money_noise(s, len, &k);
	if (!money_digits(s, len, &k, &v)) {
		return 2;
	}
	for (; k < len; k++) {
		if (s[k] == '-') {
			neg = true;
		} else if (!isspace((unsigned char)s[k]) && s[k] != ')' && s[k] != '+' && s[k] != '$') {
			return 1;
		}
	}
	*out = neg ? -v : v;
	return 0;
}

// money_in reads each string as money (see parse_money) into the cents of
// a DECIMAL(18,2). A string that is not money fails the cast, or is NULL
// in TRY_CAST.
static bool money_in(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	bool try_cast = duckdb_cast_function_get_cast_mode(info) == 1; // DUCKDB_CAST_TRY
	duckdb_string_t *in = duckdb_vector_get_data(input);
	uint64_t *valid = duckdb_vector_get_validity(input);
	int64_t *cents = duckdb_vector_get_data(output);
	for (idx_t i = 0; i < count; i++) {
		if (valid && !duckdb_validity_row_is_valid(valid, i)) {
			set_null(output, i);
			continue;
		}
		const char *s = duckdb_string_t_data(&in[i]);
		uint32_t len = duckdb_string_t_length(in[i]);
		int state = parse_money(s, len, &cents[i]);
		if (state == 0) {
			continue;
		}
		char msg[160];
		snprintf(msg, sizeof msg, state == 1 ? "invalid input syntax for type money: \"%.*s\""
			: "value \"%.*s\" is out of range for type money", len > 64 ? 64 : (int)len, s);
		duckdb_cast_function_set_row_error(info, msg, i, output);
		if (!try_cast) {
			return false;
		}
	}
	return true;
}

// format_money writes cents as PostgreSQL's cash_out prints money in the C
// locale, "-$1,234.56", into buf and returns its length.
static int format_money(int64_t cents, char *buf) {
	uint64_t u = cents < 0 ? -(uint64_t)cents : (uint64_t)cents;
	char digits[24];
	int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)(u / 100));
	int n = 0;
	if (cents < 0) {
		buf[n++] = '-';
	}
	buf[n++] = '$';
	for (int j = 0; j < nd; j++) {
		if (j > 0 && (nd - j) % 3 == 0) {
			buf[n++] = ',';
		}
		buf[n++] = digits[j];
	}
	return n + snprintf(buf + n, 4, ".%02d", (int)(u % 100));
}

// money_out prints each money value (the cents of a DECIMAL(18,2)) as
// format_money does.
static bool money_out(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	int64_t *cents = duckdb_vector_get_data(input);
	uint64_t *valid = duckdb_vector_get_validity(input);
	char buf[40];
	for (idx_t i = 0; i < count; i++) {
		if (valid && !duckdb_validity_row_is_valid(valid, i)) {
			set_null(output, i);
			continue;
		}
		duckdb_vector_assign_string_element_len(output, i, buf, format_money(cents[i], buf));
	}
	return true;
}

// money_to_double converts each money value to DOUBLE dollars.
static bool money_to_double(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output) {
	int64_t *cents = duckdb_vector_get_data(input);
	uint64_t *valid = duckdb_vector_get_validity(input);
	double *out = duckdb_vector_get_data(output);
	for (idx_t i = 0; i < count; i++) {
		if (valid && !duckdb_validity_row_is_valid(valid, i)) {
			set_null(output, i);
			continue;
		}
		out[i] = (double)cents[i] / 100;
	}
	return true;
}

int mallard_register_money_casts(duckdb_connection con, duckdb_logical_type money, duckdb_logical_type dbl,
		duckdb_logical_type varchar, int64_t cost) {
	if (register_cast(con, money, dbl, cost, money_to_double) != 0) {
		return 1;
	}
	if (register_cast(con, money, varchar, -1, money_out) != 0) {
		return 1;
	}
	return register_cast(con, varchar, money, -1, money_in);
}

int mallard_register_vector_casts(duckdb_connection con, duckdb_logical_type elem, duckdb_logical_type base,
		duckdb_logical_type list, duckdb_logical_type varchar, int64_t cost, bool wide) {
	if (register_cast(con, elem, base, cost, reference_values) != 0) {
		return 1;
	}
	if (register_cast(con, list, varchar, -1, wide ? oidvector_out : int2vector_out) != 0) {
		return 1;
	}
	return register_cast(con, varchar, list, -1, wide ? oidvector_in : int2vector_in);
}

// bytea: text in the forms PostgreSQL's byteain reads, and out in its hex form.

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
			set_null(output, i);
			continue;
		}
		const char *s = duckdb_string_t_data(&in[i]);
		uint32_t len = duckdb_string_t_length(in[i]);
		if (!grow(&buf, &cap, (size_t)len + 1, info)) {
			return false;
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
			set_null(output, i);
			continue;
		}
		const unsigned char *s = (const unsigned char *)duckdb_string_t_data(&in[i]);
		uint32_t len = duckdb_string_t_length(in[i]);
		size_t need = 2 + 2 * (size_t)len;
		if (!grow(&buf, &cap, need, info)) {
			return false;
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

int mallard_register_bytea_casts(duckdb_connection con, duckdb_logical_type varchar, duckdb_logical_type blob) {
	return register_cast(con, varchar, blob, -1, bytea_in) || register_cast(con, blob, varchar, -1, bytea_out);
}
