package sqlfront

import (
	"fmt"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// setConfig is a SELECT of set_config(name, value, is_local) calls, whose
// names and values may be parameters (PostgREST sets a request's search
// path, role and request.* options in one such SELECT). The calls run in
// order; the row holds each parameter's new value. Outside a transaction
// the statement is one of its own, so a failing call undoes those before
// it and what they set locally ends with the statement.
func setConfig(calls []plan.Setting) *synthetic {
	sy := &synthetic{tag: "SELECT"}
	for _, c := range calls {
		col := c.Column
		if col == "" {
			col = "set_config"
		}
		sy.cols = append(sy.cols, col)
		sy.params = max(sy.params, c.NameParam, c.ValueParam)
	}
	sy.run = func(s *session, args []any) ([][]string, error) {
		row := make([]string, len(calls))
		err := s.inOwnTransaction(func() error {
			for i := range calls {
				set, err := boundSetting(calls[i], args)
				if err != nil {
					return err
				}
				if row[i], err = s.changeSetting(&set); err != nil {
					return err
				}
			}
			return s.syncParams()
		})
		if err != nil {
			return nil, err
		}
		return [][]string{row}, nil
	}
	return sy
}

// boundSetting fills in a set_config() call's name and value from the
// values bound to its parameters. A NULL name is refused as Postgres
// refuses it; a NULL value is SET ... TO DEFAULT.
func boundSetting(call plan.Setting, args []any) (plan.Setting, error) {
	for _, n := range []int{call.NameParam, call.ValueParam} {
		if n > len(args) {
			return call, sqlstate.New(sqlstate.UndefinedParameter, "there is no parameter $%d", n)
		}
	}
	if call.NameParam > 0 {
		name, ok := argText(args[call.NameParam-1])
		if !ok {
			return call, sqlstate.New(sqlstate.NullValueNotAllowed, "SET requires parameter name")
		}
		call.Name = name
	}
	if call.ValueParam > 0 {
		value, ok := argText(args[call.ValueParam-1])
		call.Value, call.Default = value, !ok
	}
	return call, nil
}

// argText is a bound parameter's value as text; false for NULL.
func argText(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "", false
	case string:
		return v, true
	case []byte:
		return string(v), true
	default:
		return fmt.Sprint(v), true
	}
}
