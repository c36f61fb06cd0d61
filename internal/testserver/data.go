package testserver

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// UnemploymentCSV is the absolute path of Mallard's example data set,
// examples/data/unemployment-across-industries.csv: 14 series of monthly
// counts, 2000 to 2010.
func UnemploymentCSV(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testserver: no source path to find the repository by")
	}
	csv := filepath.Join(filepath.Dir(file), "..", "..", "examples", "data", "unemployment-across-industries.csv")
	if _, err := os.Stat(csv); err != nil {
		t.Fatal(err)
	}
	return csv
}

// Unemployment are the statements that load UnemploymentCSV as table u,
// pivot it to w (year, month, then one column per series) and rescale w
// to uw, saving the scaler as u: the set-up of the tests that train a GAT
// on real data.
func Unemployment(t testing.TB) []string {
	t.Helper()
	return []string{
		"CREATE TABLE u AS SELECT * FROM read_csv('" + UnemploymentCSV(t) + "')",
		"CREATE TABLE w AS SELECT * FROM pivot_entity_time('u', entity := 'series', time := ['year', 'month'], value := 'count')",
		"CREATE TABLE uw AS SELECT * FROM rescale('w', save_as := 'u')",
	}
}
