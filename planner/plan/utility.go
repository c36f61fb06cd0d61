package plan

// classifyUtility classifies a statement that starts with keyword w
// (already consumed) and is neither a query, DML, COPY, SET, RESET nor
// transaction control.
func classifyUtility(w string, c *cursor) (Kind, string) {
	switch w {
	case "CREATE":
		return KindDDL, createTag(c)
	case "DROP", "ALTER":
		return KindDDL, objectTag(w, c)
	case "TRUNCATE":
		return KindDDL, "TRUNCATE TABLE"
	case "COMMENT", "ATTACH", "DETACH", "CHECKPOINT", "VACUUM", "LOAD",
		"INSTALL", "EXPORT", "IMPORT", "USE", "DEALLOCATE", "GRANT", "REVOKE":
		return KindDDL, w
	case "ANALYZE", "ANALYSE":
		return KindDDL, "ANALYZE"
	case "FORCE":
		if next := c.keyword(); next == "CHECKPOINT" || next == "INSTALL" {
			return KindDDL, next
		}
	case "PREPARE":
		if c.accept("TRANSACTION") {
			return KindOther, "PREPARE TRANSACTION"
		}
		return KindDDL, "PREPARE"
	case "DISCARD":
		return KindDDL, discardTag(c)
	}
	return KindOther, w
}

// createTag returns the tag of a CREATE statement whose first keyword has
// been consumed. CREATE TABLE … AS and CREATE MATERIALIZED VIEW complete
// with "SELECT", to which the server appends the row count, as in Postgres.
func createTag(c *cursor) string {
	switch tag := objectTag("CREATE", c); tag {
	case "CREATE TABLE":
		if c.findTopLevel("AS") {
			return "SELECT"
		}
		return tag
	case "CREATE MATERIALIZED VIEW":
		return "SELECT"
	default:
		return tag
	}
}

// objectTag returns verb followed by the kind of object named next, such
// as "DROP TABLE", skipping modifiers such as OR REPLACE, TEMPORARY and
// UNIQUE. A DuckDB MACRO is a FUNCTION to Postgres.
func objectTag(verb string, c *cursor) string {
	for isObjectModifier(c.keyword()) {
		c.next()
	}
	object := c.nextKeyword()
	switch object {
	case "":
		return verb
	case "MACRO":
		c.accept("TABLE")
		object = "FUNCTION"
	case "MATERIALIZED", "FOREIGN":
		if next := c.nextKeyword(); next != "" {
			object += " " + next
		}
	}
	return verb + " " + object
}

// isObjectModifier reports whether keyword w can come between CREATE,
// DROP or ALTER and the kind of object without changing the tag.
func isObjectModifier(w string) bool {
	switch w {
	case "OR", "REPLACE", "TEMP", "TEMPORARY", "LOCAL", "GLOBAL", "UNLOGGED",
		"UNIQUE", "PERSISTENT", "RECURSIVE", "TRUSTED", "PROCEDURAL":
		return true
	}
	return false
}

// discardTag returns the tag of a DISCARD statement whose first keyword
// has been consumed: "DISCARD ALL", "DISCARD PLANS", "DISCARD SEQUENCES"
// or "DISCARD TEMP".
func discardTag(c *cursor) string {
	switch w := c.nextKeyword(); w {
	case "":
		return "DISCARD"
	case "TEMPORARY":
		return "DISCARD TEMP"
	default:
		return "DISCARD " + w
	}
}
