//go:build duckdb_arrow

package functions

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
)

// spillPattern names the files a source's feature rows are spilled to.
const spillPattern = "mallard-rows-*"

// spillRows are a source's feature columns as read, in a temporary file
// rather than in memory: one record of float64s per row, in the order
// the rows were read, each feature in the order of layout (a number,
// NaN when NULL; a text as the index of its category in levels; an
// image's values, channel first). Training reads the records of a batch
// with ReadAt, so that memory holds a batch, not the table.
//
// The file is removed from its directory as soon as it is created, so
// that nothing is left behind even by a server that is killed; its space
// is freed when Close closes it. Table may be called by several
// goroutines at once; the methods that write may not.
type spillRows struct {
	fn      string // the function reading, for messages
	f       *os.File
	removed bool // from its directory, when created
	w       *bufio.Writer
	layout  []clsFeature
	shape   []int
	width   int // float64s per record
	n       int
	// levels and index are each text feature's categories in the order
	// first read, by the feature's position in layout; over marks those
	// with more than limit categories, whose later values are not kept.
	levels map[int][]string
	index  map[int]map[string]int
	over   map[int]bool
	limit  int
	// dropped are the features left out after reading (see drop).
	dropped map[string]bool
	// rec and buf are appendPiece's buffers: a piece's records as
	// float64s and as bytes.
	rec []float64
	buf []byte
}

// newSpillRows creates the file for cols' features in dir ("" is the
// system's temporary directory) for function fn; categories past limit
// are not kept.
func newSpillRows(fn, dir string, cols clsColumns, limit int) (*spillRows, error) {
	f, err := os.CreateTemp(dir, spillPattern)
	if err != nil {
		return nil, fmt.Errorf("create the file rows are spilled to: %w", err)
	}
	// Unlinked now, the file lives until it is closed and no longer: a
	// crash cannot leave it behind. Where an open file cannot be
	// removed, Close removes it.
	s := &spillRows{fn: fn, f: f, removed: os.Remove(f.Name()) == nil, w: bufio.NewWriterSize(f, 1<<20), layout: slices.Clone(cols.Features), shape: cols.Shape,
		levels: map[int][]string{}, index: map[int]map[string]int{}, over: map[int]bool{}, limit: limit, dropped: map[string]bool{}}
	for k, ft := range s.layout {
		s.width += s.featureWidth(ft)
		if ft.Kind == featCategorical {
			s.index[k] = map[string]int{}
		}
	}
	return s, nil
}

// featureWidth is the number of values feature f takes in a record.
func (s *spillRows) featureWidth(f clsFeature) int {
	if f.Kind == featImage {
		return s.shape[0] * s.shape[1] * s.shape[2]
	}
	return 1
}

// RecordBytes is the size of one row's record.
func (s *spillRows) RecordBytes() int { return 8 * s.width }

// Close closes the file, which frees its space, and removes it if it
// could not be removed when created.
func (s *spillRows) Close() error {
	err := s.f.Close()
	if !s.removed {
		os.Remove(s.f.Name())
	}
	return err
}

// write appends the records vals of rows rows to the file.
func (s *spillRows) write(vals []float64, rows int) error {
	s.buf = slices.Grow(s.buf[:0], 8*len(vals))[:8*len(vals)]
	for i, v := range vals {
		binary.LittleEndian.PutUint64(s.buf[8*i:], math.Float64bits(v))
	}
	if _, err := s.w.Write(s.buf); err != nil {
		return spillWriteError(s.fn, err)
	}
	s.n += rows
	return nil
}

// flush writes what is buffered; Table reads only flushed records.
func (s *spillRows) flush() error {
	if err := s.w.Flush(); err != nil {
		return spillWriteError(s.fn, err)
	}
	return nil
}

// spillWriteError is a failed write to the spill file (a full disk) as
// 58030.
func spillWriteError(fn string, err error) error {
	return sqlstate.New(sqlstate.IOError, "%s: write the rows' features to a temporary file: %v", fn, err).
		WithHint("Free space in the server's temporary directory ($TMPDIR, or the sandbox's spool directory); the file takes 8 bytes per feature value and row.")
}

// category is the index of text v of the feature at layout position k,
// adding it when new; -1 once the feature has more than limit.
func (s *spillRows) category(k int, v string) float64 {
	if i, ok := s.index[k][v]; ok {
		return float64(i)
	}
	if len(s.levels[k]) >= s.limit {
		s.over[k] = true
		return -1
	}
	s.index[k][v] = len(s.levels[k])
	s.levels[k] = append(s.levels[k], v)
	return float64(len(s.levels[k]) - 1)
}

// drop leaves the features named out of every Table.
func (s *spillRows) drop(names []string) {
	for _, n := range names {
		s.dropped[n] = true
	}
}

// Len is the number of rows written.
func (s *spillRows) Len() int { return s.n }

// Table reads the records of rows idx, in that order: features as the
// model takes them (numeric and text columns in layout order, or the
// image), without the dropped ones. Runs of consecutive rows are read
// with one ReadAt each.
func (s *spillRows) Table(idx []int) (*classifier.Table, error) {
	vals, err := s.records(idx)
	if err != nil {
		return nil, err
	}
	t := newFeatureTable(clsColumns{Features: s.kept(), Shape: s.shape})
	num, cat, off := 0, 0, 0
	for k, f := range s.layout {
		w := s.featureWidth(f)
		if s.dropped[f.Name] {
			off += w
			continue
		}
		switch f.Kind {
		case featNumeric:
			col := make([]float64, len(idx))
			for i := range idx {
				col[i] = vals[i*s.width+off]
			}
			t.Numeric[num].Values = col
			num++
		case featCategorical:
			col := make([]string, len(idx))
			for i := range idx {
				if c := int(vals[i*s.width+off]); c >= 0 {
					col[i] = s.levels[k][c]
				}
			}
			t.Categorical[cat].Values = col
			cat++
		case featImage:
			t.Image.Pixels = make([][]float64, len(idx))
			for i := range idx {
				t.Image.Pixels[i] = vals[i*s.width+off : i*s.width+off+w : i*s.width+off+w]
			}
		}
		off += w
	}
	return t, nil
}

// kept is the layout less the dropped features.
func (s *spillRows) kept() []clsFeature {
	return slices.DeleteFunc(slices.Clone(s.layout), func(f clsFeature) bool { return s.dropped[f.Name] })
}

// records reads the records of rows idx into one slice, record after
// record.
func (s *spillRows) records(idx []int) ([]float64, error) {
	size := 8 * s.width
	raw := make([]byte, len(idx)*size)
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && idx[j] == idx[j-1]+1 {
			j++
		}
		if idx[i] < 0 || idx[j-1] >= s.n {
			return nil, fmt.Errorf("spilled rows %d to %d of %d", idx[i], idx[j-1], s.n)
		}
		if _, err := s.f.ReadAt(raw[i*size:j*size], int64(idx[i])*int64(size)); err != nil && err != io.EOF {
			return nil, sqlstate.New(sqlstate.IOError, "%s: read the rows' features back from their temporary file: %v", s.fn, err)
		}
		i = j
	}
	vals := make([]float64, len(idx)*s.width)
	for i := range vals {
		vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return vals, nil
}

// spillPiece is the most rows appendBatch encodes at a time.
const spillPiece = 256

// appendBatch writes the features of batch b, read with selectList from
// its column first on, one record per row, spillPiece rows at a time: a
// NULL number is NaN, a NULL text the category "", and a NULL image, or
// one whose length is not the product of the shape, an error naming the
// row.
func (s *spillRows) appendBatch(a *featureAppender, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	for lo := 0; lo < n; lo += spillPiece {
		if err := s.appendPiece(a, b.NewSlice(int64(lo), int64(min(lo+spillPiece, n)))); err != nil {
			return err
		}
	}
	return nil
}

// appendPiece is appendBatch of a slice of a batch.
func (s *spillRows) appendPiece(a *featureAppender, b arrow.RecordBatch) error {
	defer b.Release()
	n := int(b.NumRows())
	s.rec = slices.Grow(s.rec[:0], n*s.width)[:n*s.width]
	rec, off := s.rec, 0
	for k, f := range s.layout {
		arr := b.Column(a.first + k)
		switch f.Kind {
		case featNumeric:
			vals, valid := floats(arr)
			for r := range n {
				v := vals[r]
				if !valid(r) {
					v = math.NaN()
				}
				rec[r*s.width+off] = v
			}
		case featCategorical:
			texts := textValues(arr)
			for r := range n {
				rec[r*s.width+off] = s.category(k, texts(r))
			}
		case featImage:
			if err := a.images(f, arr, n, s.shape, func(r int, px []float64) { copy(rec[r*s.width+off:], px) }); err != nil {
				return err
			}
		}
		off += s.featureWidth(f)
	}
	a.rows += n
	return s.write(rec, n)
}
