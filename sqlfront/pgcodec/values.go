package pgcodec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// StringAt returns the string at row i of a utf8, large_utf8 or
// string_view array, of a dictionary of strings (DuckDB's ENUM), or of an
// extension type stored as one of these; ok is false for an array of any
// other type. The string aliases arr's memory and must not outlive it.
// It is the one reading of Arrow strings that Mallard's packages share:
// pgcodec is free of cgo, so any of them may import it.
func StringAt(arr arrow.Array, i int) (s string, ok bool) {
	switch a := arr.(type) {
	case *array.String:
		return a.Value(i), true
	case *array.LargeString:
		return a.Value(i), true
	case *array.StringView:
		return a.Value(i), true
	case *array.Dictionary:
		return StringAt(a.Dictionary(), a.GetValueIndex(i))
	case array.ExtensionArray:
		return StringAt(a.Storage(), i)
	}
	return "", false
}

// stringAt is StringAt for an array whose type the encoder chose it for,
// which must be one of strings.
func stringAt(arr arrow.Array, i int) string {
	s, ok := StringAt(arr, i)
	if !ok {
		unexpected(arr, "a string")
	}
	return s
}

// boolAt returns the boolean at row i of a boolean array, or of the int8
// array DuckDB sends a BOOLEAN as under arrow_lossless_conversion (arrow.bool8
// at the top level, plain int8 inside lists and structs).
func boolAt(arr arrow.Array, i int) bool {
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return a.Value(i) != 0
	case array.ExtensionArray:
		return boolAt(a.Storage(), i)
	}
	unexpected(arr, "boolean or int8")
	return false
}

// bytesAt returns the bytes at row i of a binary, large_binary,
// binary_view or fixed_size_binary array. The result aliases arr's memory.
func bytesAt(arr arrow.Array, i int) []byte {
	switch a := arr.(type) {
	case *array.Binary:
		return a.Value(i)
	case *array.LargeBinary:
		return a.Value(i)
	case *array.BinaryView:
		return a.Value(i)
	case *array.FixedSizeBinary:
		return a.Value(i)
	case array.ExtensionArray:
		return bytesAt(a.Storage(), i)
	}
	unexpected(arr, "binary")
	return nil
}

// anyText returns the text of row i of an array of a type pgcodec does not
// know (DuckDB's ANY or an invalid type): strings as they are, anything
// else as Arrow renders it. It allocates, and is only a fallback.
func anyText(arr arrow.Array, i int) string {
	switch arr.(type) {
	case *array.String, *array.LargeString, *array.StringView, *array.Dictionary:
		return stringAt(arr, i)
	}
	return arr.ValueStr(i)
}

// storageOf returns the storage array of an extension array, and any
// other array unchanged.
func storageOf(arr arrow.Array) arrow.Array {
	if e, ok := arr.(array.ExtensionArray); ok {
		return e.Storage()
	}
	return arr
}

// unexpected panics because arr's Arrow type is not one DuckDB produces
// for the column's DuckDB type: the caller paired the wrong encoder and
// array, which no input data can cause.
func unexpected(arr arrow.Array, want string) {
	panic(fmt.Sprintf("pgcodec: got Arrow %s, want %s", arr.DataType(), want))
}
