package sqlfront

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// params are a session's Postgres run-time parameters: what SET, SHOW,
// current_setting() and ParameterStatus see. DuckDB's own settings are not
// here; statements about them go to DuckDB.
//
// Besides the parameters plan.Parameters lists, a session holds the
// customized options it defines (plan.IsCustomParameter): text values
// under any dotted name, which exist from their first SET, RESET or
// set_config() on, as placeholders do in Postgres, and reset to empty.
//
// Changes made inside a transaction are recorded in tx, so that its end
// can keep or undo them as Postgres does.
type params struct {
	values   map[string]string // by lower-cased name
	initial  map[string]string // what RESET returns to
	custom   map[string]string // spelling of each customized option defined, by lower-cased name
	tx       *paramTx          // nil outside a transaction
	timeout  time.Duration     // statement_timeout
	reported []string          // canonical names of reported parameters that changed, to send
	// maxPrepared is mallard.max_prepared_statements (see mayPrepare).
	maxPrepared int
}

// paramTx is what a transaction changed. At its end every parameter it
// changed returns to its value before it, except that a commit keeps the
// value of the last plain SET or RESET in it: SET LOCAL lasts until the
// end of the transaction either way, and a rollback undoes all.
//
// A transaction is a block when it is one for Postgres: BEGIN's, or the
// implicit one of a simple Query of several statements. The others are
// the implicit transaction of a single statement and that of an
// extended-protocol batch, which lasts until Sync; there SET LOCAL warns
// that it needs a block, but lasts until the transaction ends all the same.
type paramTx struct {
	prior map[string]string // value before the transaction, by lower-cased name
	kept  map[string]string // value a commit keeps, by lower-cased name
	block bool
}

func newParams(startup map[string]string, serverVersion string, statementTimeout time.Duration, maxPrepared int) *params {
	p := &params{values: map[string]string{}, initial: map[string]string{}, custom: map[string]string{}}
	for _, def := range plan.Parameters() {
		p.values[strings.ToLower(def.Name)] = def.Default
	}
	if def, ok := plan.LookupParameter("statement_timeout"); ok && statementTimeout > 0 {
		if canon, err := p.check(def, strconv.FormatInt(statementTimeout.Milliseconds(), 10)); err == nil {
			p.values["statement_timeout"] = canon
		}
	}
	if maxPrepared > 0 {
		p.values[plan.MaxPreparedParameter] = strconv.Itoa(maxPrepared)
	}
	p.values["server_version"] = serverVersion
	p.values["session_authorization"] = startup["user"]
	for name, v := range startup {
		if def, ok := plan.LookupParameter(name); ok && !def.Fixed {
			if canon, err := p.check(def, v); err == nil {
				p.values[strings.ToLower(def.Name)] = canon
			}
		} else if plan.IsCustomParameter(name) {
			if def, err := p.define(name); err == nil {
				p.values[strings.ToLower(def.Name)] = v
			}
		}
	}
	p.timeout, _ = parseTimeout(p.values["statement_timeout"])
	p.maxPrepared, _ = strconv.Atoi(p.values[plan.MaxPreparedParameter])
	for k, v := range p.values {
		p.initial[k] = v
	}
	return p
}

func (p *params) get(name string) string { return p.values[strings.ToLower(name)] }

// lookup finds a Postgres parameter, or a customized option the session
// has defined, by name, case-insensitively.
func (p *params) lookup(name string) (plan.Parameter, bool) {
	if def, ok := plan.LookupParameter(name); ok {
		return def, true
	}
	if spelling, ok := p.custom[strings.ToLower(name)]; ok {
		return plan.Parameter{Name: spelling}, true
	}
	return plan.Parameter{}, false
}

// define is lookup for SET, RESET and set_config(), which define a
// customized option, empty, the first time they name it. A name without a
// dot stays unknown (42704); a dotted name that is not a valid option name
// is refused (42602).
func (p *params) define(name string) (plan.Parameter, error) {
	if def, ok := p.lookup(name); ok {
		return def, nil
	}
	if !plan.IsCustomParameter(name) {
		return plan.Parameter{}, unknownParameter(name)
	}
	if !plan.ValidCustomParameter(name) {
		return plan.Parameter{}, sqlstate.New(sqlstate.InvalidName, "invalid configuration parameter name %q", name).
			WithDetail("Custom parameter names must be two or more simple identifiers separated by dots.")
	}
	key := strings.ToLower(name)
	p.custom[key], p.values[key], p.initial[key] = name, "", ""
	return plan.Parameter{Name: name}, nil
}

// set changes a parameter for the session, or until the transaction ends
// when local, which needs a transaction (see begin). It validates the
// value as Postgres does, where Mallard can honour only some values.
func (p *params) set(name, value string, local, list bool) error {
	def, err := p.changeable(name)
	if err != nil {
		return err
	}
	if _, custom := p.custom[strings.ToLower(def.Name)]; custom && list {
		return sqlstate.New(sqlstate.InvalidParameterValue, "SET %s takes only one argument", def.Name)
	}
	canon, err := p.check(def, value)
	if err != nil {
		return err
	}
	p.change(def, canon, local)
	return nil
}

// setDefault is SET name TO DEFAULT: the value RESET gives.
func (p *params) setDefault(name string, local bool) error {
	def, err := p.changeable(name)
	if err != nil {
		return err
	}
	p.change(def, p.initial[strings.ToLower(def.Name)], local)
	return nil
}

// changeable finds (or defines) a parameter that SET and RESET may change.
func (p *params) changeable(name string) (plan.Parameter, error) {
	def, err := p.define(name)
	if err != nil {
		return def, err
	}
	if def.Fixed {
		return def, sqlstate.New(sqlstate.CantChangeRuntimeParam, "parameter %q cannot be changed", def.Name)
	}
	return def, nil
}

// change assigns a checked value, recording in the open transaction block
// what its end must restore or keep.
func (p *params) change(def plan.Parameter, value string, local bool) {
	key := strings.ToLower(def.Name)
	if p.tx != nil {
		if _, saved := p.tx.prior[key]; !saved {
			p.tx.prior[key] = p.values[key]
		}
		if !local {
			p.tx.kept[key] = value
		}
	}
	p.assign(def, value)
}

func (p *params) assign(def plan.Parameter, value string) {
	key := strings.ToLower(def.Name)
	if p.values[key] == value {
		return
	}
	p.values[key] = value
	switch key {
	case "statement_timeout":
		p.timeout, _ = parseTimeout(value)
	case plan.MaxPreparedParameter:
		p.maxPrepared, _ = strconv.Atoi(value)
	case "default_transaction_isolation":
		// Every transaction starts at the default level, and SHOW
		// transaction_isolation shows the current one's.
		if def, ok := plan.LookupParameter("transaction_isolation"); ok {
			p.assign(def, value)
		}
	}
	if def.Reported && !slices.Contains(p.reported, def.Name) {
		p.reported = append(p.reported, def.Name)
	}
}

// reset returns one parameter, or all, to their values at startup.
func (p *params) reset(name string) error {
	if name != "all" {
		def, err := p.changeable(name)
		if err != nil {
			return err
		}
		p.change(def, p.initial[strings.ToLower(def.Name)], false)
		return nil
	}
	for _, def := range plan.Parameters() {
		if !def.Fixed {
			p.change(def, p.initial[strings.ToLower(def.Name)], false)
		}
	}
	for key, spelling := range p.custom {
		p.change(plan.Parameter{Name: spelling}, p.initial[key], false)
	}
	return nil
}

// inTransaction reports whether a transaction is open (see begin).
func (p *params) inTransaction() bool { return p.tx != nil }

// inBlock reports whether a transaction block is open (see paramTx).
func (p *params) inBlock() bool { return p.tx != nil && p.tx.block }

// begin opens a transaction: changes from now on are kept or undone by
// end. If one is open already it goes on, a block from now on if block
// is set: BEGIN in an extended-protocol batch makes the batch's implicit
// transaction a block, with what it changed so far.
func (p *params) begin(block bool) {
	if p.tx == nil {
		p.tx = &paramTx{prior: map[string]string{}, kept: map[string]string{}}
	}
	p.tx.block = p.tx.block || block
}

// end closes the transaction: a commit keeps the plain SETs and RESETs
// made in it, and everything else returns to its value before it. It
// reports whether any value changed.
func (p *params) end(commit bool) bool {
	if p.tx == nil {
		return false
	}
	changed := false
	for key, v := range p.tx.prior {
		if kept, ok := p.tx.kept[key]; ok && commit {
			v = kept
		}
		if p.values[key] != v {
			def, _ := p.lookup(key)
			p.assign(def, v)
			changed = true
		}
	}
	p.tx = nil
	return changed
}

// check validates value for def and returns it in canonical form.
func (p *params) check(def plan.Parameter, value string) (string, error) {
	switch strings.ToLower(def.Name) {
	case "client_encoding":
		if !strings.EqualFold(value, "utf8") && !strings.EqualFold(value, "unicode") && !strings.EqualFold(value, "utf-8") {
			return "", invalidValue(def.Name, value, "Mallard sends and receives UTF8 only")
		}
		return "UTF8", nil
	case "statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout":
		if _, err := parseTimeout(value); err != nil {
			return "", invalidValue(def.Name, value, "a number of milliseconds, or a number with a unit: ms, s, min, h, d")
		}
	case plan.MaxPreparedParameter:
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < 1 {
			return "", invalidValue(def.Name, value, "a whole number of statements, at least 1")
		}
		return strconv.Itoa(n), nil
	case "standard_conforming_strings":
		if !isOn(value) {
			return "", invalidValue(def.Name, value, "only on is supported")
		}
		return "on", nil
	case "intervalstyle":
		if !strings.EqualFold(value, "postgres") {
			return "", invalidValue(def.Name, value, "only postgres is supported")
		}
		return "postgres", nil
	case "datestyle":
		if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(value)), "ISO") {
			return "", invalidValue(def.Name, value, "output is ISO: ISO, MDY / ISO, DMY / ISO, YMD")
		}
	case "transaction_isolation", "default_transaction_isolation":
		return strings.ToLower(value), nil
	case "client_min_messages":
		v := strings.ToLower(strings.TrimSpace(value))
		if v == "info" { // Postgres accepts it and always sends INFO
			return v, nil
		}
		if !slices.Contains(messageLevels, v) {
			return "", invalidValue(def.Name, value, "Available values: "+strings.Join(messageLevels, ", ")+".")
		}
		return v, nil
	}
	return value, nil
}

func isOn(v string) bool {
	switch strings.ToLower(v) {
	case "on", "true", "yes", "1", "t":
		return true
	}
	return false
}

// parseTimeout reads a Postgres time parameter: milliseconds by default.
func parseTimeout(v string) (time.Duration, error) {
	v = strings.TrimSpace(strings.ToLower(v))
	units := []struct {
		suffix string
		unit   time.Duration
	}{{"ms", time.Millisecond}, {"min", time.Minute}, {"s", time.Second}, {"h", time.Hour}, {"d", 24 * time.Hour}}
	unit := time.Millisecond
	for _, u := range units {
		if strings.HasSuffix(v, u.suffix) {
			v, unit = strings.TrimSpace(strings.TrimSuffix(v, u.suffix)), u.unit
			break
		}
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid time %q", v)
	}
	return time.Duration(n * float64(unit)), nil
}

func unknownParameter(name string) error {
	return sqlstate.New(sqlstate.UndefinedObject, "unrecognized configuration parameter %q", name)
}

func invalidValue(name, value, accepted string) error {
	e := sqlstate.New(sqlstate.InvalidParameterValue, "invalid value for parameter %q: %q", name, value)
	e.Hint = accepted
	return e
}

// sendReported sends ParameterStatus for reported parameters that changed.
func (s *session) sendReported() {
	for _, name := range s.params.reported {
		s.w.send(&pgproto3.ParameterStatus{Name: name, Value: s.params.get(name)})
	}
	s.params.reported = s.params.reported[:0]
}
