package baseline

import (
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// TestETSLikelihoodReference evaluates the likelihood at the parameters
// and initial states forecast::ets fitted to each reference series: it
// must be R's, -2*loglik, within 1e-8 relative. This checks the state
// equations and the likelihood apart from the search.
func TestETSLikelihoodReference(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "ets_reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var refs []struct {
		Name                    string
		Season                  int
		Y                       []float64
		Form                    string
		Alpha, Beta, Gamma, Phi float64
		InitState               []float64
		LogLik                  float64
	}
	if err := json.Unmarshal(data, &refs); err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		f, err := parseETSForm(r.Form)
		if err != nil {
			t.Fatal(err)
		}
		tg := &etsTarget{form: f, m: 1, y: r.Y}
		if f.season != 'N' {
			tg.m = r.Season
		}
		x := []float64{r.Alpha}
		for _, p := range []struct {
			has bool
			v   float64
		}{{f.trend, r.Beta}, {f.season != 'N', r.Gamma}, {f.damped, r.Phi}} {
			if p.has {
				x = append(x, p.v)
			}
		}
		// R's initial states: the level, the trend, then s1..sm, s1 the
		// latest; the search's vector leaves out sm, which is implied.
		x = append(x, r.InitState[:len(r.InitState)-min(1, tg.m-1)]...)
		if got, want := tg.lik(x), -2*r.LogLik; math.Abs(got-want) > 1e-8*math.Abs(want) {
			t.Errorf("%s %s: likelihood %v, R's %v", r.Name, r.Form, got, want)
		}
	}
}

// TestRootsWithin compares the Schur-Cohn test with the eigenvalues of
// the companion matrix on random polynomials of degree 2 to 25 whose
// largest root is not within 1e-6 of the radius.
func TestRootsWithin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for range 2000 {
		d := 2 + rng.IntN(24)
		c := make([]float64, d+1)
		for i := range c {
			c[i] = rng.NormFloat64() * math.Pow(0.8, float64(d-i))
		}
		c[d] = 1
		largest := largestRoot(t, c)
		if math.Abs(largest-1) < 1e-6 {
			continue
		}
		checked++
		if got, want := rootsWithin(c, 1+1e-10), largest < 1; got != want {
			t.Fatalf("degree %d: rootsWithin %v, largest root %v", d, got, largest)
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d polynomials checked", checked)
	}
	// A unit root, as every undamped form without a trend has, is within
	// the tolerance: (z-1)(z-0.5).
	if !rootsWithin([]float64{0.5, -1.5, 1}, 1+1e-10) {
		t.Error("rootsWithin refused a root at 1")
	}
}

// largestRoot returns the largest modulus of the roots of the monic
// polynomial c, the eigenvalues of its companion matrix.
func largestRoot(t *testing.T, c []float64) float64 {
	d := len(c) - 1
	a := mat.NewDense(d, d, nil)
	for i := range d {
		a.Set(0, i, -c[d-1-i])
		if i > 0 {
			a.Set(i, i-1, 1)
		}
	}
	var eig mat.Eigen
	if !eig.Factorize(a, mat.EigenNone) {
		t.Fatal("eigen decomposition failed")
	}
	largest := 0.0
	for _, v := range eig.Values(nil) {
		largest = max(largest, cmplx.Abs(v))
	}
	return largest
}

// TestETSSideBySide fits a panel of three series (an odd number, so that
// a search waits a round) and one of a single series (whose last search
// runs alone, its next points computed ahead), with and without a
// season, and checks that every entity gets exactly, to the bit, the
// form, parameters, initial states and AICc of fitting its forms one
// after the other with etsTarget.lik: computing likelihoods side by side
// and ahead changes nothing.
func TestETSSideBySide(t *testing.T) {
	const rows, n = 60, 3
	rng := rand.New(rand.NewPCG(5, 9))
	m := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for j := range n {
		level := 3.0
		for r := range rows {
			level += 0.05*float64(j) + 0.3*rng.NormFloat64()
			m.Values[r*n+j] = level + math.Sin(float64(r)*math.Pi/2)*float64(j)
		}
	}
	one := series.Matrix{T: rows, N: 1, Values: make([]float64, rows)}
	for r := range rows {
		one.Values[r] = m.At(r, 1) - 3
	}
	for _, panel := range []series.Matrix{m, one} {
		for _, season := range []int{1, 4} {
			checkSideBySide(t, panel, season)
		}
	}
}

// checkSideBySide checks every form's fit to every entity of m, run side
// by side by runETSJobs, and the form fitETS chooses, against fitting
// each form alone.
func checkSideBySide(t *testing.T, m series.Matrix, season int) {
	t.Helper()
	var jobs []*etsJob
	for j := range m.N {
		y := make([]float64, m.T)
		for r := range y {
			y[r] = m.At(r, j)
		}
		for _, f := range etsCandidates(y, season) {
			jobs = append(jobs, &etsJob{entity: j, t: newETSTarget(y, f, season)})
		}
	}
	runETSJobs(jobs)
	best, have := make([]etsFit, m.N), make([]bool, m.N)
	for _, job := range jobs {
		tg := newETSTarget(job.t.y, job.t.form, season)
		fit, ok := fitETSForm(tg, tg.lik, nil)
		if g, w := fmt.Sprint(job.fit, job.ok), fmt.Sprint(fit, ok); g != w {
			t.Errorf("%d entities, season %d, entity %d, form %s: side by side %s, alone %s", m.N, season, job.entity, job.t.form, g, w)
		}
		if n := job.entity; ok && !math.IsInf(fit.aicc, 0) && (!have[n] || fit.aicc < best[n].aicc) {
			best[n], have[n] = fit, true
		}
	}
	e, err := fitETS(m, m.T, season)
	if err != nil {
		t.Fatal(err)
	}
	for j, b := range best {
		got := fmt.Sprintf("%s %v %v %v", e.Forms[j], e.Params[j], e.Init[j], e.AICc[j])
		if want := fmt.Sprintf("%s %v %v %v", b.form, b.params, b.init, b.aicc); got != want {
			t.Errorf("%d entities, season %d, entity %d: fitETS chose %s, alone %s", m.N, season, j, got, want)
		}
	}
}
