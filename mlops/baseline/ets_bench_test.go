package baseline_test

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/mlops/series"
)

// projectSet is one of the project's data sets as the forecasting study
// rescales it, with its training rows and detected season.
type projectSet struct {
	name          string
	m             series.Matrix
	train, season int
}

// projectSets loads the unemployment counts the repository ships
// (signed-log, z-scored with the statistics of the first 70 % of rows)
// and, with weather, the Seattle and New York weather of the vega data
// beside the checkout (z-scored per series on the first 70 %), as bench
// accuracy does, with the season DetectSeason finds on the training rows.
func projectSets(tb testing.TB, weather bool) []projectSet {
	un := readCSV(tb, filepath.Join("..", "..", "examples", "data", "unemployment-across-industries.csv"))
	unemployment := pivot(un, 0, func(r []string) string { return r[1] + fmt.Sprintf("%02s", r[2]) }, []int{3})
	sets := []projectSet{{name: "unemployment", m: unemployment}}
	if weather {
		w := readCSV(tb, filepath.Join("..", "..", "..", "shared", "data", "vega", "weather.csv"))
		sets = append(sets, projectSet{name: "weather", m: pivot(w, 0, func(r []string) string { return r[1] }, []int{2, 3, 4, 5})})
	}
	for i := range sets {
		s := &sets[i]
		s.train = int(math.Floor(0.7 * float64(s.m.T)))
		if s.name == "unemployment" {
			var mom scale.Moments
			for _, v := range s.m.Values[:s.train*s.m.N] {
				mom.Add(scale.SignedLog(v))
			}
			for j, v := range s.m.Values {
				s.m.Values[j] = (scale.SignedLog(v) - mom.Mean) / mom.Std()
			}
		} else {
			zscoreColumns(s.m, s.train)
		}
		s.season, _ = baseline.DetectSeason(s.m, s.train, baseline.SeasonCandidates())
	}
	return sets
}

// readCSV reads a CSV file without its header.
func readCSV(tb testing.TB, path string) [][]string {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	return recs[1:]
}

// pivot makes a time x series matrix of long records: the series are
// column key's values (sorted) times the value columns, the times those
// of time (sorted).
func pivot(recs [][]string, key int, time func([]string) string, values []int) series.Matrix {
	keys, times := map[string]int{}, map[string]int{}
	for _, r := range recs {
		keys[r[key]], times[time(r)] = 0, 0
	}
	index := func(set map[string]int) {
		names := make([]string, 0, len(set))
		for k := range set {
			names = append(names, k)
		}
		sort.Strings(names)
		for i, k := range names {
			set[k] = i
		}
	}
	index(keys)
	index(times)
	n := len(keys) * len(values)
	m := series.Matrix{T: len(times), N: n, Values: make([]float64, len(times)*n)}
	for _, r := range recs {
		for k, c := range values {
			v, _ := strconv.ParseFloat(r[c], 64)
			m.Values[times[time(r)]*n+keys[r[key]]*len(values)+k] = v
		}
	}
	return m
}

// zscoreColumns standardises each series with the mean and (population)
// standard deviation of its first rows values.
func zscoreColumns(m series.Matrix, rows int) {
	for n := range m.N {
		var sum, sq float64
		for t := range rows {
			sum += m.At(t, n)
		}
		mu := sum / float64(rows)
		for t := range rows {
			sq += (m.At(t, n) - mu) * (m.At(t, n) - mu)
		}
		sd := math.Sqrt(sq / float64(rows))
		for t := range m.T {
			m.Values[t*m.N+n] = (m.At(t, n) - mu) / sd
		}
	}
}

// rETS is forecast::ets on one series: its form, one-step test MSE and
// fit time, elapsed and CPU.
type rETS struct {
	form     string
	mse      float64
	fit, cpu time.Duration
}

// runRETS runs testdata/ets_onestep.R on every series of s through
// Rscript.
func runRETS(tb testing.TB, s projectSet) []rETS {
	var buf bytes.Buffer
	for t := range s.m.T {
		row := make([]string, s.m.N)
		for n, v := range s.m.Row(t) {
			row[n] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		buf.WriteString(strings.Join(row, ",") + "\n")
	}
	path := filepath.Join(tb.TempDir(), s.name+".csv")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		tb.Fatal(err)
	}
	out, err := exec.Command("Rscript", filepath.Join("testdata", "ets_onestep.R"), path,
		strconv.Itoa(s.season), strconv.Itoa(s.train)).Output()
	if err != nil {
		tb.Fatalf("Rscript ets_onestep.R: %v", err)
	}
	var res []rETS
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 {
			continue
		}
		mse, err1 := strconv.ParseFloat(f[1], 64)
		ms, err2 := strconv.ParseFloat(f[2], 64)
		cpu, err3 := strconv.ParseFloat(f[3], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			tb.Fatalf("Rscript ets_onestep.R: bad line %q", sc.Text())
		}
		res = append(res, rETS{strings.Join(f[4:], " "), mse,
			time.Duration(ms * float64(time.Millisecond)), time.Duration(cpu * float64(time.Millisecond))})
	}
	if len(res) != s.m.N {
		tb.Fatalf("Rscript ets_onestep.R gave %d series, want %d:\n%s", len(res), s.m.N, out)
	}
	return res
}

// fitProjectETS fits ets on the training rows of s.
func fitProjectETS(tb testing.TB, s projectSet) *baseline.ETS {
	train := make([]int, 0, s.train)
	for t := 1; t < s.train; t++ {
		train = append(train, t)
	}
	f, err := baseline.FitForecaster(baseline.KindETS, s.m, train, baseline.Options{Window: 1, Season: s.season})
	if err != nil {
		tb.Fatal(err)
	}
	return f.(*baseline.ETS)
}

// testRows are the rows after the training rows of s.
func testRows(s projectSet) []int {
	rows := make([]int, 0, s.m.T-s.train)
	for t := s.train; t < s.m.T; t++ {
		rows = append(rows, t)
	}
	return rows
}

// TestETSParityWithR fits ets on the project's data sets, rescaled as the
// forecasting study rescales them, beside forecast::ets through Rscript
// in the same run: on each data set the mean over its series of the
// one-step test MSE must be at most 1.02 times R's.
func TestETSParityWithR(t *testing.T) {
	for _, s := range projectSets(t, false) {
		r := runRETS(t, s)
		e := fitProjectETS(t, s)
		ours := baseline.MSEPerEntity(e, s.m, testRows(s))
		var sumOurs, sumR float64
		for n := range ours {
			sumOurs, sumR = sumOurs+ours[n], sumR+r[n].mse
			t.Logf("%s series %d: ours %s MSE %.5f, R %s MSE %.5f", s.name, n, e.Forms[n], ours[n], r[n].form, r[n].mse)
		}
		t.Logf("%s (season %d, %d training rows): mean one-step test MSE ours %.5f, R %.5f, ratio %.4f",
			s.name, s.season, s.train, sumOurs/float64(len(ours)), sumR/float64(len(ours)), sumOurs/sumR)
		if !(sumOurs <= 1.02*sumR) {
			t.Errorf("%s: mean one-step test MSE %.5f, over 1.02 times R's %.5f", s.name, sumOurs/float64(len(ours)), sumR/float64(len(ours)))
		}
	}
}

// BenchmarkETSAgainstR times fitting ets on each series of the project's
// data sets against forecast::ets in the same run (R's time is that of
// ets() alone, measured inside R) and reports the time per series of
// each and R's over ours, elapsed and in CPU time: the machine may be
// shared, and CPU time is what each fit itself costs.
func BenchmarkETSAgainstR(b *testing.B) {
	for _, s := range projectSets(b, true) {
		b.Run(s.name, func(b *testing.B) {
			r := runRETS(b, s)
			var rWall, rCPU time.Duration
			for _, x := range r {
				rWall, rCPU = rWall+x.fit, rCPU+x.cpu
			}
			b.ResetTimer()
			cpu0 := cpuTime(b)
			for range b.N {
				fitProjectETS(b, s)
			}
			fits := time.Duration(b.N * s.m.N)
			wall, cpu := b.Elapsed()/fits, (cpuTime(b)-cpu0)/fits
			theirWall, theirCPU := rWall/time.Duration(s.m.N), rCPU/time.Duration(s.m.N)
			b.ReportMetric(float64(wall.Microseconds())/1000, "ms/series")
			b.ReportMetric(float64(theirWall)/float64(wall), "R/ours")
			b.ReportMetric(float64(theirCPU)/float64(cpu), "R/ours-cpu")
			b.Logf("%s (season %d, %d training rows, %d series): a series takes ours %v elapsed %v CPU, R %v elapsed %v CPU; R/ours %.1f elapsed, %.1f CPU",
				s.name, s.season, s.train, s.m.N, wall.Round(time.Microsecond), cpu.Round(time.Microsecond),
				theirWall.Round(time.Microsecond), theirCPU.Round(time.Microsecond),
				float64(theirWall)/float64(wall), float64(theirCPU)/float64(cpu))
		})
	}
}

// cpuTime returns the CPU time, user and system, this process has used.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
