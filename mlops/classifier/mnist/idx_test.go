package mnist_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/classifier/mnist"
)

// tiny is a hand-made IDX file: two 2 x 3 images of unsigned bytes.
var tiny = []byte{
	0, 0, 0x08, 3, // magic: unsigned bytes, 3 dimensions
	0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3, // 2 x 2 x 3
	0, 1, 2, 3, 4, 5,
	250, 251, 252, 253, 254, 255,
}

func gz(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadIDX(t *testing.T) {
	for name, file := range map[string][]byte{"plain": tiny, "gzipped": gz(t, tiny)} {
		dims, values, err := mnist.ReadIDX(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(dims, []int{2, 2, 3}) || !slices.Equal(values, tiny[16:]) {
			t.Errorf("%s: dims %v values %v", name, dims, values)
		}
	}
}

func TestReadIDXRejects(t *testing.T) {
	tests := map[string][]byte{
		"empty":     {},
		"magic":     append([]byte{1}, tiny[1:]...),
		"float":     append([]byte{0, 0, 0x0d}, tiny[3:]...),
		"truncated": tiny[:len(tiny)-1],
		"huge":      {0, 0, 8, 2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	}
	for name, file := range tests {
		if _, _, err := mnist.ReadIDX(bytes.NewReader(file)); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	labels := []byte{0, 0, 8, 1, 0, 0, 0, 2, 7, 3}
	for _, set := range []string{"train", "t10k"} {
		os.WriteFile(filepath.Join(dir, set+"-images-idx3-ubyte.gz"), gz(t, tiny), 0o600)
		os.WriteFile(filepath.Join(dir, set+"-labels-idx1-ubyte.gz"), gz(t, labels), 0o600)
	}
	train, test, err := mnist.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if train.Len() != 2 || test.Rows != 2 || test.Cols != 3 || train.Labels[1] != 3 || train.Pixels[6] != 250 {
		t.Errorf("train %+v test %+v", train, test)
	}
}
