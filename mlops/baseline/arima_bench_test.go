package baseline_test

import (
	"encoding/csv"
	"fmt"
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
)

// parityPanel is a set of series of equal length for BenchmarkARIMAParity.
type parityPanel struct {
	name   string
	period int
	names  []string
	series [][]float64
}

// readVega returns the records of a file of the vega data beside the
// checkout (the benchmark's larger sets; the tests read examples/data).
func readVega(tb testing.TB, name string) [][]string {
	return readCSV(tb, filepath.Join("..", "..", "..", "shared", "data", "vega", name))
}

// unemploymentPanel is the 14 industries' monthly unemployed counts.
func unemploymentPanel(tb testing.TB) parityPanel {
	bySeries := map[string]map[int]float64{}
	for _, r := range readVega(tb, "unemployment-across-industries.csv") {
		y, _ := strconv.Atoi(r[1])
		mo, _ := strconv.Atoi(r[2])
		v, _ := strconv.ParseFloat(r[3], 64)
		if bySeries[r[0]] == nil {
			bySeries[r[0]] = map[int]float64{}
		}
		bySeries[r[0]][y*12+mo] = v
	}
	return panelOf(tb, "unemployment", 12, bySeries)
}

// weatherPanel is the daily precipitation, temperatures and wind of
// Seattle and New York, without a season: the yearly one is 365 rows.
func weatherPanel(tb testing.TB) parityPanel {
	bySeries := map[string]map[int]float64{}
	for i, r := range readVega(tb, "weather.csv") {
		day, err := time.Parse("2006-01-02", r[1])
		if err != nil {
			tb.Fatalf("row %d: %v", i, err)
		}
		for j, measure := range []string{"precipitation", "temp_max", "temp_min", "wind"} {
			v, _ := strconv.ParseFloat(r[2+j], 64)
			key := r[0] + " " + measure
			if bySeries[key] == nil {
				bySeries[key] = map[int]float64{}
			}
			bySeries[key][int(day.Unix()/86400)] = v
		}
	}
	return panelOf(tb, "weather", 1, bySeries)
}

// panelOf orders each series by its time keys, which must be the same.
func panelOf(tb testing.TB, name string, period int, bySeries map[string]map[int]float64) parityPanel {
	p := parityPanel{name: name, period: period}
	for n := range bySeries {
		p.names = append(p.names, n)
	}
	sort.Strings(p.names)
	for _, n := range p.names {
		keys := make([]int, 0, len(bySeries[n]))
		for k := range bySeries[n] {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		y := make([]float64, len(keys))
		for i, k := range keys {
			y[i] = bySeries[n][k]
		}
		if len(p.series) > 0 && len(y) != len(p.series[0]) {
			tb.Fatalf("%s: series %s has %d rows, %s %d", name, n, len(y), p.names[0], len(p.series[0]))
		}
		p.series = append(p.series, y)
	}
	return p
}

// rOneStep runs testdata/arima_onestep.R on the panel and returns R's
// one-step test MSE, fitting seconds (elapsed and processor) and order per
// series.
func rOneStep(tb testing.TB, p parityPanel, train int) (mse, seconds, cpu []float64, orders []string) {
	dir := tb.TempDir()
	in, out := filepath.Join(dir, "in.csv"), filepath.Join(dir, "out.csv")
	var sb strings.Builder
	sb.WriteString(`"` + strings.Join(p.names, `","`) + `"` + "\n")
	for t := range p.series[0] {
		for n := range p.series {
			if n > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.FormatFloat(p.series[n][t], 'g', -1, 64))
		}
		sb.WriteByte('\n')
	}
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command("Rscript", filepath.Join("testdata", "arima_onestep.R"), in, strconv.Itoa(p.period), strconv.Itoa(train), out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("Rscript: %v\n%s", err, msg)
	}
	f, err := os.Open(out)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	for _, r := range recs[1:] {
		m, _ := strconv.ParseFloat(r[1], 64)
		s, _ := strconv.ParseFloat(r[2], 64)
		c, _ := strconv.ParseFloat(r[3], 64)
		mse, seconds, cpu, orders = append(mse, m), append(seconds, s), append(cpu, c), append(orders, r[4])
	}
	return mse, seconds, cpu, orders
}

// BenchmarkARIMAParity fits Mallard's arima and R's auto.arima on the
// first 70% of each series of the unemployment and weather panels and
// prints, per panel, the one-step test MSE of each (summed over the
// series, each relative to its R MSE so that no series dominates: the
// mean of ours/R's, and the ratio of the summed MSEs), and the fitting time per series of each and their
// ratio, measured in the same run, both as elapsed time and as processor
// time (user + system, which a machine shared with other work inflates
// less). Run it with
//
//	go test -run '^$' -bench BenchmarkARIMAParity -benchtime 1x ./mlops/baseline
func BenchmarkARIMAParity(b *testing.B) {
	for _, p := range []parityPanel{unemploymentPanel(b), weatherPanel(b)} {
		train := len(p.series[0]) * 7 / 10
		rMSE, rSeconds, rCPU, rOrders := rOneStep(b, p, train)
		var ours, oursCPU time.Duration
		var ratio, rTotal, rTotalCPU, sumOurs, sumR float64
		for n, y := range p.series {
			start, startCPU := time.Now(), processorTime(b)
			mse, md, err := baseline.ARIMAOneStepMSE(y, p.period, train)
			ours, oursCPU = ours+time.Since(start), oursCPU+processorTime(b)-startCPU
			if err != nil {
				b.Fatalf("%s %s: %v", p.name, p.names[n], err)
			}
			ratio += mse / rMSE[n]
			sumOurs, sumR = sumOurs+mse, sumR+rMSE[n]
			rTotal, rTotalCPU = rTotal+rSeconds[n], rTotalCPU+rCPU[n]
			fmt.Printf("%s %-28s ours %-22s MSE %.6g | R (%s) MSE %.6g | ratio %.4f\n", p.name, p.names[n],
				md.Order.String(p.period), mse, rOrders[n], rMSE[n], mse/rMSE[n])
		}
		k := float64(len(p.series))
		perOurs, perOursCPU := ours.Seconds()/k, oursCPU.Seconds()/k
		fmt.Printf("%s: %d series of %d rows, %d training: mean MSE ratio ours/R %.4f, of the summed MSEs %.4f\n",
			p.name, len(p.series), len(p.series[0]), train, ratio/k, sumOurs/sumR)
		fmt.Printf("%s: fit per series, elapsed: ours %.4fs, R %.4fs, %.1fx faster; processor time: ours %.4fs, R %.4fs, %.1fx faster\n",
			p.name, perOurs, rTotal/k, rTotal/k/perOurs, perOursCPU, rTotalCPU/k, rTotalCPU/k/perOursCPU)
	}
}

// processorTime is the user and system time this process has used.
func processorTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
