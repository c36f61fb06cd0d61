package pgcodec

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
)

// bitString is a DuckDB BIT value in DuckDB's layout: the first byte
// counts the padding bits that precede the value in the bytes after it,
// which hold the bits most significant first ('101' is \x05\xfd).
type bitString []byte

// len returns the number of bits, or -1 if b is malformed.
func (b bitString) len() int {
	if len(b) == 0 || int(b[0]) > 8*(len(b)-1) {
		return -1
	}
	return 8*(len(b)-1) - int(b[0])
}

// bit returns bit k, counting from 0 at the most significant end.
func (b bitString) bit(k int) byte {
	k += int(b[0])
	return b[1+k/8] >> (7 - k%8) & 1
}

// textBit encodes BIT as Postgres prints varbit: one '0' or '1' per bit.
// A malformed value, which DuckDB never produces, is sent as empty.
func textBit(dst []byte, arr arrow.Array, i int) []byte {
	b := bitString(bytesAt(arr, i))
	for k := range max(b.len(), 0) {
		dst = append(dst, '0'+b.bit(k))
	}
	return dst
}

// binaryBit encodes BIT in Postgres' binary varbit format: int32 bit
// count, then the bits most significant first, zero-padded at the end.
func binaryBit(dst []byte, arr arrow.Array, i int) []byte {
	b := bitString(bytesAt(arr, i))
	n := max(b.len(), 0)
	dst = binary.BigEndian.AppendUint32(dst, uint32(n))
	var acc byte
	for k := range n {
		acc |= b.bit(k) << (7 - k%8)
		if k%8 == 7 || k == n-1 {
			dst, acc = append(dst, acc), 0
		}
	}
	return dst
}
