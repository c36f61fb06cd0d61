package sqlfront

import (
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// synthetic is a statement the front end answers itself: SET, RESET and
// SHOW of Postgres parameters and customized options, and set_config().
type synthetic struct {
	cols []string // result columns, all text; nil for none
	// run applies the statement to the values bound to its parameters
	// and returns the rows.
	run func(s *session, args []any) ([][]string, error)
	tag string
	// params is the number of parameters the statement takes, all text.
	params int
}

// settingStatement returns the synthetic form of a SET, RESET, SHOW or
// set_config statement, or nil when it concerns a DuckDB setting (or, for
// SHOW, anything else DuckDB shows, such as SHOW TABLES) and goes to DuckDB.
func (s *session) settingStatement(st plan.Statement) *synthetic {
	set := st.Setting
	_, isPG := plan.LookupParameter(set.Name)
	ours := isPG || plan.IsCustomParameter(set.Name)
	switch {
	case st.Kind == plan.KindSetConfig:
		return setConfig(st.SetConfig)
	case set.Show && set.Name == "all":
		return &synthetic{cols: []string{"name", "setting", "description"}, tag: "SHOW", run: func(s *session, _ []any) ([][]string, error) {
			return s.showAll()
		}}
	case set.Show && ours:
		return s.showParameter(set.Name)
	case set.Show:
		if sy := s.duckDBSetting(set.Name); sy != nil || s.isRelation(set.Name) {
			return sy // nil: DuckDB's own SHOW (SHOW TABLES, SHOW of a table)
		}
		return &synthetic{cols: []string{set.Name}, tag: "SHOW", run: func(*session, []any) ([][]string, error) {
			return nil, unknownParameter(set.Name)
		}}
	case ours || set.Name == "transaction" || set.Name == "all":
		tag := "SET"
		if set.Reset {
			tag = "RESET"
		}
		return &synthetic{tag: tag, run: func(s *session, _ []any) ([][]string, error) {
			if set.Local && !set.Reset && !s.params.inBlock() {
				s.sendNotice("WARNING", sqlstate.NoActiveSQLTransaction, "SET LOCAL can only be used in transaction blocks")
			}
			return nil, s.inOwnTransaction(func() error {
				_, err := s.applySetting(set)
				return err
			})
		}}
	}
	return nil
}

// showParameter is SHOW of a Postgres parameter or a customized option,
// which must be defined when the statement runs.
func (s *session) showParameter(name string) *synthetic {
	col := name
	if def, ok := s.params.lookup(name); ok {
		col = def.Name
	}
	return &synthetic{cols: []string{col}, tag: "SHOW", run: func(s *session, _ []any) ([][]string, error) {
		if _, ok := s.params.lookup(name); !ok {
			return nil, unknownParameter(name)
		}
		return [][]string{{s.params.get(name)}}, nil
	}}
}

// applySetting carries out SET or RESET of a Postgres parameter or a
// customized option, keeps DuckDB in step (see syncParams) and returns
// the parameter's new value.
func (s *session) applySetting(set *plan.Setting) (string, error) {
	value, err := s.changeSetting(set)
	if err != nil {
		return "", err
	}
	return value, s.syncParams()
}

// changeSetting is applySetting without keeping DuckDB in step.
func (s *session) changeSetting(set *plan.Setting) (string, error) {
	if set.Name == "transaction" {
		return "", nil // isolation and access mode: DuckDB offers one kind of transaction
	}
	var err error
	switch {
	case set.Reset:
		err = s.params.reset(set.Name)
	case set.Default:
		err = s.params.setDefault(set.Name, set.Local)
	default:
		err = s.params.set(set.Name, set.Value, set.Local, set.List)
	}
	if err != nil {
		return "", err
	}
	return s.params.get(set.Name), nil
}

// inOwnTransaction runs f, which changes parameters, as a transaction of
// its own when none is open: in Postgres a statement outside any
// transaction is one, so what it sets locally (SET LOCAL,
// set_config(..., true)) ends with it, and nothing it set survives its
// failure.
func (s *session) inOwnTransaction(f func() error) error {
	if s.params.inTransaction() {
		return f()
	}
	s.params.begin(false)
	err := f()
	s.endParams(err == nil)
	return err
}

// syncParams mirrors changed parameters into DuckDB: its TimeZone and
// search_path, and a session variable per parameter and customized option
// for current_setting().
func (s *session) syncParams() error {
	for _, name := range s.params.reported {
		if strings.EqualFold(name, "TimeZone") {
			if err := s.db.Exec(s.ctx, "SET TimeZone = "+quoteLiteral(s.params.get(name))); err != nil {
				return invalidValue("TimeZone", s.params.get(name), "a time zone name such as UTC or Europe/Paris")
			}
		}
	}
	if s.mirrored == nil {
		s.mirrored = map[string]string{}
	}
	for _, def := range plan.Parameters() {
		v := s.params.get(def.Name)
		if _, ok := s.mirrored[strings.ToLower(def.Name)]; !ok && v == def.Default && def.Name != "search_path" {
			continue // unset, current_setting falls back to the default
		}
		if err := s.mirror(def.Name, v); err != nil {
			return err
		}
	}
	for _, name := range s.params.custom {
		// Mirrored even when empty: the variable's existence says the option is defined.
		if err := s.mirror(name, s.params.get(name)); err != nil {
			return err
		}
	}
	return s.syncSearchPath()
}

// mirror sets the session variable current_setting reads for a parameter,
// unless it already holds v.
func (s *session) mirror(name, v string) error {
	key := strings.ToLower(name)
	if last, ok := s.mirrored[key]; ok && last == v {
		return nil
	}
	if err := s.db.Exec(s.ctx, "SET VARIABLE "+quoteIdent(plan.VariableName(name))+" = "+quoteLiteral(v)); err != nil {
		return err
	}
	s.mirrored[key] = v
	return nil
}

// syncSearchPath gives DuckDB the schemas of the Postgres search_path that
// exist ("$user" and pg_catalog are implicit in DuckDB; Postgres skips
// schemas that do not exist, DuckDB refuses them), then main.
func (s *session) syncSearchPath() error {
	existing, err := s.queryText("SELECT schema_name FROM duckdb_schemas() WHERE database_name = current_database()")
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, row := range existing {
		have[row[0]] = true
	}
	var path []string
	for _, part := range strings.Split(s.params.get("search_path"), ",") {
		part = strings.Trim(strings.TrimSpace(part), `"`)
		if have[part] && part != "main" {
			path = append(path, part)
		}
	}
	return s.db.Exec(s.ctx, "SET search_path = "+quoteLiteral(strings.Join(append(path, "main"), ",")))
}

func (s *session) showAll() ([][]string, error) {
	var rows [][]string
	for _, def := range plan.Parameters() {
		rows = append(rows, []string{def.Name, s.params.get(def.Name), def.Description})
	}
	duck, err := s.queryText("SELECT name, value, description FROM duckdb_settings() ORDER BY name")
	return append(rows, duck...), err
}

// duckDBSetting shows a DuckDB setting in Postgres' SHOW shape, or returns
// nil when name is none (SHOW TABLES and DuckDB's SHOW of a table).
func (s *session) duckDBSetting(name string) *synthetic {
	rows, err := s.queryText("SELECT value FROM duckdb_settings() WHERE name = " + quoteLiteral(name))
	if err != nil || len(rows) == 0 {
		return nil
	}
	return &synthetic{cols: []string{name}, tag: "SHOW", run: func(s *session, _ []any) ([][]string, error) {
		return s.queryText("SELECT current_setting(" + quoteLiteral(name) + ")::VARCHAR")
	}}
}

// isRelation reports whether SHOW name is DuckDB's SHOW of a table or view,
// or one of its SHOW TABLES forms, rather than of an unknown parameter.
func (s *session) isRelation(name string) bool {
	switch name {
	case "tables", "databases", "functions":
		return true
	}
	q := "SELECT 1 FROM duckdb_tables() WHERE table_name = " + quoteLiteral(name) +
		" UNION ALL SELECT 1 FROM duckdb_views() WHERE view_name = " + quoteLiteral(name)
	rows, err := s.queryText(q)
	return err != nil || len(rows) > 0
}

// queryText runs an internal query and returns its rows as text.
func (s *session) queryText(q string) ([][]string, error) {
	// An internal query runs with DuckDB's default streaming buffer: a
	// session whose last statement was progressive keeps a 1-byte one
	// (chunkByChunk), under which DuckDB 1.5.5's batched streaming of an
	// ORDER BY result never returns its first chunk.
	if err := s.chunkByChunk(plan.Statement{}); err != nil {
		return nil, err
	}
	ctx, done := s.statementContext()
	defer done()
	st, err := s.db.Prepare(ctx, q)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	rows, err := st.Query(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return collectText(rows)
}

// collectText reads a small internal result as text.
func collectText(rows Rows) ([][]string, error) {
	var out [][]string
	for rows.Next() {
		b := rows.Batch()
		for r := 0; r < int(b.NumRows()); r++ {
			row := make([]string, b.NumCols())
			for c := range row {
				if !b.Column(c).IsNull(r) {
					// Arrow strings alias the batch's memory, freed by the next Next.
					row[c] = strings.Clone(b.Column(c).ValueStr(r))
				}
			}
			out = append(out, row)
		}
	}
	return out, rows.Err()
}

// runSynthetic executes a synthetic statement with the values bound to
// its parameters and sends its result. In an extended-protocol batch
// outside a transaction block it opens the batch's implicit transaction,
// which Sync ends (see handleSync): there, as in Postgres, SET LOCAL and
// set_config(..., true) last until Sync, and an error before Sync undoes
// the batch's SETs.
func (s *session) runSynthetic(sy *synthetic, args []any, simple bool) error {
	if !simple && s.tx == txIdle {
		s.params.begin(false)
	}
	rows, err := sy.run(s, args)
	if err != nil {
		return err
	}
	s.sendReported()
	if sy.cols != nil {
		if simple {
			s.w.send(syntheticDescription(sy.cols))
		}
		for _, row := range rows {
			values := make([][]byte, len(row))
			for i, v := range row {
				values[i] = []byte(v)
			}
			s.w.send(&pgproto3.DataRow{Values: values})
		}
	}
	s.completed(sy.tag, int64(len(rows)))
	s.w.send(&pgproto3.CommandComplete{CommandTag: commandTag(sy.tag, int64(len(rows)), sy.tag == "SELECT")})
	return nil
}

func syntheticDescription(cols []string) *pgproto3.RowDescription {
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, c := range cols {
		fields[i] = pgproto3.FieldDescription{Name: []byte(c), DataTypeOID: 25, DataTypeSize: -1, TypeModifier: -1}
	}
	return &pgproto3.RowDescription{Fields: fields}
}

func quoteLiteral(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }
