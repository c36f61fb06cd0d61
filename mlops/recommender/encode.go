package recommender

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// The stored forms of a Model and of Ratings are binary: their arrays are
// the bulk of them (a model of 62,000 items has about 19 million weights,
// MovieLens-25M 25 million ratings), and as little-endian values they are
// exact, need no parsing and no second copy while being written.

var (
	modelMagic   = [4]byte{'M', 'R', 'M', '1'}
	ratingsMagic = [4]byte{'M', 'R', 'R', '1'}
	errShort     = errors.New("truncated")
)

// Marshal encodes the model for storage: a magic number, a JSON header of
// its configuration, scale and ids, then each weight tensor as its length
// and its little-endian float64 values.
func (m *Model) Marshal() ([]byte, error) {
	size, err := m.EncodedSize()
	if err != nil {
		return nil, err
	}
	return m.AppendBinary(make([]byte, 0, size))
}

// EncodedSize is the length of the model's encoding, so that a buffer can
// be made for it at once: growing one that is too small while the weights
// are appended copies hundreds of megabytes at MovieLens-25M scale and
// holds both copies until the next collection. Its JSON header, with
// every user and item id, can be megabytes itself.
func (m *Model) EncodedSize() (int, error) {
	header, err := json.Marshal(m)
	if err != nil {
		return 0, err
	}
	size := len(modelMagic) + 4 + len(header)
	for _, w := range m.Weights {
		size += 8 + 8*len(w)
	}
	return size, nil
}

// AppendBinary appends the model's encoding (see Marshal) to out.
func (m *Model) AppendBinary(out []byte) ([]byte, error) {
	header, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	out = append(out, modelMagic[:]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(header)))
	out = append(out, header...)
	for _, w := range m.Weights {
		out = binary.LittleEndian.AppendUint64(out, uint64(len(w)))
		for _, v := range w {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
		}
	}
	return out, nil
}

// Unmarshal decodes a model written by Marshal and checks its shape.
func Unmarshal(data []byte) (*Model, error) {
	return unmarshal(&decoder{data: data})
}

func unmarshal(d *decoder) (*Model, error) {
	m, err := unmarshalModel(d)
	if err != nil {
		return nil, fmt.Errorf("decode recommender model: %w", err)
	}
	return m, nil
}

func unmarshalModel(d *decoder) (*Model, error) {
	if !d.magic(modelMagic) {
		return nil, fmt.Errorf("not a recommender model")
	}
	var m Model
	header := d.bytes(int(d.uint32()))
	if d.err != nil {
		return nil, d.err
	}
	if err := json.Unmarshal(header, &m); err != nil {
		return nil, err
	}
	if err := m.Config.Validate(); err != nil {
		return nil, err
	}
	enc, dense, dec := shapes(m.Config, m.Items)
	for _, n := range []int{enc, dense, dec} {
		w := d.float64s(n)
		if d.err != nil {
			return nil, d.err
		}
		m.Weights = append(m.Weights, w)
	}
	if d.err == nil && len(d.data) > 0 {
		d.err = fmt.Errorf("%d bytes after the weights", len(d.data))
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := m.fits(m.Config, m.Items); err != nil {
		return nil, err
	}
	return &m, nil
}

// MarshalBinary encodes the ratings without their ids: a magic number, the
// numbers of users, items and ratings, then the row pointers, the items
// and the ratings as little-endian values.
func (r Ratings) MarshalBinary() ([]byte, error) {
	return r.AppendBinary(make([]byte, 0, r.EncodedSize()))
}

// EncodedSize is the length of the ratings' encoding.
func (r Ratings) EncodedSize() int { return 4 + 24 + 8*len(r.Ptr) + 8*len(r.Item) }

// AppendBinary appends the ratings' encoding (see MarshalBinary) to out.
func (r Ratings) AppendBinary(out []byte) ([]byte, error) {
	out = append(out, ratingsMagic[:]...)
	for _, n := range []int{r.Users, r.Items, len(r.Item)} {
		out = binary.LittleEndian.AppendUint64(out, uint64(n))
	}
	for _, p := range r.Ptr {
		out = binary.LittleEndian.AppendUint64(out, uint64(p))
	}
	for _, j := range r.Item {
		out = binary.LittleEndian.AppendUint32(out, uint32(j))
	}
	for _, v := range r.Value {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
	}
	return out, nil
}

// UnmarshalRatings decodes ratings written by MarshalBinary, gives them
// users and items as their ids (either may be nil), and checks them.
func UnmarshalRatings(data []byte, users, items *IDs) (Ratings, error) {
	return unmarshalRatingsFrom(&decoder{data: data}, users, items)
}

func unmarshalRatingsFrom(d *decoder, users, items *IDs) (Ratings, error) {
	r, err := unmarshalRatings(d)
	if err == nil && len(d.data) > 0 {
		err = fmt.Errorf("%d bytes after the ratings", len(d.data))
	}
	if err != nil {
		return Ratings{}, fmt.Errorf("decode ratings: %w", err)
	}
	r.UserIDs, r.ItemIDs = users, items
	if err := r.Validate(); err != nil {
		return Ratings{}, fmt.Errorf("decode ratings: %w", err)
	}
	return r, nil
}

func unmarshalRatings(d *decoder) (Ratings, error) {
	if !d.magic(ratingsMagic) {
		return Ratings{}, fmt.Errorf("not ratings")
	}
	users, items, n := d.uint64(), d.uint64(), d.uint64()
	if d.err != nil {
		return Ratings{}, d.err
	}
	// Bound the sizes by the data before allocating for them.
	if users > uint64(len(d.data))/8 || n > uint64(len(d.data))/8 || items > math.MaxInt32 {
		return Ratings{}, errShort
	}
	if d.shared {
		r := Ratings{Users: int(users), Items: int(items)}
		r.Ptr, r.Item, r.Value = view[int](d, int(users)+1), view[int32](d, int(n)), view[float32](d, int(n))
		return r, d.err
	}
	r := Ratings{Users: int(users), Items: int(items), Ptr: make([]int, users+1), Item: make([]int32, n), Value: make([]float32, n)}
	for i := range r.Ptr {
		r.Ptr[i] = int(d.uint64())
	}
	for i := range r.Item {
		r.Item[i] = int32(d.uint32())
	}
	for i := range r.Value {
		r.Value[i] = math.Float32frombits(d.uint32())
	}
	return r, d.err
}

// decoder reads little-endian values off the front of data; after the
// first read past its end, err is set and every read returns zero.
type decoder struct {
	data []byte
	err  error
	// shared is set where the decoded arrays may share data's memory
	// (see UnmarshalShared).
	shared bool
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.data) {
		d.err = errShort
		return nil
	}
	b := d.data[:n]
	d.data = d.data[n:]
	return b
}

func (d *decoder) magic(want [4]byte) bool { return string(d.bytes(4)) == string(want[:]) }

func (d *decoder) uint32() uint32 {
	if b := d.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) uint64() uint64 {
	if b := d.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// float64s reads a tensor of n values written as its length and values.
func (d *decoder) float64s(n int) Floats {
	if got := d.uint64(); d.err == nil && got != uint64(n) {
		d.err = fmt.Errorf("a tensor of %d values where %d belong", got, n)
	}
	if d.shared {
		return view[float64](d, n)
	}
	raw := d.bytes(8 * n)
	if d.err != nil {
		return nil
	}
	w := make(Floats, n)
	for i := range w {
		w[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return w
}
