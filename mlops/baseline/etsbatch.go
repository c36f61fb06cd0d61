package baseline

import (
	"iter"
	"math"
)

// etsJob is the fit of one form to one entity's series. Its Nelder-Mead
// search runs as a coroutine that stops at each likelihood of a
// non-seasonal additive form, so that runETSJobs can compute those of
// several jobs in one pass over the rows; the other forms' likelihoods it
// computes itself.
type etsJob struct {
	entity int
	t      *etsTarget
	// p and st are the point whose likelihood the search waits for; lik
	// receives it.
	p   ETSParams
	st  ETSState
	lik float64
	// fit and ok are the search's result once it has finished.
	fit etsFit
	ok  bool
	// ahead are the points the search said it may ask for after the one
	// it waits for (nelderMead's hint), and hinted whether they are new.
	// When the search is the only one waiting, runETSJobs computes their
	// likelihoods in the same pass; the search then takes them from here.
	ahead  [3]etsAhead
	hinted bool
}

// etsAhead is a point a search may ask for and, once computed, the job
// that holds its likelihood.
type etsAhead struct {
	x    []float64
	done bool
	lane *etsJob
}

// hint keeps the points the search may ask for next.
func (j *etsJob) hint(pts ...[]float64) {
	for k, x := range pts {
		j.ahead[k].x = append(j.ahead[k].x[:0], x...)
		j.ahead[k].done = false
	}
	j.hinted = true
}

// computed returns the likelihood at x if runETSJobs computed it ahead.
// The likelihood is a function of x alone, so it is the value the search
// would get by asking.
func (j *etsJob) computed(x []float64) (float64, bool) {
	for k := range j.ahead {
		if a := &j.ahead[k]; a.done && sameBits(a.x, x) {
			return a.lane.lik, true
		}
	}
	return 0, false
}

// sameBits reports whether a and b hold the same values, bit for bit.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// aheadLanes returns the jobs whose likelihoods to compute with j's when
// j is the only search waiting: one per admissible point of its hint,
// computed once.
func (j *etsJob) aheadLanes() []*etsJob {
	if !j.hinted {
		return nil
	}
	j.hinted = false
	var lanes []*etsJob
	for k := range j.ahead {
		a := &j.ahead[k]
		p, st, ok := j.t.prepare(a.x)
		if !ok {
			continue
		}
		if a.lane == nil {
			a.lane = &etsJob{t: j.t}
		}
		a.lane.p, a.lane.st, a.done = p, st, true
		lanes = append(lanes, a.lane)
	}
	return lanes
}

// laned reports whether the job's likelihoods are left to runETSJobs.
func (j *etsJob) laned() bool { return !j.t.form.multError && j.t.form.season == 'N' }

// search runs the job's fit, yielding at each likelihood left to
// runETSJobs. Every value is what etsTarget.lik returns at the point, so
// the search and its result are those of a fit on its own.
func (j *etsJob) search(yield func(struct{}) bool) {
	t, stopped := j.t, false
	lik := t.lik
	if j.laned() {
		lik = func(x []float64) float64 {
			if v, ok := j.computed(x); ok {
				return v
			}
			p, st, ok := t.prepare(x)
			if !ok || stopped {
				return math.Inf(1)
			}
			j.p, j.st = p, st
			stopped = !yield(struct{}{})
			return j.lik
		}
	}
	var hint func(exp, out, in []float64)
	if j.laned() {
		hint = func(exp, out, in []float64) { j.hint(exp, out, in) }
	}
	j.fit, j.ok = fitETSForm(t, lik, hint)
}

// runETSJobs runs the jobs' searches side by side until all have
// finished. Each round computes the likelihoods waited for eight, four or
// two at a time (additiveOcto, additiveQuad, additivePair), one by one
// only where the series' lengths differ or a single search is left, then
// resumes those searches until each waits again or ends. With an odd
// number waiting, the last waits for the next round, where it comes
// first: a round costs about one pass over the rows per eight, four or
// two searches.
func runETSJobs(jobs []*etsJob) {
	next := make([]func() (struct{}, bool), len(jobs))
	for i, j := range jobs {
		var stop func()
		next[i], stop = iter.Pull(j.search)
		defer stop()
	}
	var waiting, again []int
	for i := range jobs {
		if _, more := next[i](); more {
			waiting = append(waiting, i)
		}
	}
	for len(waiting) > 0 {
		done := waiting
		again = again[:0]
		if len(waiting)%2 == 1 && len(waiting) > 1 {
			done = waiting[:len(waiting)-1]
			again = append(again, waiting[len(waiting)-1])
		}
		if len(done) == 1 {
			alone(jobs[done[0]])
		}
		for k := 0; k < len(done) && len(done) > 1; {
			k += likelihoods(jobs, done[k:])
		}
		for _, i := range done {
			if _, more := next[i](); more {
				again = append(again, i)
			}
		}
		waiting, again = again, waiting
	}
}

// likelihoods computes the likelihoods of the first of the waiting jobs
// and of the next seven, three or one, where their series have the same
// length, and returns how many it computed.
func likelihoods(jobs []*etsJob, waiting []int) int {
	same := 1
	for same < min(8, len(waiting)) && len(jobs[waiting[same]].t.y) == len(jobs[waiting[0]].t.y) {
		same++
	}
	switch {
	case same == 8:
		additiveOcto([8]*etsJob{jobs[waiting[0]], jobs[waiting[1]], jobs[waiting[2]], jobs[waiting[3]],
			jobs[waiting[4]], jobs[waiting[5]], jobs[waiting[6]], jobs[waiting[7]]})
		return 8
	case same >= 4:
		additiveQuad(jobs[waiting[0]], jobs[waiting[1]], jobs[waiting[2]], jobs[waiting[3]])
		return 4
	case same >= 2:
		additivePair(jobs[waiting[0]], jobs[waiting[1]])
		return 2
	}
	a := jobs[waiting[0]]
	a.lik = a.t.finish(a.t.form.additive(a.p, &a.st, a.t.y), 0)
	return 1
}

// alone computes the likelihood of a job that is the only one waiting,
// with those of the points its search may ask for next in the same pass.
func alone(j *etsJob) {
	lanes := append([]*etsJob{j}, j.aheadLanes()...)
	switch len(lanes) {
	case 1:
		j.lik = j.t.finish(j.t.form.additive(j.p, &j.st, j.t.y), 0)
	case 2:
		additivePair(lanes[0], lanes[1])
	case 3:
		spare := &etsJob{t: j.t, p: j.p, st: j.st}
		additiveQuad(lanes[0], lanes[1], lanes[2], spare)
	default:
		additiveQuad(lanes[0], lanes[1], lanes[2], lanes[3])
	}
}

// additivePair sets the likelihoods of two jobs waiting for that of a
// non-seasonal additive form over series of the same length: the
// recursion of etsForm.additive for each, its arithmetic unchanged,
// interleaved in one loop so that the processor overlaps the two chains
// of dependent operations.
func additivePair(a, b *etsJob) {
	// The parameters stay in memory, an array the loop reads them from,
	// so that the registers hold the states and no chain waits on a spill.
	p := [2]ETSParams{laneParams(a), laneParams(b)}
	la, ba, lb, bb := a.st.Level, a.st.Trend, b.st.Level, b.st.Trend
	ya, yb := a.t.y, b.t.y[:len(a.t.y)]
	var sa, sb float64
	for t, v := range ya {
		q := la + p[0].Phi*ba
		e := v - q
		sa += e * e
		la = q + p[0].Alpha*e
		ba = p[0].Phi*ba + p[0].Beta*e
		w := yb[t]
		r := lb + p[1].Phi*bb
		u := w - r
		sb += u * u
		lb = r + p[1].Alpha*u
		bb = p[1].Phi*bb + p[1].Beta*u
	}
	a.lik, b.lik = a.t.finish(sa, 0), b.t.finish(sb, 0)
}

// additiveQuad is additivePair for four jobs. The sums of squares stay
// in memory too: the registers hold the levels and trends.
func additiveQuad(a, b, c, d *etsJob) {
	p := [4]ETSParams{laneParams(a), laneParams(b), laneParams(c), laneParams(d)}
	var s [4]float64
	l0, b0, l1, b1 := a.st.Level, a.st.Trend, b.st.Level, b.st.Trend
	l2, b2, l3, b3 := c.st.Level, c.st.Trend, d.st.Level, d.st.Trend
	y0 := a.t.y
	y1, y2, y3 := b.t.y[:len(y0)], c.t.y[:len(y0)], d.t.y[:len(y0)]
	for t, v := range y0 {
		q := l0 + p[0].Phi*b0
		e := v - q
		s[0] += e * e
		l0 = q + p[0].Alpha*e
		b0 = p[0].Phi*b0 + p[0].Beta*e
		v = y1[t]
		q = l1 + p[1].Phi*b1
		e = v - q
		s[1] += e * e
		l1 = q + p[1].Alpha*e
		b1 = p[1].Phi*b1 + p[1].Beta*e
		v = y2[t]
		q = l2 + p[2].Phi*b2
		e = v - q
		s[2] += e * e
		l2 = q + p[2].Alpha*e
		b2 = p[2].Phi*b2 + p[2].Beta*e
		v = y3[t]
		q = l3 + p[3].Phi*b3
		e = v - q
		s[3] += e * e
		l3 = q + p[3].Alpha*e
		b3 = p[3].Phi*b3 + p[3].Beta*e
	}
	a.lik, b.lik = a.t.finish(s[0], 0), b.t.finish(s[1], 0)
	c.lik, d.lik = c.t.finish(s[2], 0), d.t.finish(s[3], 0)
}

// additiveOcto is additiveQuad for eight jobs: the processor has the
// room to overlap eight chains, whose levels and trends no longer all fit
// in registers.
func additiveOcto(j [8]*etsJob) {
	var p [8]ETSParams
	var s [8]float64
	for k, jk := range j {
		p[k] = laneParams(jk)
	}
	l0, b0, l1, b1 := j[0].st.Level, j[0].st.Trend, j[1].st.Level, j[1].st.Trend
	l2, b2, l3, b3 := j[2].st.Level, j[2].st.Trend, j[3].st.Level, j[3].st.Trend
	l4, b4, l5, b5 := j[4].st.Level, j[4].st.Trend, j[5].st.Level, j[5].st.Trend
	l6, b6, l7, b7 := j[6].st.Level, j[6].st.Trend, j[7].st.Level, j[7].st.Trend
	y0 := j[0].t.y
	y1, y2, y3 := j[1].t.y[:len(y0)], j[2].t.y[:len(y0)], j[3].t.y[:len(y0)]
	y4, y5, y6, y7 := j[4].t.y[:len(y0)], j[5].t.y[:len(y0)], j[6].t.y[:len(y0)], j[7].t.y[:len(y0)]
	for t, v := range y0 {
		q := l0 + p[0].Phi*b0
		e := v - q
		s[0] += e * e
		l0 = q + p[0].Alpha*e
		b0 = p[0].Phi*b0 + p[0].Beta*e
		v = y1[t]
		q = l1 + p[1].Phi*b1
		e = v - q
		s[1] += e * e
		l1 = q + p[1].Alpha*e
		b1 = p[1].Phi*b1 + p[1].Beta*e
		v = y2[t]
		q = l2 + p[2].Phi*b2
		e = v - q
		s[2] += e * e
		l2 = q + p[2].Alpha*e
		b2 = p[2].Phi*b2 + p[2].Beta*e
		v = y3[t]
		q = l3 + p[3].Phi*b3
		e = v - q
		s[3] += e * e
		l3 = q + p[3].Alpha*e
		b3 = p[3].Phi*b3 + p[3].Beta*e
		v = y4[t]
		q = l4 + p[4].Phi*b4
		e = v - q
		s[4] += e * e
		l4 = q + p[4].Alpha*e
		b4 = p[4].Phi*b4 + p[4].Beta*e
		v = y5[t]
		q = l5 + p[5].Phi*b5
		e = v - q
		s[5] += e * e
		l5 = q + p[5].Alpha*e
		b5 = p[5].Phi*b5 + p[5].Beta*e
		v = y6[t]
		q = l6 + p[6].Phi*b6
		e = v - q
		s[6] += e * e
		l6 = q + p[6].Alpha*e
		b6 = p[6].Phi*b6 + p[6].Beta*e
		v = y7[t]
		q = l7 + p[7].Phi*b7
		e = v - q
		s[7] += e * e
		l7 = q + p[7].Alpha*e
		b7 = p[7].Phi*b7 + p[7].Beta*e
	}
	for k, jk := range j {
		jk.lik = jk.t.finish(s[k], 0)
	}
}

// laneParams returns the parameters of a waiting job as etsForm.additive
// applies them: phi and beta 0 without a trend.
func laneParams(j *etsJob) ETSParams {
	p := j.p
	if !j.t.form.trend {
		p.Phi, p.Beta = 0, 0
	}
	return p
}
