package sqltype

// Result says what executing a statement produces.
type Result int

const (
	// ResultNone: the statement returns neither rows nor a count (DDL, SET, BEGIN).
	ResultNone Result = iota
	// ResultCount: the statement changes rows and reports how many (INSERT, UPDATE, DELETE, COPY).
	ResultCount
	// ResultRows: the statement returns rows (SELECT, RETURNING, SHOW, EXPLAIN, PRAGMA, CALL).
	ResultRows
)
