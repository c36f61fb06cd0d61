package recommender

import (
	"encoding/binary"
	"strconv"
	"unsafe"
)

// A served recommender is decoded once from its artifact, whose bulk is
// the weights and the ratings as little-endian arrays. Decoding them into
// new arrays holds the artifact and its decoded copy at once, twice the
// artifact's size at the peak (760 MB for MovieLens-25M's 379 MB). On a
// little-endian 64-bit host those arrays are already the values in memory,
// so the shared decoders below make the model's and the ratings' slices
// views of the artifact's own bytes, each moved back by a few bytes first
// where its offset is not a multiple of its values' size.

// shareable reports whether this host's int is 64 bits and its values are
// little-endian, as the encodings' are.
func shareable() bool {
	return strconv.IntSize == 64 && binary.NativeEndian.Uint16([]byte{1, 0}) == 1
}

// UnmarshalShared is Unmarshal whose weights share data's memory rather
// than copy it, on hosts where they can (see shareable): the model then
// keeps all of data alive, and data's bytes are rearranged, so the caller
// must neither use data afterwards nor change the model's weights while
// it expects data unchanged.
func UnmarshalShared(data []byte) (*Model, error) {
	return unmarshal(&decoder{data: data, shared: shareable()})
}

// UnmarshalRatingsShared is UnmarshalRatings whose arrays share data's
// memory, as UnmarshalShared's weights do, with the same contract.
func UnmarshalRatingsShared(data []byte, users, items *IDs) (Ratings, error) {
	return unmarshalRatingsFrom(&decoder{data: data, shared: shareable()}, users, items)
}

// view returns the next n values of type T off the front of d as a slice
// of d's memory. Where their address is not a multiple of T's size, the
// bytes are first moved back by the remainder, which is less than 8:
// into bytes d has read, since every array of the encodings follows an
// 8-byte length or count or another array whose address has the same
// remainder and was moved back as far (their sizes are multiples of 8, or
// of 4 between arrays of 4-byte values). Nothing unread is overwritten.
func view[T float64 | float32 | int | int32](d *decoder, n int) []T {
	size := int(unsafe.Sizeof(*new(T)))
	if d.err == nil && (n < 0 || n > len(d.data)/size) {
		d.err = errShort
	}
	raw := d.bytes(size * n)
	if d.err != nil {
		return nil
	}
	if n == 0 {
		return []T{}
	}
	p := unsafe.Pointer(unsafe.SliceData(raw))
	if r := int(uintptr(p) % uintptr(size)); r != 0 {
		p = unsafe.Add(p, -r)
		copy(unsafe.Slice((*byte)(p), len(raw)), raw)
	}
	return unsafe.Slice((*T)(p), n)
}
