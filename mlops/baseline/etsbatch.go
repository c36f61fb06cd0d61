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
			p, st, ok := t.prepare(x)
			if !ok || stopped {
				return math.Inf(1)
			}
			j.p, j.st = p, st
			stopped = !yield(struct{}{})
			return j.lik
		}
	}
	j.fit, j.ok = fitETSForm(t, lik)
}

// runETSJobs runs the jobs' searches side by side until all have
// finished. Each round computes the likelihoods waited for two at a time
// (additivePair), one by one only where the series' lengths differ or a
// single search is left, then resumes those searches until each waits
// again or ends. With an odd number waiting, the last waits for the next
// round, where it comes first: a round costs about one pass over the rows
// per pair.
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
		for k := 0; k < len(done); k += 2 {
			if k+1 < len(done) && len(jobs[done[k+1]].t.y) == len(jobs[done[k]].t.y) {
				additivePair(jobs[done[k]], jobs[done[k+1]])
				continue
			}
			for _, i := range done[k:min(k+2, len(done))] {
				a := jobs[i]
				a.lik = a.t.finish(a.t.form.additive(a.p, &a.st, a.t.y), 0)
			}
		}
		for _, i := range done {
			if _, more := next[i](); more {
				again = append(again, i)
			}
		}
		waiting, again = again, waiting
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

// laneParams returns the parameters of a waiting job as etsForm.additive
// applies them: phi and beta 0 without a trend.
func laneParams(j *etsJob) ETSParams {
	p := j.p
	if !j.t.form.trend {
		p.Phi, p.Beta = 0, 0
	}
	return p
}
