package storage

/*
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duckdb_capi.h"

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

// register_copy_cast registers copy_strings, or rtrim_spaces if trim, as
// the cast from one VARCHAR type to another, implicit at cost if cost >= 0;
// 1 on failure.
static int register_copy_cast(duckdb_connection con, duckdb_logical_type from, duckdb_logical_type to, int64_t cost, bool trim) {
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

// register_money_casts registers the casts of the money alias: explicit
// ones to and from VARCHAR in Postgres' text form, and an implicit one to
// DOUBLE at cost; 1 on failure.
static int register_money_casts(duckdb_connection con, duckdb_logical_type money, duckdb_logical_type dbl,
		duckdb_logical_type varchar, int64_t cost) {
	if (register_cast(con, money, dbl, cost, money_to_double) != 0) {
		return 1;
	}
	if (register_cast(con, money, varchar, -1, money_out) != 0) {
		return 1;
	}
	return register_cast(con, varchar, money, -1, money_in);
}

// register_vector_casts registers the casts of an int2vector (wide false)
// or oidvector (wide true) element alias and of the list of it: the element
// converts implicitly to its base type at cost, the list explicitly to and
// from VARCHAR; 1 on failure.
static int register_vector_casts(duckdb_connection con, duckdb_logical_type elem, duckdb_logical_type base,
		duckdb_logical_type list, duckdb_logical_type varchar, int64_t cost, bool wide) {
	if (register_cast(con, elem, base, cost, reference_values) != 0) {
		return 1;
	}
	if (register_cast(con, list, varchar, -1, wide ? oidvector_out : int2vector_out) != 0) {
		return 1;
	}
	return register_cast(con, varchar, list, -1, wide ? oidvector_in : int2vector_in);
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
	// AliasBPChar stands for Postgres' bpchar, character(n): a string
	// padded with spaces to its length. It converts to VARCHAR without
	// the trailing spaces, as bpchar converts to text in Postgres, so
	// 'a'::char(3) || 'b' is 'ab' and length('a'::char(3)) is 1.
	AliasBPChar = "pg_bpchar"
	// AliasJSONB stands for Postgres' jsonb: JSON text that a front end
	// prints in jsonb's normalized form. It converts implicitly to JSON,
	// whose functions take it, and to VARCHAR.
	AliasJSONB = "pg_jsonb"
	// AliasRegClass, AliasRegType, AliasRegProc and AliasRegNamespace
	// stand for Postgres' regclass, regtype, regproc and regnamespace as
	// a select list shows them: the name of the object an OID stands for.
	AliasRegClass     = "pg_regclass"
	AliasRegType      = "pg_regtype"
	AliasRegProc      = "pg_regproc"
	AliasRegNamespace = "pg_regnamespace"
)

// pgStringAliases are the VARCHAR aliases registerPGTypes registers, each
// with whether its conversion to VARCHAR drops trailing spaces.
var pgStringAliases = []struct {
	alias string
	trim  bool
}{
	{AliasName, false}, {AliasChar, false}, {AliasVarchar, false}, {AliasBPChar, true}, {AliasJSONB, false},
	{AliasRegClass, false}, {AliasRegType, false}, {AliasRegProc, false}, {AliasRegNamespace, false},
}

// AliasMoney stands for Postgres' money: a DECIMAL(18,2) under an alias,
// so that a front end presents it as money, "$1,234.56". Its casts to and
// from VARCHAR use that text (the C locale's); other casts are DECIMAL's.
// For arithmetic and functions it converts implicitly to DOUBLE, as
// Postgres multiplies and divides money in float8: DuckDB's arithmetic
// takes a DECIMAL of any width, which no cast registered through the C API
// can name, and an alias converts implicitly only where a cast is
// registered. A sum of money is thus float8 where Postgres' is money; the
// planner casts the arithmetic of values it can see are money back.
const AliasMoney = "pg_money"

// The width and scale of AliasMoney's DECIMAL: Postgres' money holds cents
// in an int64, and so does a DECIMAL of up to 18 digits.
const (
	moneyWidth = 18
	moneyScale = 2
)

// The element types of the DuckDB lists that stand for Postgres' int2vector
// and oidvector, the catalog's vectors of column numbers and type OIDs
// (pg_index.indkey, pg_proc.proargtypes). An int2vector is a list of
// AliasInt2VectorElem, a SMALLINT under an alias, and an oidvector a list of
// AliasOIDVectorElem, a BIGINT (Mallard's OIDs are BIGINT) under an alias.
// The alias is on the element, not the list: DuckDB matches no list
// function (len, list_contains, subscripts) to a list type with an alias of
// its own, but takes a list of any element type. So a vector keeps what
// clients do with the Postgres type in SQL (= ANY, unnest, subscripts),
// while its type still tells a front end to present it under the Postgres
// type's OID. A cast of the list to VARCHAR prints it as Postgres does, "1
// 2" rather than DuckDB's "[1, 2]", and a cast from VARCHAR reads that form
// ('1 2'::int2vector, proargtypes = '23'); neither is implicit, since a
// list that turned into a string to fit a function would change what the
// function means. An element converts implicitly to SMALLINT or BIGINT, as
// pg_name does to VARCHAR. Postgres numbers a vector's elements from 0,
// DuckDB from 1: the planner shifts the subscripts (see
// mallard_first_subscript in the catalog).
const (
	// AliasInt2VectorElem is the element type of an int2vector.
	AliasInt2VectorElem = "pg_int2vector_elem"
	// AliasOIDVectorElem is the element type of an oidvector.
	AliasOIDVectorElem = "pg_oidvector_elem"
)

// pgVectorElems are the element aliases registerPGTypes registers, each
// with its base type and whether that is BIGINT (oidvector).
var pgVectorElems = []struct {
	alias string
	base  mapping.Type
	wide  bool
}{{AliasInt2VectorElem, mapping.TypeSmallInt, false}, {AliasOIDVectorElem, mapping.TypeBigInt, true}}

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
	if !registered[AliasMoney] { // a cast has no name to look up: it comes with money
		if err := registerByteaCasts(conn, varchar); err != nil {
			return err
		}
		if err := registerMoney(conn, varchar); err != nil {
			return fmt.Errorf("register Postgres type %s: %w", AliasMoney, err)
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
	if alias == AliasJSONB {
		cost++ // JSON's overload of a function wins over VARCHAR's
		if err := registerJSONCasts(conn, t); err != nil {
			return err
		}
	}
	if C.register_copy_cast(C.duckdb_connection(conn.Ptr), C.duckdb_logical_type(t.Ptr),
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
	if C.register_copy_cast(con, C.duckdb_logical_type(t.Ptr), C.duckdb_logical_type(json.Ptr), implicitCastCost, false) != 0 ||
		C.register_copy_cast(con, C.duckdb_logical_type(json.Ptr), C.duckdb_logical_type(t.Ptr), -1, false) != 0 {
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
	mapping.LogicalTypeSetAlias(money, AliasMoney)
	var info mapping.CreateTypeInfo // DuckDB ignores it
	if mapping.RegisterLogicalType(conn, money, info) == mapping.StateError {
		return fmt.Errorf("DuckDB refused the type")
	}
	if C.register_money_casts(C.duckdb_connection(conn.Ptr), C.duckdb_logical_type(money.Ptr),
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
	if C.register_vector_casts(C.duckdb_connection(conn.Ptr), C.duckdb_logical_type(elem.Ptr),
		C.duckdb_logical_type(baseType.Ptr), C.duckdb_logical_type(list.Ptr), C.duckdb_logical_type(varchar.Ptr),
		implicitCastCost, C.bool(wide)) != 0 {
		return fmt.Errorf("DuckDB refused its casts")
	}
	return nil
}
