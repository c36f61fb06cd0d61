package storage

/*
#include "pgtypes.h"
*/
import "C"

import (
	"fmt"

	"github.com/duckdb/duckdb-go/v2/mapping"
)

// registerByteaCasts makes a string convert to a BLOB as Postgres converts
// text to bytea: '\xdeadbeef' is four bytes, as a Postgres client and
// pg_dump --inserts mean it, where DuckDB's own cast reads one escaped byte
// followed by the letters "adbeef". The cast replaces DuckDB's for every
// conversion of a VARCHAR to a BLOB: a string constant stored in or compared
// with a bytea column, an explicit cast, and COPY. A blob written in
// DuckDB's escape form ('\xDE\xAD') is thus an error, as it is in Postgres.
// The cast back prints Postgres' hex form, so that what DuckDB writes as
// text (COPY TO a file, EXPORT DATABASE, b::text) reads back the same.
// DuckDB keeps the casts for as long as the instance lives; registering
// them again only adds identical ones.
func registerByteaCasts(conn mapping.Connection, varchar mapping.LogicalType) error {
	blob := mapping.CreateLogicalType(mapping.TypeBlob)
	defer mapping.DestroyLogicalType(&blob)
	if C.mallard_register_bytea_casts(C.duckdb_connection(conn.Ptr), C.duckdb_logical_type(varchar.Ptr), C.duckdb_logical_type(blob.Ptr)) != 0 {
		return fmt.Errorf("register the bytea casts: DuckDB refused them")
	}
	return nil
}
