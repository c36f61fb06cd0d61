package plan

import (
	"sort"
	"strings"
)

// Parameter is a Postgres run-time parameter that Mallard keeps per
// session, because clients set and read it even though DuckDB has no such
// setting.
type Parameter struct {
	Name    string // canonical spelling, as SHOW ALL lists it
	Default string
	// Reported parameters are sent in ParameterStatus at startup and
	// whenever they change, as Postgres 15 does.
	Reported bool
	// Fixed parameters cannot be changed (SET fails with 55P02-like 0A000).
	Fixed       bool
	Description string
}

// parameters are the Postgres parameters sessions hold. server_version is
// filled in by the server.
var parameters = []Parameter{
	{Name: "application_name", Reported: true, Description: "Sets the application name to be reported in statistics and logs."},
	{Name: "client_encoding", Default: "UTF8", Reported: true, Description: "Sets the client's character set encoding (only UTF8)."},
	{Name: "DateStyle", Default: "ISO, MDY", Reported: true, Description: "Sets the display format for date and time values (output is always ISO)."},
	{Name: "TimeZone", Default: "UTC", Reported: true, Description: "Sets the time zone for displaying and interpreting time stamps."},
	{Name: "IntervalStyle", Default: "postgres", Reported: true, Description: "Sets the display format for interval values (only postgres)."},
	{Name: "integer_datetimes", Default: "on", Reported: true, Fixed: true, Description: "Shows whether datetimes are integer based."},
	{Name: "standard_conforming_strings", Default: "on", Reported: true, Description: "Causes '...' strings to treat backslashes literally (only on)."},
	{Name: "is_superuser", Default: "on", Reported: true, Fixed: true, Description: "Shows whether the current user is a superuser."},
	{Name: "session_authorization", Reported: true, Fixed: true, Description: "Sets the session user name."},
	{Name: "role", Default: "none", Description: "Sets the current role (Mallard has no roles: any name is accepted and changes no privilege)."},
	{Name: "server_version", Reported: true, Fixed: true, Description: "Shows the server version."},
	{Name: "server_version_num", Default: "150000", Fixed: true, Description: "Shows the server version as an integer."},
	{Name: "server_encoding", Default: "UTF8", Reported: true, Fixed: true, Description: "Shows the server (database) character set encoding."},
	{Name: "default_transaction_read_only", Default: "off", Reported: true, Description: "Sets the default read-only status of new transactions."},
	{Name: "in_hot_standby", Default: "off", Reported: true, Fixed: true, Description: "Shows whether hot standby is currently active."},
	{Name: "extra_float_digits", Default: "1", Description: "Sets the number of digits displayed for floating-point values (output is always shortest-exact)."},
	{Name: "search_path", Default: `"$user", public`, Description: "Sets the schema search order for names that are not schema-qualified."},
	{Name: "client_min_messages", Default: "notice", Description: "Sets the message levels that are sent to the client."},
	{Name: MaxPreparedParameter, Default: "10000", Description: "Sets how many prepared statements (protocol-level and SQL PREPARE) a session may hold; one more fails with 53200."},
	{Name: "statement_timeout", Default: "0", Description: "Sets the maximum allowed duration of any statement (ms, or with a unit)."},
	{Name: "lock_timeout", Default: "0", Description: "Sets the maximum allowed duration of any wait for a lock."},
	{Name: "idle_in_transaction_session_timeout", Default: "0", Description: "Sets the maximum allowed idle time between queries, when in a transaction."},
	{Name: "transaction_isolation", Default: "serializable", Description: "DuckDB gives every transaction snapshot isolation with write-conflict detection."},
	{Name: "default_transaction_isolation", Default: "serializable", Description: "Sets the transaction isolation level of each new transaction."},
	{Name: "transaction_read_only", Default: "off", Description: "Sets the current transaction's read-only status."},
	{Name: "max_identifier_length", Default: "63", Fixed: true, Description: "Shows the maximum identifier length."},
	{Name: "lc_collate", Default: "C.UTF-8", Fixed: true, Description: "Shows the collation order locale."},
	{Name: "lc_ctype", Default: "C.UTF-8", Fixed: true, Description: "Shows the character classification and case conversion locale."},
	{Name: "lc_messages", Default: "C.UTF-8", Description: "Sets the language in which messages are displayed."},
	{Name: "lc_monetary", Default: "C.UTF-8", Description: "Sets the locale for formatting monetary amounts."},
	{Name: "lc_numeric", Default: "C.UTF-8", Description: "Sets the locale for formatting numbers."},
	{Name: "lc_time", Default: "C.UTF-8", Description: "Sets the locale for formatting date and time values."},
	{Name: "bytea_output", Default: "hex", Description: "Sets the output format for bytea (only hex)."},
	{Name: "row_security", Default: "on", Description: "Enable row security."},
	{Name: "synchronous_commit", Default: "on", Description: "Sets the current transaction's synchronization level."},
	{Name: "jit", Default: "off", Description: "Allow JIT compilation."},
	{Name: "work_mem", Default: "4MB", Description: "Sets the maximum memory to be used for query workspaces."},
	{Name: "escape_string_warning", Default: "on", Description: "Warn about backslash escapes in ordinary string literals."},
	{Name: "geqo", Default: "on", Description: "Enables genetic query optimization."},
	{Name: "enable_seqscan", Default: "on", Description: "Enables the planner's use of sequential-scan plans."},
	{Name: "max_connections", Default: "100", Fixed: true, Description: "Sets the maximum number of concurrent connections."},
	{Name: "check_function_bodies", Default: "on", Description: "Check routine bodies during CREATE FUNCTION (Mallard has no Postgres functions)."},
	{Name: "xmloption", Default: "content", Description: "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments."},
	{Name: "default_tablespace", Description: "Sets the default tablespace to create tables and indexes in (Mallard has none)."},
	{Name: "default_table_access_method", Default: "heap", Description: "Sets the default table access method for new tables (DuckDB's own storage)."},
	{Name: "synchronize_seqscans", Default: "on", Description: "Enable synchronized sequential scans."},
	{Name: "quote_all_identifiers", Default: "off", Description: "When generating SQL fragments, quote all identifiers."},
	{Name: "maintenance_work_mem", Default: "64MB", Description: "Sets the maximum memory to be used for maintenance operations."},
	{Name: "default_toast_compression", Default: "pglz", Description: "Sets the default compression method for compressible values."},
	{Name: "transaction_timeout", Default: "0", Description: "Sets the maximum allowed duration of any transaction (PostgreSQL 17; accepted, not enforced)."},
	{Name: "block_size", Default: "8192", Fixed: true, Description: "Shows the size of a disk block."},
}

var parameterIndex = func() map[string]int {
	m := make(map[string]int, len(parameters))
	for i, p := range parameters {
		m[strings.ToLower(p.Name)] = i
	}
	return m
}()

// Parameters returns the Postgres parameters sessions hold, sorted by name.
func Parameters() []Parameter {
	out := append([]Parameter(nil), parameters...)
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

// LookupParameter finds a Postgres parameter by name, case-insensitively.
func LookupParameter(name string) (Parameter, bool) {
	i, ok := parameterIndex[strings.ToLower(name)]
	if !ok {
		return Parameter{}, false
	}
	return parameters[i], true
}

// IsParameter reports whether name is a Postgres parameter Mallard holds.
func IsParameter(name string) bool {
	_, ok := parameterIndex[strings.ToLower(name)]
	return ok
}

// VariableName is the DuckDB session variable that mirrors a Postgres
// parameter, so that current_setting() can be answered inside DuckDB.
func VariableName(param string) string {
	return "mallard_pg_" + strings.ToLower(param)
}

// MaxPreparedParameter is Mallard's bound on a session's prepared
// statements.
const MaxPreparedParameter = "mallard.max_prepared_statements"

// IsCustomParameter reports whether name is that of a customized option
// ("myapp.user_id"): Postgres lets a session set any parameter whose name
// has a dot, as text, for extensions and applications to read back.
func IsCustomParameter(name string) bool { return strings.Contains(name, ".") }

// ValidCustomParameter reports whether a customized option may be named
// name, as Postgres 15 decides: two or more simple identifiers (a letter,
// underscore or non-ASCII byte, then those, digits or $) joined by dots.
func ValidCustomParameter(name string) bool {
	parts := strings.Split(name, ".")
	if len(parts) < 2 {
		return false
	}
	for _, part := range parts {
		if part == "" || part[0] >= '0' && part[0] <= '9' || part[0] == '$' {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80) {
				return false
			}
		}
	}
	return true
}
