package series

// Kinds of time columns, as a source's time rows are read (as text) and
// as a GAT version stores them: integers count periods, a date or a
// timestamp steps by its spacing, and other columns are carried as text.
const (
	TimeInt       = "int"
	TimeDate      = "date"
	TimeTimestamp = "timestamp"
	TimeOther     = "other"
)
