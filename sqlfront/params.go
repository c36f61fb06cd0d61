package sqlfront

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/planner"
	"github.com/mallard/mallard/sqlstate"
)

// params are a session's Postgres run-time parameters: what SET, SHOW,
// current_setting() and ParameterStatus see. DuckDB's own settings are not
// here; statements about them go to DuckDB.
type params struct {
	values   map[string]string // by lower-cased name
	initial  map[string]string // what RESET returns to
	local    map[string]string // values to restore at the end of the transaction (SET LOCAL)
	timeout  time.Duration     // statement_timeout
	reported []string          // canonical names of reported parameters that changed, to send
}

func newParams(startup map[string]string, serverVersion string, statementTimeout time.Duration) *params {
	p := &params{values: map[string]string{}, initial: map[string]string{}, local: map[string]string{}}
	for _, def := range planner.Parameters() {
		p.values[strings.ToLower(def.Name)] = def.Default
	}
	if def, ok := planner.LookupParameter("statement_timeout"); ok && statementTimeout > 0 {
		if canon, err := p.check(def, strconv.FormatInt(statementTimeout.Milliseconds(), 10)); err == nil {
			p.values["statement_timeout"] = canon
		}
	}
	p.values["server_version"] = serverVersion
	p.values["session_authorization"] = startup["user"]
	for name, v := range startup {
		if def, ok := planner.LookupParameter(name); ok && !def.Fixed {
			if canon, err := p.check(def, v); err == nil {
				p.values[strings.ToLower(def.Name)] = canon
			}
		}
	}
	p.timeout, _ = parseTimeout(p.values["statement_timeout"])
	for k, v := range p.values {
		p.initial[k] = v
	}
	return p
}

func (p *params) get(name string) string { return p.values[strings.ToLower(name)] }

// set changes a parameter for the session, or until the transaction ends
// when local. It validates the value as Postgres does, where Mallard can
// honour only some values.
func (p *params) set(name, value string, local bool) error {
	def, ok := planner.LookupParameter(name)
	if !ok {
		return unknownParameter(name)
	}
	if def.Fixed {
		return sqlstate.New(sqlstate.CantChangeRuntimeParam, "parameter %q cannot be changed", def.Name)
	}
	canon, err := p.check(def, value)
	if err != nil {
		return err
	}
	key := strings.ToLower(def.Name)
	if local {
		if _, saved := p.local[key]; !saved {
			p.local[key] = p.values[key]
		}
	}
	p.assign(def, canon)
	return nil
}

func (p *params) assign(def planner.Parameter, value string) {
	key := strings.ToLower(def.Name)
	if p.values[key] == value {
		return
	}
	p.values[key] = value
	switch key {
	case "statement_timeout":
		p.timeout, _ = parseTimeout(value)
	case "default_transaction_isolation":
		// Every transaction starts at the default level, and SHOW
		// transaction_isolation shows the current one's.
		if def, ok := planner.LookupParameter("transaction_isolation"); ok {
			p.assign(def, value)
		}
	}
	if def.Reported {
		p.reported = append(p.reported, def.Name)
	}
}

// reset returns one parameter, or all, to their values at startup.
func (p *params) reset(name string) error {
	if name == "all" {
		for _, def := range planner.Parameters() {
			if !def.Fixed {
				p.assign(def, p.initial[strings.ToLower(def.Name)])
			}
		}
		return nil
	}
	def, ok := planner.LookupParameter(name)
	if !ok {
		return unknownParameter(name)
	}
	if def.Fixed {
		return sqlstate.New(sqlstate.CantChangeRuntimeParam, "parameter %q cannot be changed", def.Name)
	}
	p.assign(def, p.initial[strings.ToLower(def.Name)])
	return nil
}

// endTransaction undoes SET LOCAL.
func (p *params) endTransaction() {
	for key, v := range p.local {
		def, _ := planner.LookupParameter(key)
		p.assign(def, v)
	}
	clear(p.local)
}

// check validates value for def and returns it in canonical form.
func (p *params) check(def planner.Parameter, value string) (string, error) {
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
