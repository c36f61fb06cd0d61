package functions

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// jsonText is a decoded JSON value written back as JSON, for messages,
// with lists spaced as SQL writes them: [16, 0].
func jsonText(v any) string {
	if list, ok := v.([]any); ok {
		parts := make([]string, len(list))
		for i, e := range list {
			parts[i] = jsonText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// decodeJSON reads an argument as the planner passes it: JSON text, or
// NULL when the call leaves it out.
func decodeJSON(text any) (any, error) {
	str, ok := text.(string)
	if !ok {
		return nil, nil
	}
	d := json.NewDecoder(strings.NewReader(str))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		// JSON has no infinities or NaN; DuckDB writes a non-finite double
		// as Infinity or NaN, which the range check then refuses by name.
		if f := strings.TrimSpace(str); isNonFinite(f) {
			return json.Number(f), nil
		}
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	return v, nil
}

// isNonFinite reports whether s spells an infinity or NaN.
func isNonFinite(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && (math.IsInf(f, 0) || math.IsNaN(f))
}

// convert turns a decoded JSON value into the Go type of kind k.
func convert(k kind, raw any) (any, bool) {
	switch k {
	case kindBool:
		b, ok := raw.(bool)
		return b, ok
	case kindText:
		s, ok := raw.(string)
		return s, ok
	case kindID:
		if s, ok := raw.(string); ok {
			return s, true
		}
		return convert(kindInt, raw)
	case kindTextList:
		if s, ok := raw.(string); ok {
			return []string{s}, true
		}
		list, ok := raw.([]any)
		if !ok {
			return nil, false
		}
		out := make([]string, len(list))
		for i, e := range list {
			if out[i], ok = e.(string); !ok {
				return nil, false
			}
		}
		return out, true
	case kindInt:
		n, ok := raw.(json.Number)
		if !ok {
			return nil, false
		}
		i, err := n.Int64()
		return i, err == nil
	case kindFloat:
		n, ok := raw.(json.Number)
		if !ok {
			return nil, false
		}
		f, err := n.Float64()
		return f, err == nil
	case kindIDList, kindIntList:
		return convertList(k, raw)
	}
	return nil, false
}

// convertList turns a decoded JSON list into a kindIDList or kindIntList.
func convertList(k kind, raw any) (any, bool) {
	list, ok := raw.([]any)
	if !ok {
		return nil, false
	}
	if k == kindIDList {
		out := make([]any, len(list))
		for i, e := range list {
			if out[i], ok = convert(kindID, e); !ok {
				return nil, false
			}
		}
		return out, true
	}
	if len(list) == 0 {
		return nil, false
	}
	out := make([]int, len(list))
	for i, e := range list {
		n, ok := convert(kindInt, e)
		if !ok || n.(int64) < 1 || n.(int64) > 1024 {
			return nil, false
		}
		out[i] = int(n.(int64))
	}
	return out, true
}

// describe names a DuckDB value's type for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return "text " + quote(x)
	case []any:
		return "a list"
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case json.Number:
		return "the number " + x.String()
	}
	return "an object"
}
