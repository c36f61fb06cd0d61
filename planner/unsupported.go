package planner

import pg "github.com/pganalyze/pg_query_go/v6"

// unsupported names the Postgres feature a statement needs that Mallard
// does not have, or "" if it has it. These are answered with 0A000 naming
// the feature instead of a DuckDB parser error.
func unsupported(n *pg.Node) string {
	switch n.Node.(type) {
	case *pg.Node_ListenStmt:
		return "LISTEN"
	case *pg.Node_UnlistenStmt:
		return "UNLISTEN"
	case *pg.Node_NotifyStmt:
		return "NOTIFY"
	case *pg.Node_CreateTrigStmt:
		return "triggers"
	case *pg.Node_CreatePolicyStmt, *pg.Node_AlterPolicyStmt:
		return "row-level security policies"
	case *pg.Node_GrantRoleStmt:
		return "GRANT and REVOKE of roles"
	case *pg.Node_CreateRoleStmt, *pg.Node_AlterRoleStmt, *pg.Node_DropRoleStmt:
		return "roles"
	case *pg.Node_ClusterStmt:
		return "CLUSTER"
	case *pg.Node_ReindexStmt:
		return "REINDEX"
	case *pg.Node_DoStmt:
		return "DO blocks"
	case *pg.Node_CreateFunctionStmt:
		return "CREATE FUNCTION in Postgres syntax (use DuckDB's CREATE MACRO)"
	case *pg.Node_CreatePlangStmt, *pg.Node_CreateEventTrigStmt, *pg.Node_RuleStmt:
		return "procedural languages, event triggers and rules"
	case *pg.Node_CreateForeignTableStmt, *pg.Node_CreateFdwStmt, *pg.Node_CreateForeignServerStmt:
		return "foreign data wrappers"
	case *pg.Node_CreatePublicationStmt, *pg.Node_CreateSubscriptionStmt:
		return "logical replication"
	case *pg.Node_CreateTableSpaceStmt:
		return "tablespaces"
	case *pg.Node_CreatedbStmt, *pg.Node_DropdbStmt:
		return "CREATE DATABASE and DROP DATABASE (one Mallard server serves one database)"
	case *pg.Node_AlterSystemStmt:
		return "ALTER SYSTEM"
	case *pg.Node_CreateExtensionStmt:
		return "CREATE EXTENSION"
	}
	return ""
}
