package classifier

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// dataMagic opens an encoded Data.
var dataMagic = [8]byte{'M', 'L', 'D', 'A', 'T', 'A', '1', '\n'}

// maxDataValues bounds each count an encoded Data declares, so that a
// damaged file is refused before it is allocated.
const maxDataValues = 1 << 40

// WriteData writes d, whose rows hold dim inputs each, to w: the magic,
// the row count and the lengths of the inputs, Labels and Targets as
// little-endian int64s, then their values, the inputs and Targets as the
// bits of their float64s. The inputs are d.X or, without it, d.Examples
// gathered a chunk of rows at a time, so that writing holds a chunk, not
// the data set. ReadData reads it back to the bit, the inputs as X.
func WriteData(w io.Writer, d Data, dim int) error {
	b := bufio.NewWriterSize(w, 1<<16)
	b.Write(dataMagic[:])
	for _, n := range []int{d.Rows, d.Rows * dim, len(d.Labels), len(d.Targets)} {
		binary.Write(b, binary.LittleEndian, int64(n))
	}
	var buf [8]byte
	if err := eachInputChunk(d, dim, func(x []float64) {
		for _, v := range x {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			b.Write(buf[:])
		}
	}); err != nil {
		return err
	}
	for _, l := range d.Labels {
		binary.LittleEndian.PutUint64(buf[:], uint64(int64(l)))
		b.Write(buf[:])
	}
	for _, v := range d.Targets {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
		b.Write(buf[:])
	}
	return b.Flush()
}

// ReadData reads a Data that WriteData wrote.
func ReadData(r io.Reader) (Data, error) {
	b := bufio.NewReaderSize(r, 1<<16)
	var magic [8]byte
	if _, err := io.ReadFull(b, magic[:]); err != nil || magic != dataMagic {
		return Data{}, errors.New("read data: not an encoded classifier data set")
	}
	var counts [4]int64
	if err := binary.Read(b, binary.LittleEndian, &counts); err != nil {
		return Data{}, fmt.Errorf("read data: %w", err)
	}
	for _, n := range counts {
		if n < 0 || n > maxDataValues {
			return Data{}, fmt.Errorf("read data: a count of %d", n)
		}
	}
	d := Data{Rows: int(counts[0]), X: make([]float64, counts[1])}
	if err := readWords(b, len(d.X), func(i int, w uint64) { d.X[i] = math.Float64frombits(w) }); err != nil {
		return Data{}, err
	}
	if counts[2] > 0 {
		d.Labels = make([]int, counts[2])
		if err := readWords(b, len(d.Labels), func(i int, w uint64) { d.Labels[i] = int(int64(w)) }); err != nil {
			return Data{}, err
		}
	}
	if counts[3] > 0 {
		d.Targets = make([]float64, counts[3])
		if err := readWords(b, len(d.Targets), func(i int, w uint64) { d.Targets[i] = math.Float64frombits(w) }); err != nil {
			return Data{}, err
		}
	}
	return d, nil
}

// readWords reads n little-endian 64-bit words from r, a chunk at a
// time, handing each to set with its index.
func readWords(r io.Reader, n int, set func(i int, w uint64)) error {
	var chunk [8 << 10]byte
	for i := 0; i < n; {
		k := min(n-i, len(chunk)/8)
		if _, err := io.ReadFull(r, chunk[:8*k]); err != nil {
			return fmt.Errorf("read data: %w", err)
		}
		for j := range k {
			set(i+j, binary.LittleEndian.Uint64(chunk[8*j:]))
		}
		i += k
	}
	return nil
}

// eachInputChunk hands fn d's inputs in row order, dim to a row, a chunk
// of rows at a time: slices of d.X, or rows gathered from d.Examples.
func eachInputChunk(d Data, dim int, fn func(x []float64)) error {
	if d.Examples == nil {
		if len(d.X) != d.Rows*dim {
			return fmt.Errorf("write data: %d inputs for %d rows of %d", len(d.X), d.Rows, dim)
		}
		fn(d.X)
		return nil
	}
	const chunk = 256
	x := make([]float64, chunk*dim)
	rows := make([]int, 0, chunk)
	for first := 0; first < d.Rows; first += chunk {
		rows = rows[:0]
		for r := first; r < min(first+chunk, d.Rows); r++ {
			rows = append(rows, r)
		}
		if err := d.Examples.Gather(rows, x[:len(rows)*dim]); err != nil {
			return fmt.Errorf("write data: %w", err)
		}
		fn(x[:len(rows)*dim])
	}
	return nil
}
