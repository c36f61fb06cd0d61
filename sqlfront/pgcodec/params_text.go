package pgcodec

import (
	"strings"
)

// decodeText decodes a text-format parameter; see DecodeParam.
func decodeText(oid uint32, data []byte) (any, error) {
	if oid == OIDBytea {
		return decodeByteaText(data)
	}
	s, err := utf8Text(oid, data, textError)
	if err != nil {
		return nil, err
	}
	if elem, ok := arrayElems[oid]; ok {
		return decodeTextArray(oid, elem, s)
	}
	return convertTextScalar(oid, s)
}

// convertTextScalar rewrites the text of a scalar parameter where DuckDB
// would read Postgres' spelling differently; see DecodeParam.
func convertTextScalar(oid uint32, s string) (any, error) {
	switch oid {
	case OIDBool:
		b, ok := parseBool(s)
		if !ok {
			return nil, textError(oid, "%q", s)
		}
		if b {
			return "true", nil
		}
		return "false", nil
	case OIDDate, OIDTimestamp, OIDTimestampTZ:
		return moveBC(s), nil
	case OIDInterval:
		return dropPlusSigns(s), nil
	}
	return s, nil
}

// dropPlusSigns removes the "+" Postgres writes before a positive field
// that follows a negative one ("-1 days +02:00:00"), which DuckDB rejects;
// a field without a sign is positive in both.
func dropPlusSigns(s string) string {
	if !strings.Contains(s, "+") {
		return s
	}
	b := make([]byte, 0, len(s))
	for k := 0; k < len(s); k++ {
		atField := k == 0 || isArraySpace(s[k-1])
		if s[k] == '+' && atField && k+1 < len(s) && '0' <= s[k+1] && s[k+1] <= '9' {
			continue
		}
		b = append(b, s[k])
	}
	return string(b)
}

// parseBool reads a bool as Postgres' boolin does: surrounding white
// space ignored, case ignored, any unambiguous prefix of true, false, yes,
// no, on or off, and 1 or 0.
func parseBool(s string) (bool, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return false, false
	}
	switch {
	case strings.HasPrefix("true", s), strings.HasPrefix("yes", s), s == "1":
		return true, true
	case strings.HasPrefix("false", s), strings.HasPrefix("no", s), s == "0":
		return false, true
	case len(s) >= 2 && strings.HasPrefix("on", s):
		return true, true
	case len(s) >= 2 && strings.HasPrefix("off", s):
		return false, true
	}
	return false, false
}

// moveBC rewrites Postgres' trailing era marker, "0044-03-15 BC" or
// "0044-03-15 12:00:00+00 BC", to DuckDB's "0044-03-15 (BC)" and
// "0044-03-15 (BC) 12:00:00+00". Anything else is returned unchanged.
func moveBC(s string) string {
	t := strings.TrimSpace(s)
	if len(t) < 3 || !strings.EqualFold(t[len(t)-3:], " BC") {
		return s
	}
	t = strings.TrimSpace(t[:len(t)-3])
	date, rest, found := strings.Cut(t, " ")
	if !found {
		return date + " (BC)"
	}
	return date + " (BC) " + strings.TrimSpace(rest)
}

// decodeByteaText decodes Postgres' bytea text: hex ("\x" then pairs of
// hex digits, white space allowed between pairs) or escape format (bytes
// as themselves, "\\" for a backslash and "\ooo" octal for any byte).
func decodeByteaText(data []byte) ([]byte, error) {
	if len(data) >= 2 && data[0] == '\\' && data[1] == 'x' {
		return decodeByteaHex(data[2:])
	}
	out := make([]byte, 0, len(data))
	for k := 0; k < len(data); k++ {
		c := data[k]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		switch {
		case k+1 < len(data) && data[k+1] == '\\':
			out = append(out, '\\')
			k++
		case k+3 < len(data) && isOctal(data[k+1], '3') && isOctal(data[k+2], '7') && isOctal(data[k+3], '7'):
			out = append(out, (data[k+1]-'0')<<6|(data[k+2]-'0')<<3|(data[k+3]-'0'))
			k += 3
		default:
			return nil, textError(OIDBytea, "invalid escape sequence at byte %d", k)
		}
	}
	return out, nil
}

// isOctal reports whether c is an octal digit no greater than top.
func isOctal(c, top byte) bool { return c >= '0' && c <= top }

func decodeByteaHex(hex []byte) ([]byte, error) {
	out := make([]byte, 0, len(hex)/2)
	for k := 0; k < len(hex); k++ {
		if c := hex[k]; c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if k+1 >= len(hex) {
			return nil, textError(OIDBytea, "odd number of hex digits")
		}
		hi, lo := unhex(hex[k]), unhex(hex[k+1])
		if hi < 0 || lo < 0 {
			return nil, textError(OIDBytea, "invalid hex digit at byte %d", k+2)
		}
		out = append(out, byte(hi<<4|lo))
		k++
	}
	return out, nil
}
