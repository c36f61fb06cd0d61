package classifier

import (
	"cmp"
	"slices"
	"strconv"
)

// ClassType is the label type a classifier's classes are written out in
// (Columns.TargetType): BOOLEAN or an integer type's SQL name; any other
// value, the zero value among them (models trained before the type was
// recorded), writes text. The model itself keeps its classes as text
// (the label cast to VARCHAR), which these types read back exactly.
type ClassType string

// ClassTypes are the label types whose classes are written out in that
// type; every other label (text, a decimal, a float) has text classes.
var ClassTypes = []ClassType{"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT"}

// Typed reports whether c writes classes in a type of their own.
func (c ClassType) Typed() bool { return slices.Contains(ClassTypes, c) }

// Value is class as the Go value a column of type c takes; a class that
// does not read as the type (none does, as the model's classes are the
// label's values cast to text) stays text.
func (c ClassType) Value(class string) any {
	if c == "BOOLEAN" {
		if b, err := strconv.ParseBool(class); err == nil {
			return b
		}
		return class
	}
	if !c.Typed() {
		return class
	}
	if c[0] == 'U' {
		u, err := strconv.ParseUint(class, 10, 64)
		if err != nil {
			return class
		}
		return map[ClassType]any{"UTINYINT": uint8(u), "USMALLINT": uint16(u), "UINTEGER": uint32(u), "UBIGINT": u}[c]
	}
	n, err := strconv.ParseInt(class, 10, 64)
	if err != nil {
		return class
	}
	return map[ClassType]any{"TINYINT": int8(n), "SMALLINT": int16(n), "INTEGER": int32(n), "BIGINT": n}[c]
}

// Compare orders two classes as their type does: numbers by value, text
// (and false before true) as strings.
func (c ClassType) Compare(a, b string) int {
	if c.Typed() && c != "BOOLEAN" {
		x, errX := strconv.ParseFloat(a, 64)
		y, errY := strconv.ParseFloat(b, 64)
		if errX == nil && errY == nil {
			return cmp.Or(cmp.Compare(x, y), cmp.Compare(a, b))
		}
	}
	return cmp.Compare(a, b)
}

// Sorted sorts keys in c's order.
func (c ClassType) Sorted(keys []string) []string {
	slices.SortFunc(keys, c.Compare)
	return keys
}
