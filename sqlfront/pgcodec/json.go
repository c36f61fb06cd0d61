package pgcodec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqltype"
)

// jsonEncoder returns an encoder that renders a value of t as JSON text:
// STRUCT as an object, MAP as an object if its keys are strings and
// otherwise as an array of {"key": .., "value": ..}, LIST and ARRAY as
// arrays, UNION as its current member's value. Numbers are JSON numbers,
// JSON values are embedded as they are, and everything else (strings,
// temporal values, blobs, NaN and the infinities) is a JSON string holding
// the value's Postgres text. NULLs inside are null.
func jsonEncoder(t sqltype.Type) Encoder {
	switch t.ID {
	case sqltype.List, sqltype.Array:
		return jsonList(jsonEncoder(*t.Elem))
	case sqltype.Struct:
		return jsonStruct(t.Fields)
	case sqltype.Map:
		return jsonMap(t)
	case sqltype.Union:
		return jsonUnion(t.Fields)
	}
	return jsonScalar(t)
}

// jsonScalar returns the JSON encoder of a type that is not nested.
func jsonScalar(t sqltype.Type) Encoder {
	switch t.ID {
	case sqltype.Decimal:
		if !t.IsMoney() { // money's text, "$1.00", is a string
			return scalarTextEncoder(t)
		}
	case sqltype.Varchar:
		if t.IsJSON() {
			return textString
		}
		if t.IsJSONB() {
			return textJSONB
		}
	case sqltype.Boolean:
		return jsonBool
	case sqltype.TinyInt, sqltype.SmallInt, sqltype.Integer, sqltype.BigInt,
		sqltype.UTinyInt, sqltype.USmallInt, sqltype.UInteger, sqltype.UBigInt,
		sqltype.HugeInt, sqltype.UHugeInt, sqltype.BigNum:
		return scalarTextEncoder(t)
	case sqltype.Float, sqltype.Double:
		return jsonFloat(scalarTextEncoder(t))
	}
	return jsonQuoted(scalarTextEncoder(t))
}

func jsonBool(dst []byte, arr arrow.Array, i int) []byte {
	if boolAt(arr, i) {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// jsonFloat wraps a float's text encoder so that NaN and the infinities,
// which JSON numbers cannot spell, become strings.
func jsonFloat(enc Encoder) Encoder {
	return func(dst []byte, arr arrow.Array, i int) []byte {
		mark := len(dst)
		dst = enc(dst, arr, i)
		if c := dst[len(dst)-1]; c == 'N' || c == 'y' {
			return escapeJSON(dst, mark)
		}
		return dst
	}
}

// jsonQuoted wraps a text encoder so that its output becomes a JSON string.
func jsonQuoted(enc Encoder) Encoder {
	return func(dst []byte, arr arrow.Array, i int) []byte {
		mark := len(dst)
		return escapeJSON(enc(dst, arr, i), mark)
	}
}

// jsonValue appends the JSON of row j of values, null if it is NULL.
func jsonValue(dst []byte, enc Encoder, values arrow.Array, j int) []byte {
	if values.IsNull(j) {
		return append(dst, "null"...)
	}
	return enc(dst, values, j)
}

func jsonList(enc Encoder) Encoder {
	return func(dst []byte, arr arrow.Array, i int) []byte {
		values, start, end := listAt(arr, i)
		dst = append(dst, '[')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ',')
			}
			dst = jsonValue(dst, enc, values, j)
		}
		return append(dst, ']')
	}
}

func jsonStruct(fields []sqltype.Field) Encoder {
	keys := make([]string, len(fields))
	encs := make([]Encoder, len(fields))
	for k, f := range fields {
		keys[k] = jsonKey(f.Name)
		encs[k] = jsonEncoder(f.Type)
	}
	return func(dst []byte, arr arrow.Array, i int) []byte {
		s := arr.(*array.Struct)
		dst = append(dst, '{')
		for k := range encs {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, keys[k]...)
			dst = jsonValue(dst, encs[k], s.Field(k), i)
		}
		return append(dst, '}')
	}
}

// jsonKey returns the JSON text of an object key and its colon.
func jsonKey(name string) string {
	dst := escapeJSON([]byte(name), 0)
	return string(append(dst, ':'))
}

// jsonMap returns the JSON encoder of a MAP: an object if its keys are
// VARCHAR or ENUM, otherwise an array of {"key": k, "value": v} objects,
// since JSON object keys must be strings.
func jsonMap(t sqltype.Type) Encoder {
	keyEnc, valEnc := jsonEncoder(*t.Key), jsonEncoder(*t.Elem)
	asObject := t.Key.ID == sqltype.Enum || t.Key.ID == sqltype.Varchar && !t.Key.IsJSON()
	return func(dst []byte, arr arrow.Array, i int) []byte {
		m := arr.(*array.Map)
		keys, items := m.Keys(), m.Items()
		start, end := m.ValueOffsets(i)
		open, close := byte('['), byte(']')
		if asObject {
			open, close = '{', '}'
		}
		dst = append(dst, open)
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				dst = append(dst, ',')
			}
			dst = appendMapEntry(dst, asObject, keyEnc, valEnc, keys, items, j)
		}
		return append(dst, close)
	}
}

func appendMapEntry(dst []byte, asObject bool, keyEnc, valEnc Encoder, keys, items arrow.Array, j int) []byte {
	if asObject {
		dst = append(jsonValue(dst, keyEnc, keys, j), ':')
		return jsonValue(dst, valEnc, items, j)
	}
	dst = append(dst, `{"key":`...)
	dst = append(jsonValue(dst, keyEnc, keys, j), `,"value":`...)
	return append(jsonValue(dst, valEnc, items, j), '}')
}

// jsonUnion returns the JSON encoder of a UNION: the value of whichever
// member the row holds.
func jsonUnion(fields []sqltype.Field) Encoder {
	encs := make([]Encoder, len(fields))
	for k, f := range fields {
		encs[k] = jsonEncoder(f.Type)
	}
	return func(dst []byte, arr arrow.Array, i int) []byte {
		u, ok := arr.(array.Union)
		if !ok {
			unexpected(arr, "a union")
		}
		id := u.ChildID(i)
		j := i
		if d, ok := u.(*array.DenseUnion); ok {
			j = int(d.ValueOffset(i))
		}
		if id < 0 || id >= len(encs) {
			return append(dst, "null"...)
		}
		return jsonValue(dst, encs[id], u.Field(id), j)
	}
}

// escapeJSON turns the bytes at dst[mark:] into a JSON string in place:
// it adds the quotes and escapes quotes, backslashes and control
// characters, working backwards so that nothing is copied twice.
func escapeJSON(dst []byte, mark int) []byte {
	extra := 2
	for _, c := range dst[mark:] {
		if esc := jsonEscape(c); esc != "" {
			extra += len(esc) - 1
		}
	}
	end := len(dst)
	for range extra {
		dst = append(dst, 0)
	}
	w := len(dst) - 1
	dst[w] = '"'
	for r := end - 1; r >= mark; r-- {
		esc := jsonEscape(dst[r])
		if esc == "" {
			w--
			dst[w] = dst[r]
			continue
		}
		w -= len(esc)
		copy(dst[w:], esc)
	}
	dst[mark] = '"'
	return dst
}

// jsonEscape returns how byte c is spelled inside a JSON string, or "" if
// it stands for itself, as Postgres' escape_json spells it: quotes,
// backslashes and \b \f \n \r \t by their short escapes, other control
// characters as \u00XX. Bytes of multi-byte UTF-8 characters stand for
// themselves.
func jsonEscape(c byte) string {
	switch c {
	case '"':
		return `\"`
	case '\\':
		return `\\`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	if c < 0x20 {
		return `\u00` + hexDigits[c>>4:c>>4+1] + hexDigits[c&15:c&15+1]
	}
	return ""
}
