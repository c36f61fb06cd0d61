package pgcodec

// appendUUID appends the canonical text of the 16-byte UUID b: lower-case
// hex in groups of 8-4-4-4-12.
func appendUUID(dst []byte, b []byte) []byte {
	for k, c := range b {
		if k == 4 || k == 6 || k == 8 || k == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}

// parseUUID parses a UUID's canonical text, upper- or lower-case, into u
// and reports whether s was one.
func parseUUID(u *[16]byte, s string) bool {
	if len(s) != 36 {
		return false
	}
	k := 0
	for j := 0; j < len(s); j++ {
		if j == 8 || j == 13 || j == 18 || j == 23 {
			if s[j] != '-' {
				return false
			}
			continue
		}
		hi, lo := unhex(s[j]), unhex(s[j+1])
		if hi < 0 || lo < 0 {
			return false
		}
		u[k] = byte(hi<<4 | lo)
		k, j = k+1, j+1
	}
	return true
}

// unhex returns the value of the hex digit c, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
