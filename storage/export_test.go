package storage

// SetSmallChunk sets the row count up to which chunks are built in Go
// (see smallChunk) until the test ends.
func SetSmallChunk(t interface{ Cleanup(func()) }, n int) {
	old := smallChunk
	smallChunk = n
	t.Cleanup(func() { smallChunk = old })
}

// BuiltInGo reports whether rows builds its small chunks in Go.
func BuiltInGo(rows *Rows) bool { return rows.direct }
