package classifier

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/mallard/mallard/sqlstate"
)

// spillPattern names the files a source's feature rows are spilled to.
const spillPattern = "mallard-rows-*"

// Spill is a source's feature columns as read, in a temporary file
// rather than in memory: one record of float64s per row, in the order
// the rows were written, each feature in the order of its layout (a
// number, NaN when NULL; a text as the index of its category, see
// Category; an image's values, channel first). Training reads the
// records of a batch with ReadAt, so that memory holds a batch, not the
// table.
//
// The file is removed from its directory as soon as it is created, so
// that nothing is left behind even by a server that is killed; its space
// is freed when Close closes it. Table may be called by several
// goroutines at once; the methods that write may not.
type Spill struct {
	fn      string // the function reading, for messages
	f       *os.File
	removed bool // from its directory, when created
	w       *bufio.Writer
	layout  []Feature
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
	// dropped are the features left out after reading (see Drop).
	dropped map[string]bool
	buf     []byte // Write's
}

// NewSpill creates the file for features (an image's of shape) in dir
// ("" is the system's temporary directory) for function fn, whose name
// prefixes its errors; categories past limit are not kept.
func NewSpill(fn, dir string, features []Feature, shape []int, limit int) (*Spill, error) {
	f, err := os.CreateTemp(dir, spillPattern)
	if err != nil {
		return nil, fmt.Errorf("create the file rows are spilled to: %w", err)
	}
	// Unlinked now, the file lives until it is closed and no longer: a
	// crash cannot leave it behind. Where an open file cannot be
	// removed, Close removes it.
	s := &Spill{fn: fn, f: f, removed: os.Remove(f.Name()) == nil, w: bufio.NewWriterSize(f, 1<<20), layout: slices.Clone(features), shape: shape,
		levels: map[int][]string{}, index: map[int]map[string]int{}, over: map[int]bool{}, limit: limit, dropped: map[string]bool{}}
	for k, ft := range s.layout {
		s.width += s.FeatureWidth(ft)
		if ft.Kind == FeatureCategorical {
			s.index[k] = map[string]int{}
		}
	}
	return s, nil
}

// FeatureWidth is the number of values feature f takes in a record.
func (s *Spill) FeatureWidth(f Feature) int {
	if f.Kind == FeatureImage {
		return s.shape[0] * s.shape[1] * s.shape[2]
	}
	return 1
}

// Layout is the features of a record, in order, dropped ones included.
func (s *Spill) Layout() []Feature { return s.layout }

// Width is the number of values of one row's record.
func (s *Spill) Width() int { return s.width }

// RecordBytes is the size of one row's record.
func (s *Spill) RecordBytes() int { return 8 * s.width }

// Close closes the file, which frees its space, and removes it if it
// could not be removed when created.
func (s *Spill) Close() error {
	err := s.f.Close()
	if !s.removed {
		os.Remove(s.f.Name())
	}
	return err
}

// Write appends vals, the records of rows rows, to the file.
func (s *Spill) Write(vals []float64, rows int) error {
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

// Flush writes what is buffered; Table reads only flushed records.
func (s *Spill) Flush() error {
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

// Category is the index of text v of the feature at layout position k,
// as its record holds it, adding it when new; -1 once the feature has
// more than the limit.
func (s *Spill) Category(k int, v string) float64 {
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

// Over names the text features, in layout order, that had more
// categories than the limit.
func (s *Spill) Over() []string {
	var out []string
	for k, f := range s.layout {
		if s.over[k] {
			out = append(out, f.Name)
		}
	}
	return out
}

// Drop leaves the features named out of every Table.
func (s *Spill) Drop(names []string) {
	for _, n := range names {
		s.dropped[n] = true
	}
}

// Inputs is the number of inputs the kept features of rows (no image)
// make: one per numeric feature, one per category of a text feature.
func (s *Spill) Inputs() int {
	c := 0
	for k, f := range s.layout {
		switch {
		case s.dropped[f.Name]:
		case f.Kind == FeatureCategorical:
			c += len(s.levels[k])
		default:
			c++
		}
	}
	return c
}

// Len is the number of rows written.
func (s *Spill) Len() int { return s.n }
