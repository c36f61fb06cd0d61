//go:build duckdb_arrow

package functions

import (
	"context"
	"encoding/json"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// call is one invocation of a table function.
type call struct {
	*env
	caller storage.Caller
	// setup makes a connection of the function's resolve names as the
	// caller's does: its schema and search path.
	setup []string
	// unknown are the named arguments the call gave that the function
	// does not have (see signature.refuseUnknown).
	unknown []string
	// positional is the number of positional values the call gave when
	// the function takes another number; -1 otherwise (see
	// signature.refusePositional).
	positional int
}

// newCall reads the caller argument the planner adds (see
// planner.CallerArgument); without one, the call has no caller session.
func newCall(e *env, arg any) *call {
	var caller struct {
		Token      string   `json:"id"`
		Schema     string   `json:"schema"`
		SearchPath string   `json:"search_path"`
		Unknown    []string `json:"unknown"`
		Positional *int     `json:"positional"`
	}
	if text, ok := arg.(string); ok {
		_ = json.Unmarshal([]byte(text), &caller)
	}
	c := &call{env: e, caller: e.db.CallerOf(caller.Token), unknown: caller.Unknown, positional: -1}
	if caller.Positional != nil {
		c.positional = *caller.Positional
	}
	if caller.Schema != "" {
		c.setup = append(c.setup, "SET schema = "+quote(caller.Schema))
	}
	if caller.SearchPath != "" {
		c.setup = append(c.setup, "SET search_path = "+quote(caller.SearchPath))
	}
	return c
}

// read runs query on a connection of its own, as the caller would and
// with the caller's rights.
func (c *call) read(ctx context.Context, query string) (*storage.Reader, error) {
	return c.caller.Read(ctx, query, c.setup...)
}

// mayWrite fails with 42501 when the caller is read-only: fn would write.
func (c *call) mayWrite(fn string) error {
	if !c.caller.ReadOnly() {
		return nil
	}
	return sqlstate.New(sqlstate.InsufficientPrivilege, "permission denied for function %s: this session is read-only", fn).
		WithHint("A read-only role may call forecast, recommend, predict, evaluate and attention; connect as the owner to train, save or deploy.")
}

// ctx is the context of the calling statement now: a prepared statement
// is bound when prepared and run later, under another context.
func (c *call) ctx() context.Context { return c.caller.Context() }

func (f tableFunction) udf(e *env) duckdb.ChunkTableFunction {
	return duckdb.ChunkTableFunction{
		Config: f.sig.config(),
		BindArguments: func(named map[string]any, positional ...any) (duckdb.ChunkTableSource, error) {
			c := newCall(e, named[callerArgument])
			t, err := f.bindCall(c, named, positional)
			if err != nil {
				return nil, c.caller.Fail(err)
			}
			t.caller = c.caller
			return t, nil
		},
	}
}

// bindCall checks and parses the arguments of one call and binds it.
func (f tableFunction) bindCall(c *call, named map[string]any, positional []any) (t *table, err error) {
	var a args
	err = f.sig.refuseUnknown(c.unknown)
	if err == nil {
		err = f.sig.refusePositional(c.positional)
	}
	if err == nil {
		a, err = f.sig.parse(named, positional)
	}
	if err != nil {
		return nil, err
	}
	if t, err = f.bind(c, a); err != nil {
		return nil, err
	}
	if f.sig.result != nil {
		t.cols = columnInfos(f.sig.result)
	}
	return t, nil
}
