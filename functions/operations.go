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
		"mlops.cancel":   typedOperation("mlops.cancel", boolType(), cancelRun),
		"mlops.deploy":   typedOperation("mlops.deploy", varcharType(), deployVersion),
		"mlops.rollback": typedOperation("mlops.rollback", varcharType(), rollbackModel),
		"mallard.backup": typedOperation("mallard.backup", varcharType(), backupDatabase),
		"mlops.drop":     typedOperation("mlops.drop", bigintType(), dropModel),
	}
}

// typedOperation is an operation whose arguments P declares: run gets
// them typed and checked.
func typedOperation[T any, P options[T]](fn string, result duckdb.TypeInfo, run func(*call, P) (any, error)) operation {
	return operation{sig: declared[T, P](fn, nil), result: result,
		run: func(c *call, a args) (any, error) { return run(c, bindOptions[T, P](a)) }}
}

// runArgs are mlops.cancel's arguments.
type runArgs struct{ RunID int64 }

func (o *runArgs) params() []param {
	return []param{intArg(&o.RunID, "run_id", 1, 1<<62, "the training run to stop, as mlops.training_runs lists it").pos().req()}
}

// modelVersion is the model and version arguments of the functions that
// read a stored model.
type modelVersion struct {
	Model   string
	Version int // 0 when not given
}

// modelArg declares the model argument bound to f.
func modelArg(f *string) param {
	return textArg(f, "model", "the model, 'name' or 'name@version'; without a version, its deployed version").pos().req()
}

// versionArg declares the version argument bound to f.
func versionArg(f *int) param {
	return intArg(f, "version", 1, 1<<31, "the version of the model; by default the deployed one")
}

// params are the arguments of the operations that take a model and a
// version, both by position.
func (o *modelVersion) params() []param {
	return []param{modelArg(&o.Model), versionArg(&o.Version).pos()}
}

// modelName is the argument of the operations that take a model's name.
type modelName struct{ Model string }

func (o *modelName) params() []param {
	return []param{textArg(&o.Model, "model", "the model's name").pos().req()}
}

// backupArgs are mallard.backup's arguments.
type backupArgs struct{ File string }

func (o *backupArgs) params() []param {
	return []param{textArg(&o.File, "file", "the new file; a bare name goes to the server's backup directory").pos().req()}
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

// call checks and parses the arguments of one call and runs it.
func (b boundOperation) call(c *call, positional []any) (any, error) {
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
// ref is the version m names: model, 'name' or 'name@version', and
// version, which may not name another version.
func (m modelVersion) ref(fn string) (mlops.Ref, error) {
	ref, err := mlops.ParseRef(m.Model)
	if err != nil {
		return ref, sqlstate.New(sqlstate.InvalidParameterValue, "%s: model: %v", fn, err)
	}
	if v := m.Version; v != 0 {
		if ref.Version != 0 && ref.Version != v {
			return ref, sqlstate.New(sqlstate.InvalidParameterValue, "%s: model %s and version %d name different versions", fn, quote(m.Model), v)
		}
		ref.Version = v
	}
	return ref, nil
}

// cancelRun stops a queued or training run at its next batch. It is true
// if the run was stopped, false (with a notice) if it had already ended.
func cancelRun(c *call, o *runArgs) (any, error) {
	id := o.RunID
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

func deployVersion(c *call, o *modelVersion) (any, error) {
	ref, err := o.ref("mlops.deploy")
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

func rollbackModel(c *call, o *modelName) (any, error) {
	ref, err := c.reg.Rollback(c.ctx(), o.Model)
	if err != nil {
		return nil, registryError("mlops.rollback", err)
	}
	return ref.String(), nil
}

func dropModel(c *call, o *modelVersion) (any, error) {
	ref, err := o.ref("mlops.drop")
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
func backupDatabase(c *call, o *backupArgs) (any, error) {
	file, err := c.db.BackupTarget(o.File)
	if err != nil {
		return nil, err
	}
	if err := c.db.Backup(c.ctx(), file); err != nil {
		return nil, err
	}
	return file, nil
}
