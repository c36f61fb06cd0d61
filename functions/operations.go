//go:build duckdb_arrow

package functions

import (
	"database/sql/driver"
	"fmt"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/sqlstate"
)

// operation is one of the registry's operations: a scalar function named
// mlops.<name>, called once per row, with side effects. The planner
// passes the caller first, then every argument as JSON text (see
// plan.Catalog.Operations).
type operation struct {
	sig    signature
	result duckdb.TypeInfo
	run    func(c *call, a args) (any, error)
}

func operations() map[string]operation {
	return map[string]operation{
		"mlops.cancel": {sig: signature{fn: "mlops.cancel", positional: []param{{name: "run_id", kind: kindInt, required: true, min: 1, max: 1 << 62}}},
			result: boolType(), run: cancelRun},
		"mlops.deploy": {sig: signature{fn: "mlops.deploy", positional: []param{{name: "model", kind: kindText, required: true},
			{name: "version", kind: kindInt, min: 1, max: 1 << 31}}}, result: varcharType(), run: deployVersion},
		"mlops.rollback": {sig: signature{fn: "mlops.rollback", positional: []param{{name: "model", kind: kindText, required: true}}},
			result: varcharType(), run: rollbackModel},
		"mallard.backup": {sig: signature{fn: "mallard.backup", positional: []param{{name: "file", kind: kindText, required: true}}},
			result: varcharType(), run: backupDatabase},
		"mlops.drop": {sig: signature{fn: "mlops.drop", positional: []param{{name: "model", kind: kindText, required: true},
			{name: "version", kind: kindInt, min: 1, max: 1 << 31}}}, result: bigintType(), run: dropModel},
	}
}

// operationNames names the registry's operations, for the planner.
func operationNames() []string {
	var names []string
	for name := range operations() {
		names = append(names, name)
	}
	return names
}

// opName is the name DuckDB knows an operation by.
func opName(name string) string { return strings.ReplaceAll(name, ".", "_") }

func (op operation) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{varcharType()}, VariadicTypeInfo: varcharType(),
		ResultTypeInfo: op.result, Volatile: true, SpecialNullHandling: true}
}

func (op operation) udf(e *env) duckdb.ScalarFunc { return boundOperation{op, e} }

type boundOperation struct {
	operation
	e *env
}

func (b boundOperation) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(values []driver.Value) (any, error) {
		c := newCall(b.e, values[0])
		positional := make([]any, len(values)-1)
		for i, v := range values[1:] {
			positional[i] = v
		}
		v, err := b.call(c, positional)
		if err != nil {
			return nil, c.caller.Fail(err)
		}
		return v, nil
	}}
}

// call checks and parses the arguments of one call and runs it. A read
// of an argument the operation does not declare is an internal error.
func (b boundOperation) call(c *call, positional []any) (v any, err error) {
	defer recoverUndeclared(&err)
	a, err := b.sig.parse(nil, positional)
	if err != nil {
		return nil, err
	}
	if err := c.mayWrite(b.sig.fn); err != nil {
		return nil, err
	}
	return b.run(c, a)
}

// modelRef reads the model argument, 'name' or 'name@version', and the
// version argument, which may not name another version.
func modelRef(fn string, a args) (mlops.Ref, error) {
	ref, err := mlops.ParseRef(a.text("model"))
	if err != nil {
		return ref, sqlstate.New(sqlstate.InvalidParameterValue, "%s: model: %v", fn, err)
	}
	if a.given("version") {
		v := int(a.int("version"))
		if ref.Version != 0 && ref.Version != v {
			return ref, sqlstate.New(sqlstate.InvalidParameterValue, "%s: model %s and version %d name different versions", fn, quote(a.text("model")), v)
		}
		ref.Version = v
	}
	return ref, nil
}

// cancelRun stops a queued or training run at its next batch. It is true
// if the run was stopped, false (with a notice) if it had already ended.
func cancelRun(c *call, a args) (any, error) {
	id := a.int("run_id")
	cause := sqlstate.New(sqlstate.QueryCanceled, "training run %d canceled by mlops.cancel in session %d", id, c.caller.ID())
	if c.reg.Cancel(id, cause) {
		return true, nil
	}
	run, err := c.reg.Run(c.ctx(), id)
	if err != nil {
		return nil, registryError("mlops.cancel", err)
	}
	c.caller.Notice(fmt.Sprintf("training run %d is %s, not queued or training: nothing to cancel", id, run.Status))
	return false, nil
}

func deployVersion(c *call, a args) (any, error) {
	ref, err := modelRef("mlops.deploy", a)
	if err != nil {
		return nil, err
	}
	if ref.Version == 0 {
		return nil, sqlstate.New(sqlstate.UndefinedFunction, "mlops.deploy: argument version is required").
			WithHint("Call it as mlops.deploy('%s', version) or mlops.deploy('%s@version').", ref.Name, ref.Name)
	}
	if err := c.reg.Deploy(c.ctx(), ref); err != nil {
		return nil, registryError("mlops.deploy", err)
	}
	return ref.String(), nil
}

func rollbackModel(c *call, a args) (any, error) {
	ref, err := c.reg.Rollback(c.ctx(), a.text("model"))
	if err != nil {
		return nil, registryError("mlops.rollback", err)
	}
	return ref.String(), nil
}

func dropModel(c *call, a args) (any, error) {
	ref, err := modelRef("mlops.drop", a)
	if err != nil {
		return nil, err
	}
	n, err := c.reg.Drop(c.ctx(), ref)
	if err != nil {
		return nil, registryError("mlops.drop", err)
	}
	return n, nil
}

// backupDatabase writes a consistent copy of the database, models
// included, into a new file while clients go on writing (see
// storage.DB.Backup), atomically: a file at the name it returns is a
// whole backup. A bare name goes to the server's backup directory (see
// storage.DB.BackupTarget); a server started on the file serves the copy.
func backupDatabase(c *call, a args) (any, error) {
	file, err := c.db.BackupTarget(a.text("file"))
	if err != nil {
		return nil, err
	}
	if err := c.db.Backup(c.ctx(), file); err != nil {
		return nil, err
	}
	return file, nil
}
