package recommender

import (
	"math"
	"math/rand/v2"

	"github.com/mallard/mallard/mlops/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// The ranking objective is the multinomial denoising autoencoder of Liang
// et al. (Mult-DAE, WWW 2018). A user's interactions P (the ratings of at
// least Config.Relevant) go in as a binary row normalised to unit length,
// whose entries training drops with chance Config.Dropout and scales the
// rest by 1/(1−Dropout); the outputs are logits z over the items, and the
// loss of a user is −Σ_{i∈P} log softmax(z)_i, summed over the batch's
// users and divided by their number, as the paper's is. The softmax is
// over every item, or, with Config.Negatives, sampled (see sampler): the
// normaliser counts the user's own items and the batch's negatives, so a
// batch touches the table rows of its users' items and of its negatives
// only, as the rating objective touches those of its ratings.
//
// Where it differs from the paper: the softmax may be sampled, which the
// paper's, over the 20,000 items of its data, is not; the decoder keeps
// the package's shared row plus item offsets, whose shared part adds the
// same to every logit, so that its gradient is zero and it stays at zero
// (see initWeights), each item's offset being its whole output weights;
// and the weight penalty is the package's, over the rows a batch uses,
// weighted as the package comment says, where the paper's weight decay
// covers every weight at every step.

// interactions sets dst to the network's inputs for ratings x in the
// input scale: 1/√k at the k ratings at or above the cut, 0 elsewhere.
func (n *net) interactions(x, dst []float64) {
	k := 0
	for _, v := range x {
		if v >= n.cut {
			k++
		}
	}
	in := 1 / math.Sqrt(float64(k))
	for i, v := range x {
		dst[i] = 0
		if v >= n.cut {
			dst[i] = in
		}
	}
}

// ranker is a worker's scratch space for the ranking objective.
type ranker struct {
	traces   []*trace  // by user of the worker's share
	codes    []float64 // the last hidden layer of the share's users, m x h_L
	logits   []float64 // the negatives' logits, then their gradient, m x K
	da, dd   []float64 // dL/d(codes), m x h_L; dL/d(negatives' rows), K x h_L
	cand     []float64 // the negatives' decoder rows, gathered, K x (h_L+1)
	other    []float64 // by user: Σ dL/dz over its negatives
	neg      negatives
	draws    []int32
	drop     *rand.PCG
	dropRand *rand.Rand
}

func newRanker() *ranker {
	pcg := rand.NewPCG(0, 0)
	return &ranker{drop: pcg, dropRand: rand.New(pcg)}
}

// rankShare adds to w.g the gradient of weight times the ranking loss of
// the users of share, and returns their loss, unweighted.
func (w *worker) rankShare(share []int, weight float64) float64 {
	if len(share) == 0 {
		return 0
	}
	rk, n := w.rk, w.net
	h := n.sizes[len(n.sizes)-1]
	neg := w.negatives()
	for len(rk.traces) < len(share) {
		rk.traces = append(rk.traces, newTrace(n.sizes))
	}
	m, k := len(share), len(neg.items)
	rk.codes, rk.other = resized(rk.codes, m*h), resized(rk.other, m)
	var loss float64
	beta := w.beta()
	for i, u := range share {
		t := rk.traces[i]
		w.rankInputs(u, t)
		a := n.encodeInputs(t.pos, t.x, t)
		if t.vae != nil {
			loss += beta * n.sample(t)
			t.vae.klWeight = weight * beta
		}
		copy(rk.codes[i*h:(i+1)*h], a)
	}
	codes := blas64.General{Rows: m, Cols: h, Stride: h, Data: rk.codes}
	cand := n.candidates(neg, rk)
	rk.logits = resized(rk.logits, m*k)
	z := blas64.General{Rows: m, Cols: k, Stride: k, Data: rk.logits}
	linalg.Gemm(blas.NoTrans, blas.Trans, 1, codes, cand, 0, z)
	for i := range share {
		var l float64
		l, rk.other[i] = n.multinomial(rk.traces[i], rk.logits[i*k:(i+1)*k], neg, weight)
		loss += l
	}
	rk.da, rk.dd = resized(rk.da, m*h), resized(rk.dd, k*h)
	linalg.Gemm(blas.NoTrans, blas.NoTrans, 1, z, cand, 0, blas64.General{Rows: m, Cols: h, Stride: h, Data: rk.da})
	linalg.Gemm(blas.Trans, blas.NoTrans, 1, z, codes, 0, blas64.General{Rows: k, Cols: h, Stride: h, Data: rk.dd})
	for s, j := range neg.items {
		_, gd := w.g.row(j)
		floats.Add(gd[:h], rk.dd[s*h:(s+1)*h])
		for i := range m {
			gd[h] += rk.logits[i*k+s]
		}
	}
	for i := range share {
		t := rk.traces[i]
		copy(t.d[len(n.sizes)-1], rk.da[i*h:(i+1)*h])
		n.backwardFrom(t.pos, t, w.g, rk.other[i])
	}
	return loss
}

// rankInputs sets t.pos to user u's interactions and t.x to the inputs
// training feeds them as: interactions with dropout, the mask drawn from
// the seed, the epoch and the user alone, so that it does not depend on
// which worker takes the user; for a variational network, the code's
// noise too (see vae.go), drawn after the mask.
func (w *worker) rankInputs(u int, t *trace) {
	items, vals := w.train.Row(u)
	t.pos = t.pos[:0]
	for i, j := range items {
		if w.scale.in(float64(vals[i])) >= w.net.cut {
			t.pos = append(t.pos, j)
		}
	}
	t.x, t.dy = resized(t.x, len(t.pos)), resized(t.dy, len(t.pos))
	w.dropout(u, t.x)
	if w.net.head != 0 {
		if t.vae == nil {
			t.vae = newVAETrace(w.net.sizes[len(w.net.sizes)-1])
		}
		for k := range t.vae.eps {
			t.vae.eps[k] = w.rk.dropRand.NormFloat64()
		}
	}
}

// dropout sets x, one value per interaction of user u, to the inputs
// training feeds them as (see rankInputs), and leaves the user's random
// source after the mask's draws.
func (w *worker) dropout(u int, x []float64) {
	in, p := 1/math.Sqrt(float64(len(x))), w.cfg.Dropout
	w.rk.drop.Seed(w.cfg.Seed^0xd209, uint64(w.epoch)<<32|uint64(u))
	for i := range x {
		x[i] = in / (1 - p)
		if p > 0 && w.rk.dropRand.Float64() < p {
			x[i] = 0
		}
	}
}

// negatives returns the current batch's negatives, drawn from the seed,
// the epoch and the batch alone, so that every worker draws the same.
func (w *worker) negatives() *negatives {
	rng := rand.New(rand.NewPCG(w.cfg.Seed^0x5a3b1e, uint64(w.epoch)<<32|uint64(w.batch)))
	var neg *negatives
	neg, w.rk.draws = w.sampler.draw(rng, &w.rk.neg, w.rk.draws)
	return neg
}

// candidates returns the negatives' decoder rows without their biases, a
// view of the table for the exact softmax, else gathered into rk.cand.
func (n *net) candidates(neg *negatives, rk *ranker) blas64.General {
	h := n.sizes[len(n.sizes)-1]
	if len(neg.items) == n.items && neg.all {
		return blas64.General{Rows: n.items, Cols: h, Stride: h + 1, Data: n.dec}
	}
	rk.cand = resized(rk.cand, len(neg.items)*(h+1))
	for s, j := range neg.items {
		copy(rk.cand[s*(h+1):(s+1)*(h+1)], n.decRow(j))
	}
	return blas64.General{Rows: len(neg.items), Cols: h, Stride: h + 1, Data: rk.cand}
}

// multinomial returns the loss of the user whose pass t holds, −Σ_{i∈P}
// log softmax(z)_i over P = t.pos and the negatives, with z the logits:
// those of P from the network, and, in zs, the negatives' logits less
// their biases and the shared row's part. It sets t.dy to weight times
// dL/dz at P and zs to weight times dL/dz at the negatives (zero at those
// in P, which count once, as interactions), and returns their sum too.
func (n *net) multinomial(t *trace, zs []float64, neg *negatives, weight float64) (loss, other float64) {
	a := t.a[len(t.a)-1]
	base := n.base(a)
	h := len(a)
	top := math.Inf(-1)
	for s, j := range neg.items {
		zs[s] += n.decRow(j)[h] + base + neg.logw[s]
	}
	for _, j := range t.pos {
		if s, ok := neg.find(j); ok {
			zs[s] = math.Inf(-1)
		}
	}
	for i, j := range t.pos {
		t.dy[i] = n.output(j, a, base)
		top = max(top, t.dy[i])
	}
	top = max(top, floats.Max(zs))
	var sum float64
	for _, z := range t.dy {
		sum += math.Exp(z - top)
	}
	for _, z := range zs {
		sum += math.Exp(z - top)
	}
	logZ, k := top+math.Log(sum), float64(len(t.pos))
	for i, z := range t.dy {
		loss += logZ - z
		t.dy[i] = weight * (k*math.Exp(z-logZ) - 1)
	}
	for s, z := range zs {
		zs[s] = weight * k * math.Exp(z-logZ)
		other += zs[s]
	}
	return loss, other
}

// softmax replaces z by its softmax.
func softmax(z []float64) {
	top := floats.Max(z)
	var sum float64
	for i, v := range z {
		z[i] = math.Exp(v - top)
		sum += z[i]
	}
	floats.Scale(1/sum, z)
}
