package storage

import (
	"context"
	"fmt"
)

// MemoryUse is what DuckDB uses now for one tag of duckdb_memory() (BASE_TABLE,
// HASH_TABLE, ...): memory and temporary storage, in bytes.
type MemoryUse struct {
	Tag               string
	Memory, Temporary int64
}

// MemoryUse reads duckdb_memory(): one entry per tag.
func (d *DB) MemoryUse(ctx context.Context) ([]MemoryUse, error) {
	rows, err := d.SQL().QueryContext(ctx, "SELECT tag, memory_usage_bytes, temporary_storage_bytes FROM duckdb_memory()")
	if err != nil {
		return nil, fmt.Errorf("read duckdb_memory(): %w", err)
	}
	defer rows.Close()
	var out []MemoryUse
	for rows.Next() {
		var u MemoryUse
		if err := rows.Scan(&u.Tag, &u.Memory, &u.Temporary); err != nil {
			return nil, fmt.Errorf("read duckdb_memory(): %w", err)
		}
		out = append(out, u)
	}
	return out, rows.Err()
}
