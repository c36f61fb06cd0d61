package storage

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/duckdb/duckdb-go/v2/mapping"
	"github.com/mallard/mallard/sqlstate"
)

// Server-wide DuckDB settings. DuckDB applies a SET of a setting that
// has no per-connection value (threads, memory_limit, lock_configuration,
// enable_external_access, allowed_directories, extension_directory,
// temp_directory, ...) to the whole database, and SET GLOBAL of any
// setting to every connection opened after it. A client session that
// could run them would change, or break, every other session: one
// `SET lock_configuration = true` makes the session set-up of every new
// connection fail. A confined connection (see Conn.ConfineSettings)
// therefore refuses them with 55P02; the server's operator sets them
// when starting Mallard.

// settingStatement reads the keyword, scope and name of a DuckDB SET or
// RESET (PRAGMA name = value is a SET too): optional GLOBAL, SESSION or
// LOCAL, then the name, bare or double-quoted, and for a PRAGMA whether
// it assigns.
var settingStatement = regexp.MustCompile(`(?is)^` + leadingComments + `(set|reset|pragma)\s+(?:(global|session|local)\s+)?("(?:[^"]|"")+"|[a-z_][a-z0-9_.]*)\s*(=)?`)

// leadingComments matches the white space and comments before a
// statement's first keyword.
const leadingComments = `(?:\s|--[^\n]*(?:\n|$)|/\*.*?\*/)*`

// pragmaName reads the name of a PRAGMA call.
var pragmaName = regexp.MustCompile(`(?is)^` + leadingComments + `pragma\s+("(?:[^"]|"")+"|[a-z_][a-z0-9_]*)`)

// globalPragmas are the PRAGMA calls that change the database for every
// connection rather than the caller's.
var globalPragmas = map[string]bool{
	"enable_checkpoint_on_shutdown": true, "disable_checkpoint_on_shutdown": true,
	"enable_object_cache": true, "disable_object_cache": true,
}

// globalSettings probes which of DuckDB's settings have no per-connection
// value: those DuckDB refuses to SET SESSION, on a scratch connection,
// to their current value. Settings DuckDB scopes LOCAL always have one.
// The probe changes nothing but the scratch connection, which it closes.
func (d *DB) globalSettings(ctx context.Context) (map[string]bool, error) {
	c, err := d.sqldb.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("probe settings: %w", err)
	}
	defer c.Close()
	rows, err := c.QueryContext(ctx, "SELECT name, coalesce(value, '') FROM duckdb_settings() WHERE scope <> 'LOCAL'")
	if err != nil {
		return nil, fmt.Errorf("probe settings: %w", err)
	}
	values := map[string]string{}
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			rows.Close()
			return nil, fmt.Errorf("probe settings: %w", err)
		}
		values[name] = value
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("probe settings: %w", err)
	}
	global := map[string]bool{}
	for name, value := range values {
		if _, err := c.ExecContext(ctx, "SET SESSION "+quoteIdent(name)+" = "+quoteLiteral(value)); err != nil {
			global[strings.ToLower(name)] = true
		}
	}
	return global, nil
}

// sessionScoped rewrites a DuckDB SET, RESET or assigning PRAGMA that
// names no scope into its SESSION form: DuckDB applies an unscoped SET
// of most settings (default_order, preserve_insertion_order, ...) to
// every connection, which a Postgres user setting a parameter for a
// session does not expect, and which would reach other sessions. Other
// statements, and those of the settings in global (refused by
// checkConfined), are returned unchanged.
func sessionScoped(query string, global map[string]bool) string {
	m := settingStatement.FindStringSubmatchIndex(query)
	if m == nil || m[4] >= 0 {
		return query // not a setting, or scoped
	}
	keyword, name := strings.ToLower(query[m[2]:m[3]]), query[m[6]:m[7]]
	if strings.EqualFold(name, "variable") || keyword == "pragma" && m[8] < 0 || global[strings.ToLower(unquoteIdent(name))] {
		return query // SET VARIABLE, a PRAGMA call, or a server-wide setting
	}
	scoped := "SET SESSION "
	if keyword == "reset" {
		scoped = "RESET SESSION "
	}
	return query[:m[2]] + scoped + query[m[6]:]
}

// ConfineSettings makes c refuse, with 55P02, every statement that would
// change DuckDB's configuration beyond c: SET GLOBAL and RESET GLOBAL of
// any setting, SET, RESET and PRAGMA of a server-wide one, and the PRAGMA
// calls in globalPragmas; and it runs an unscoped SET, RESET or PRAGMA
// assignment of any other setting as its SESSION form (see
// sessionScoped). Client sessions' connections are confined; Mallard's
// own are not.
func (c *Conn) ConfineSettings() { c.confined = true }

// checkConfined fails with 55P02 if s changes DuckDB's configuration
// beyond its connection.
func (s *Stmt) checkConfined() error {
	switch mapping.PreparedStatementType(s.ps) {
	case mapping.StatementTypeSet:
		m := settingStatement.FindStringSubmatch(s.query)
		if m == nil { // a SET whose setting cannot be told is refused, not guessed
			return ServerWideSettingError("(unrecognised)")
		}
		name := unquoteIdent(m[3])
		if strings.EqualFold(m[2], "global") || s.conn.db.global[strings.ToLower(name)] {
			return ServerWideSettingError(name)
		}
	case mapping.StatementTypePragma:
		if m := pragmaName.FindStringSubmatch(s.query); m != nil {
			name := strings.ToLower(unquoteIdent(m[1]))
			if globalPragmas[name] || s.conn.db.global[name] {
				return ServerWideSettingError(name)
			}
		}
	}
	return nil
}

// ServerWideSettingError is the refusal of a session's change of the
// DuckDB setting name, which would apply to every session.
func ServerWideSettingError(name string) error {
	return sqlstate.New(sqlstate.CantChangeRuntimeParam,
		"parameter %q cannot be changed by a session: it applies to the whole server, or SET GLOBAL was used", name).
		WithHint("Server-wide DuckDB settings are set when Mallard starts (--threads, --memory-limit, --sandbox); SET without GLOBAL changes a per-session setting.")
}

func unquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return s
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
