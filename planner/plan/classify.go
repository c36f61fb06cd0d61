package plan

import "strings"

// Classify classifies the statement at the start of text: its Kind, its
// CommandComplete Tag and, for DML, whether it has a RETURNING clause. It
// skips leading whitespace and comments, ignores keyword case, and looks at
// no more of text than it needs; anything after the first top-level
// semicolon plays no part. The returned Statement has Text set to text and
// Offset 0.
//
// An unrecognised statement is KindOther with its first keyword,
// upper-cased, as Tag.
func Classify(text string) Statement {
	c := newCursor(text)
	s := Statement{Text: text}
	s.Kind, s.Tag = classify(c)
	switch s.Kind {
	case KindInsert, KindUpdate, KindDelete, KindMerge:
		s.Returning = c.findTopLevel("RETURNING")
	case KindSavepoint:
		s.Savepoint = savepointName(c, s.Tag)
	}
	return s
}

// savepointName reads the name a SAVEPOINT, RELEASE [SAVEPOINT] or
// ROLLBACK TO [SAVEPOINT] statement gives, its keywords up to the name
// already consumed, folded as Postgres folds identifiers.
func savepointName(c *cursor, tag string) string {
	if tag != "SAVEPOINT" {
		c.accept("SAVEPOINT")
	}
	switch t := c.next(); t.kind {
	case tokWord:
		return strings.ToLower(t.text)
	case tokIdent:
		if t.unterminated {
			return t.text[1:]
		}
		return strings.ReplaceAll(t.text[1:len(t.text)-1], `""`, `"`)
	}
	return ""
}

// classify classifies the statement at the cursor.
func classify(c *cursor) (Kind, string) {
	t := c.peek(0)
	switch {
	case t.kind == tokEOF || t.is(";"):
		return KindEmpty, ""
	case t.is("("):
		return KindQuery, "SELECT"
	case t.kind != tokWord:
		return KindOther, t.text
	}
	w := c.nextKeyword()
	if tag, ok := queryTag(w); ok {
		return KindQuery, tag
	}
	switch w {
	case "WITH":
		return classifyWith(c)
	case "INSERT":
		return KindInsert, "INSERT"
	case "UPDATE":
		return KindUpdate, "UPDATE"
	case "DELETE":
		return KindDelete, "DELETE"
	case "MERGE":
		return KindMerge, "MERGE"
	case "COPY":
		return KindCopy, "COPY"
	case "SET":
		return KindSet, "SET"
	case "RESET":
		return KindReset, "RESET"
	}
	if kind, tag, ok := classifyTransaction(w, c); ok {
		return kind, tag
	}
	return classifyUtility(w, c)
}

// queryTag returns the tag of a statement that starts with keyword w and
// returns rows, and false if w does not start one.
func queryTag(w string) (string, bool) {
	switch w {
	case "SELECT", "VALUES", "TABLE", "FROM", "PIVOT", "UNPIVOT",
		"DESCRIBE", "SUMMARIZE", "PRAGMA", "CALL":
		return "SELECT", true
	case "SHOW", "EXPLAIN":
		return w, true
	}
	return "", false
}

// classifyWith classifies WITH [RECURSIVE] cte [, …] by the statement
// after its common table expressions. Text it cannot follow is taken for a
// query, and the engine reports the error.
func classifyWith(c *cursor) (Kind, string) {
	c.accept("RECURSIVE")
	for skipCTE(c) {
		if !c.peek(0).is(",") {
			return classifyAfterWith(c)
		}
		c.next()
	}
	return KindQuery, "SELECT"
}

// skipCTE consumes one common table expression,
// name [(columns)] [USING KEY (columns)] AS [NOT] [MATERIALIZED] (body),
// and reports whether it was complete.
func skipCTE(c *cursor) bool {
	for t := c.next(); !t.isWord("AS"); t = c.next() {
		switch {
		case t.kind == tokEOF || t.is(";"):
			return false
		case t.is("("):
			if _, ok := c.skipGroup(); !ok {
				return false
			}
		}
	}
	c.accept("NOT")
	c.accept("MATERIALIZED")
	if !c.peek(0).is("(") {
		return false
	}
	c.next()
	_, ok := c.skipGroup()
	return ok
}

// classifyAfterWith classifies the statement that follows the common table
// expressions, skipping a SEARCH or CYCLE clause on the way.
func classifyAfterWith(c *cursor) (Kind, string) {
	for t := c.peek(0); t.kind != tokEOF && !t.is(";"); t = c.peek(0) {
		if t.is("(") {
			return KindQuery, "SELECT"
		}
		switch c.keyword() {
		case "SELECT", "VALUES", "TABLE", "FROM", "PIVOT", "UNPIVOT",
			"INSERT", "UPDATE", "DELETE", "MERGE":
			return classify(c)
		}
		c.next()
	}
	return KindQuery, "SELECT"
}

// classifyTransaction classifies a transaction-control statement that
// starts with keyword w (already consumed). ok is false if w does not
// start one.
func classifyTransaction(w string, c *cursor) (kind Kind, tag string, ok bool) {
	switch w {
	case "BEGIN":
		return KindBegin, "BEGIN", true
	case "START":
		if c.accept("TRANSACTION") {
			return KindBegin, "BEGIN", true
		}
	case "COMMIT", "END":
		if w == "COMMIT" && c.accept("PREPARED") {
			return KindOther, "COMMIT PREPARED", true
		}
		return KindCommit, "COMMIT", true
	case "ROLLBACK", "ABORT":
		kind, tag = classifyRollback(c)
		return kind, tag, true
	case "SAVEPOINT", "RELEASE":
		return KindSavepoint, w, true
	}
	return KindOther, "", false
}

// classifyRollback classifies the rest of a ROLLBACK or ABORT statement:
// a transaction exit, ROLLBACK TO SAVEPOINT or ROLLBACK PREPARED.
func classifyRollback(c *cursor) (Kind, string) {
	if c.accept("PREPARED") {
		return KindOther, "ROLLBACK PREPARED"
	}
	if !c.accept("WORK") {
		c.accept("TRANSACTION")
	}
	if c.accept("TO") {
		return KindSavepoint, "ROLLBACK"
	}
	return KindRollback, "ROLLBACK"
}
