package planner

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/mallard/mallard/planner/plan"
)

// notKept names the ALTER TABLE subcommands that only tune Postgres'
// storage, planner or replication, which DuckDB has no use for; they are
// accepted and dropped with a notice.
var notKept = map[pg.AlterTableType]string{
	pg.AlterTableType_AT_SetRelOptions: "storage parameters", pg.AlterTableType_AT_ResetRelOptions: "storage parameters",
	pg.AlterTableType_AT_SetOptions: "column options", pg.AlterTableType_AT_ResetOptions: "column options",
	pg.AlterTableType_AT_SetStatistics: "SET STATISTICS", pg.AlterTableType_AT_SetStorage: "SET STORAGE",
	pg.AlterTableType_AT_SetCompression: "SET COMPRESSION", pg.AlterTableType_AT_ClusterOn: "CLUSTER ON",
	pg.AlterTableType_AT_DropCluster: "SET WITHOUT CLUSTER", pg.AlterTableType_AT_ReplicaIdentity: "REPLICA IDENTITY",
	pg.AlterTableType_AT_EnableRowSecurity: "row security", pg.AlterTableType_AT_DisableRowSecurity: "row security",
	pg.AlterTableType_AT_ForceRowSecurity: "row security", pg.AlterTableType_AT_NoForceRowSecurity: "row security",
	pg.AlterTableType_AT_SetLogged: "SET LOGGED", pg.AlterTableType_AT_SetUnLogged: "SET UNLOGGED",
	pg.AlterTableType_AT_SetTableSpace: "tablespaces", pg.AlterTableType_AT_SetAccessMethod: "access methods",
	pg.AlterTableType_AT_ValidateConstraint: "VALIDATE CONSTRAINT (constraints are validated when added)",
}

// alterTable carries out ALTER TABLE [ONLY] one subcommand at a time, as
// DuckDB takes them: owners and storage tuning go with a notice, UNIQUE
// becomes a unique index, FOREIGN KEY and CHECK rebuild the table (see
// ConstraintStep), and ADD GENERATED AS IDENTITY makes a sequence and a
// default. ONLY means nothing without inheritance, which Mallard lacks.
func (p *Planner) alterTable(at *pg.AlterTableStmt) (*ddlPlan, string) {
	at.Relation.Inh = true
	d := &ddlPlan{}
	plain := 0
	for _, c := range at.Cmds {
		cmd := c.GetAlterTableCmd()
		switch {
		case cmd == nil:
		case cmd.Subtype == pg.AlterTableType_AT_ChangeOwner:
			d.notice("owners are not kept: Mallard has no roles, every user sees every object")
		case notKept[cmd.Subtype] != "":
			d.notice(notKept[cmd.Subtype] + " is not kept: DuckDB has no use for it")
		case cmd.Subtype == pg.AlterTableType_AT_AttachPartition, cmd.Subtype == pg.AlterTableType_AT_DetachPartition:
			return nil, "partitioned tables"
		case cmd.Subtype == pg.AlterTableType_AT_AddInherit, cmd.Subtype == pg.AlterTableType_AT_DropInherit:
			return nil, "table inheritance (INHERITS)"
		case strings.HasPrefix(cmd.Subtype.String(), "AT_EnableTrig"), strings.HasPrefix(cmd.Subtype.String(), "AT_DisableTrig"),
			strings.HasPrefix(cmd.Subtype.String(), "AT_EnableRule"), strings.HasPrefix(cmd.Subtype.String(), "AT_EnableAlwaysRule"),
			strings.HasPrefix(cmd.Subtype.String(), "AT_EnableReplica"), strings.HasPrefix(cmd.Subtype.String(), "AT_DisableRule"):
			d.notice("triggers and rules are not kept: Mallard has none")
		case cmd.Subtype == pg.AlterTableType_AT_AddIdentity:
			con := cmd.Def.GetConstraint()
			d.steps = append(d.steps, p.identitySequence(at.Relation, cmd.Name, con, d))
			def := &pg.AlterTableCmd{Subtype: pg.AlterTableType_AT_ColumnDefault, Name: cmd.Name,
				Def: call([]string{"nextval"}, pg.MakeAConstStrNode(seqName(at.Relation, cmd.Name, con), -1))}
			d.steps = append(d.steps, p.alterStep(at, def)...)
		case cmd.Subtype == pg.AlterTableType_AT_SetNotNull:
			d.steps = append(d.steps, notNullStep(at, cmd.Name))
		case cmd.Subtype == pg.AlterTableType_AT_AddColumn && columnConstraints(cmd):
			steps, feature := p.addColumn(at, cmd, d)
			if feature != "" {
				return nil, feature
			}
			d.steps = append(d.steps, steps...)
		case cmd.Subtype == pg.AlterTableType_AT_AddConstraint:
			steps, feature := p.addConstraint(at, cmd, d)
			if feature != "" {
				return nil, feature
			}
			d.steps = append(d.steps, steps...)
		default:
			plain++
			d.steps = append(d.steps, p.alterStep(at, cmd)...)
		}
	}
	if plain == len(at.Cmds) && plain == 1 {
		return &ddlPlan{keep: true}, "" // one subcommand DuckDB runs as it is
	}
	return d, ""
}

// alterStep is ALTER TABLE of at's table with the one subcommand cmd.
func (p *Planner) alterStep(at *pg.AlterTableStmt, cmd *pg.AlterTableCmd) []plan.DDLStep {
	one := &pg.AlterTableStmt{Relation: at.Relation, Objtype: at.Objtype, MissingOk: at.MissingOk,
		Cmds: []*pg.Node{{Node: &pg.Node_AlterTableCmd{AlterTableCmd: cmd}}}}
	return p.rewriteStep(&pg.Node{Node: &pg.Node_AlterTableStmt{AlterTableStmt: one}})
}

// addConstraint plans ADD CONSTRAINT of a primary key, unique, CHECK or
// FOREIGN KEY constraint as a ConstraintStep: only a constraint in the
// table's definition is one DuckDB's foreign keys can reference and
// reports violations as Postgres does.
func (p *Planner) addConstraint(at *pg.AlterTableStmt, cmd *pg.AlterTableCmd, d *ddlPlan) ([]plan.DDLStep, string) {
	con := cmd.Def.GetConstraint()
	if con == nil {
		return p.alterStep(at, cmd), ""
	}
	con.Options, con.Indexspace = nil, ""
	fkActions(con, d)
	switch con.Contype {
	case pg.ConstrType_CONSTR_EXCLUSION:
		return nil, "exclusion constraints"
	case pg.ConstrType_CONSTR_PRIMARY:
		if con.Indexname != "" {
			return nil, "ADD PRIMARY KEY USING INDEX"
		}
		return p.constraintStep(at, con, "PRIMARY KEY", d)
	case pg.ConstrType_CONSTR_UNIQUE:
		if con.Indexname != "" {
			return nil, "ADD UNIQUE USING INDEX"
		}
		return p.constraintStep(at, con, "UNIQUE", d)
	case pg.ConstrType_CONSTR_CHECK, pg.ConstrType_CONSTR_FOREIGN:
		con.SkipValidation, con.InitiallyValid = false, true
		kind := "CHECK"
		if con.Contype == pg.ConstrType_CONSTR_FOREIGN {
			kind = "FOREIGN KEY"
		}
		return p.constraintStep(at, con, kind, d)
	}
	return p.alterStep(at, cmd), ""
}

// constraintStep is the step that adds con, of kind, to at's table. A
// foreign key that references its own table is added too: the server
// copies the rows back a level of the hierarchy at a time (see
// sqlfront's copyBack).
func (p *Planner) constraintStep(at *pg.AlterTableStmt, con *pg.Constraint, kind string, d *ddlPlan) ([]plan.DDLStep, string) {
	clause, ok := p.constraintClause(con)
	if !ok {
		return nil, "this form of ADD " + kind
	}
	step := &plan.ConstraintStep{Schema: at.Relation.Schemaname, Table: at.Relation.Relname, Name: con.Conname, Clause: clause, Kind: kind}
	if pk := con.Pktable; pk != nil && pk.Schemaname == "" && pk.Relname == at.Relation.Relname {
		self := proto.Clone(con).(*pg.Constraint)
		self.Pktable.Schemaname = plan.SelfSchema
		step.SelfClause, _ = p.constraintClause(self)
	}
	return []plan.DDLStep{{Constraint: step}}, ""
}

// notNullStep is the step that makes column of at's table NOT NULL, which
// DuckDB's ALTER TABLE refuses on a table with indexes or foreign keys.
func notNullStep(at *pg.AlterTableStmt, column string) plan.DDLStep {
	return plan.DDLStep{Constraint: &plan.ConstraintStep{Schema: at.Relation.Schemaname, Table: at.Relation.Relname,
		Name: column, Kind: "NOT NULL", Column: column}}
}

func keyNames(keys []*pg.Node) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.GetString_().GetSval()
	}
	return out
}

// constraintClause renders a table constraint as it would stand in CREATE
// TABLE, rewritten for DuckDB, by rendering a one-constraint CREATE TABLE
// and cutting the constraint out of its parentheses.
func (p *Planner) constraintClause(con *pg.Constraint) (string, bool) {
	cs := &pg.CreateStmt{Relation: &pg.RangeVar{Relname: "t", Inh: true, Relpersistence: "p"},
		TableElts: []*pg.Node{{Node: &pg.Node_Constraint{Constraint: con}}}}
	steps := p.rewriteStep(&pg.Node{Node: &pg.Node_CreateStmt{CreateStmt: cs}})
	if len(steps) != 1 {
		return "", false
	}
	text := steps[0].SQL
	open, end := strings.IndexByte(text, '('), strings.LastIndexByte(text, ')')
	if open < 0 || end <= open {
		return "", false
	}
	return strings.TrimSpace(text[open+1 : end]), true
}

// columnConstraints reports whether ADD COLUMN gives the column a
// constraint other than a default, which DuckDB's ADD COLUMN refuses.
func columnConstraints(cmd *pg.AlterTableCmd) bool {
	for _, c := range cmd.Def.GetColumnDef().GetConstraints() {
		switch c.GetConstraint().GetContype() {
		case pg.ConstrType_CONSTR_DEFAULT, pg.ConstrType_CONSTR_NULL:
		default:
			return true
		}
	}
	return false
}

// addColumn splits ADD COLUMN with constraints into what DuckDB runs: the
// column with its default, then SET NOT NULL, a sequence default for an
// identity, and each key or check as a ConstraintStep on the column.
func (p *Planner) addColumn(at *pg.AlterTableStmt, cmd *pg.AlterTableCmd, d *ddlPlan) ([]plan.DDLStep, string) {
	col := cmd.Def.GetColumnDef()
	var kept []*pg.Node
	var later []plan.DDLStep
	var cons []*pg.Constraint
	for _, c := range col.Constraints {
		con := c.GetConstraint()
		switch con.GetContype() {
		case pg.ConstrType_CONSTR_DEFAULT, pg.ConstrType_CONSTR_NULL:
			kept = append(kept, c)
		case pg.ConstrType_CONSTR_NOTNULL:
			later = append(later, notNullStep(at, col.Colname))
		case pg.ConstrType_CONSTR_IDENTITY:
			d.steps = append(d.steps, p.identitySequence(at.Relation, col.Colname, con, d))
			kept = append(kept, pg.MakeDefaultConstraintNode(call([]string{"nextval"}, pg.MakeAConstStrNode(seqName(at.Relation, col.Colname, con), -1)), -1))
			later = append(later, notNullStep(at, col.Colname))
		case pg.ConstrType_CONSTR_PRIMARY, pg.ConstrType_CONSTR_UNIQUE:
			con.Keys = []*pg.Node{pg.MakeStrNode(col.Colname)}
			cons = append(cons, con)
		case pg.ConstrType_CONSTR_FOREIGN:
			con.FkAttrs = []*pg.Node{pg.MakeStrNode(col.Colname)}
			cons = append(cons, con)
		case pg.ConstrType_CONSTR_CHECK:
			cons = append(cons, con)
		default:
			return nil, "this column constraint in ADD COLUMN"
		}
	}
	col.Constraints = kept
	steps := append(p.alterStep(at, cmd), later...)
	for _, con := range cons {
		fkActions(con, d)
		kind := map[pg.ConstrType]string{pg.ConstrType_CONSTR_PRIMARY: "PRIMARY KEY", pg.ConstrType_CONSTR_UNIQUE: "UNIQUE",
			pg.ConstrType_CONSTR_FOREIGN: "FOREIGN KEY", pg.ConstrType_CONSTR_CHECK: "CHECK"}[con.Contype]
		s, feature := p.constraintStep(at, con, kind, d)
		if feature != "" {
			return nil, feature
		}
		steps = append(steps, s...)
	}
	return steps, ""
}
