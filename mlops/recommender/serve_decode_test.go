package recommender_test

import (
	endian "encoding/binary"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/mallard/mallard/mlops/recommender"
)

// TestUnmarshalShared decodes a model and ratings whose encodings start at
// every offset from 0 to 7 bytes into a buffer, so that their arrays are
// misaligned each way, and checks them against the originals; then that
// every truncation fails without a panic.
func TestUnmarshalShared(t *testing.T) {
	train := shaped(2, 30, 50, 400)
	cfg := recommender.DefaultRankingConfig()
	cfg.Hidden = []int{6}
	m, err := recommender.InitialModel(cfg, train)
	if err != nil {
		t.Fatal(err)
	}
	model, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	ratings, err := train.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for off := range 8 {
		buf := at(model, off)
		got, err := recommender.UnmarshalShared(buf)
		if err != nil {
			t.Fatalf("offset %d: %v", off, err)
		}
		for k, w := range m.Weights {
			if !slices.Equal(got.Weights[k], w) {
				t.Fatalf("offset %d: weights %d differ", off, k)
			}
			if err := sharedAligned(got.Weights[k], buf); err != "" {
				t.Fatalf("offset %d: weights %d %s", off, k, err)
			}
		}
		buf = at(ratings, off)
		r, err := recommender.UnmarshalRatingsShared(buf, nil, nil)
		if err != nil {
			t.Fatalf("offset %d: %v", off, err)
		}
		if r.Users != train.Users || r.Items != train.Items || !slices.Equal(r.Ptr, train.Ptr) ||
			!slices.Equal(r.Item, train.Item) || !slices.Equal(r.Value, train.Value) {
			t.Fatalf("offset %d: ratings differ", off)
		}
		for name, err := range map[string]string{"Ptr": sharedAligned(r.Ptr, buf), "Item": sharedAligned(r.Item, buf),
			"Value": sharedAligned(r.Value, buf)} {
			if err != "" {
				t.Fatalf("offset %d: ratings' %s %s", off, name, err)
			}
		}
	}
	for n := range len(model) {
		if _, err := recommender.UnmarshalShared(at(model[:n], n%8)); err == nil {
			t.Fatalf("model cut to %d bytes decoded", n)
		}
	}
	for n := range len(ratings) {
		if _, err := recommender.UnmarshalRatingsShared(at(ratings[:n], n%8), nil, nil); err == nil {
			t.Fatalf("ratings cut to %d bytes decoded", n)
		}
	}
}

// sharedAligned is what is wrong with s, a slice decoded from buf: that it
// is not in buf's memory, or not at a multiple of its values' size.
func sharedAligned[T any](s []T, buf []byte) string {
	p, size := uintptr(unsafe.Pointer(unsafe.SliceData(s))), unsafe.Sizeof(*new(T))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	switch {
	case p < lo-8 || p+uintptr(len(s))*size > lo+uintptr(len(buf)):
		return "is not in the decoded buffer"
	case p%size != 0:
		return "is not aligned"
	}
	return ""
}

// at returns a copy of data that starts off bytes into a new buffer.
func at(data []byte, off int) []byte {
	buf := make([]byte, off+len(data))
	copy(buf[off:], data)
	return buf[off:]
}

// BenchmarkDecodeArtifact measures what decoding a served recommender
// costs in memory at a tenth of the MovieLens-25M shape (its 62,423
// items, 2.5 million ratings) for the default ranking network: with the
// artifact's bytes held as the registry holds them, the process's peak
// resident memory above its size before decoding (MB-peak), and what the
// decoded model and ratings hold once the artifact is dropped (MB-held).
// copied is Unmarshal and UnmarshalRatings, shared their Shared forms.
// Run each alone (-bench DecodeArtifact/shared, then /copied): the peak
// is the process's.
func BenchmarkDecodeArtifact(b *testing.B) {
	train, test := recommender.Split(shaped(1, 16254, 62423, 2500000), 0.1, 1)
	m, err := recommender.InitialModel(recommender.DefaultRankingConfig(), train)
	if err != nil {
		b.Fatal(err)
	}
	encoded, err := recommender.AppendArtifact(nil, []byte("{}"), m, train, test)
	if err != nil {
		b.Fatal(err)
	}
	m, train, test = nil, recommender.Ratings{}, recommender.Ratings{}
	for _, way := range []struct {
		name    string
		model   func([]byte) (*recommender.Model, error)
		ratings func([]byte, *recommender.IDs, *recommender.IDs) (recommender.Ratings, error)
	}{{"copied", recommender.Unmarshal, recommender.UnmarshalRatings}, {"shared", recommender.UnmarshalShared, recommender.UnmarshalRatingsShared}} {
		b.Run(way.name, func(b *testing.B) {
			var peak, held float64
			for b.Loop() {
				b.StopTimer()
				artifact := slices.Clone(encoded)
				before := settle(b)
				b.StartTimer()
				parts := artifactParts(artifact)
				m, err := way.model(parts[1])
				if err != nil {
					b.Fatal(err)
				}
				var rs [2]recommender.Ratings
				for i := range rs {
					if rs[i], err = way.ratings(parts[2+i], m.UserIDs, m.ItemIDs); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				peak = status(b, "VmHWM") - before
				artifact, parts = nil, nil
				held = settle(b) - before
				runtime.KeepAlive(m)
				runtime.KeepAlive(rs)
				b.StartTimer()
			}
			b.ReportMetric(peak, "MB-peak")
			b.ReportMetric(held+float64(len(encoded))/(1<<20), "MB-held")
		})
	}
}

// artifactParts splits an artifact (see recommender.AppendArtifact) into
// its header, model and ratings.
func artifactParts(data []byte) [][]byte {
	data = data[len(recommender.ArtifactMagic):]
	var parts [][]byte
	for range 4 {
		n := endian.LittleEndian.Uint64(data)
		parts, data = append(parts, data[8:8+n]), data[8+n:]
	}
	return parts
}

// settle collects the garbage, returns it to the system, resets the peak
// resident memory to the current and returns the current, in MB.
func settle(b *testing.B) float64 {
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("reset peak RSS: %v", err)
	}
	return status(b, "VmRSS")
}

// status is a field of /proc/self/status in MB.
func status(b *testing.B, field string) float64 {
	text, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(text), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	b.Fatalf("no %s in /proc/self/status", field)
	return 0
}
