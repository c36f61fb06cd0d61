package recommender

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// The RankingVAE objective is the multinomial variational autoencoder of
// Liang et al. (Mult-VAE, WWW 2018) on the ranking objective's network.
// The last hidden layer's activation is the mean μ of a Gaussian code
// q(c|x) = N(μ, diag(σ²)), and a head after it, in the dense part, gives
// its log-variance: log σ² = W_v·μ + b_v (h_L x h_L weights, initialised
// as the inner layers are, and h_L biases at zero). Training decodes one
// draw c = μ + σ⊙ε, ε ~ N(0, I) drawn from the seed, the epoch and the
// user (the reparameterisation trick), and adds to a user's multinomial
// loss β times KL(q(c|x) ‖ N(0, I)) = ½ Σ_k (σ_k² + μ_k² − 1 − log σ_k²).
// β anneals as in the paper, β = min(cap, s/S) at training step s (from
// 0) of S = Config.Epochs times the batches of an epoch: it reaches
// Config.AnnealCap at that share of the run. Serving and evaluation
// decode μ, as the paper's predictions do.
//
// Where it differs from the paper: there the mean and the log-variance
// are two linear heads on the encoder's last hidden layer; here the mean
// is the last hidden layer itself (with its activation, as the
// denoising objective's code), and the log-variance a linear function of
// it, which adds h_L² weights to the dense part rather than a second
// items x h_L table. With Config.Activation 'identity' and one hidden
// layer, the mean is linear in the input, as in the paper's.

// vaeTrace is a user's pass through the variational head in training.
type vaeTrace struct {
	mu, logVar, eps, dLogVar []float64
	// klWeight is the weight of the user's loss in the batch times β: the
	// scale of the KL term's gradient.
	klWeight float64
}

func newVAETrace(h int) *vaeTrace {
	return &vaeTrace{mu: make([]float64, h), logVar: make([]float64, h), eps: make([]float64, h), dLogVar: make([]float64, h)}
}

// headWeights returns the head's weights (h x h, row-major, input by
// output) and biases in dense, a net's or a gradient's.
func (n *net) headWeights(dense []float64) (w, b []float64) {
	h := n.sizes[len(n.sizes)-1]
	return dense[n.head : n.head+h*h], dense[n.head+h*h : n.head+h*h+h]
}

// sample replaces the last hidden activation of the pass t holds, the
// mean, by the code μ + σ⊙ε for the draws in t.vae.eps, keeping μ and log
// σ² in t.vae, and returns the KL term of the user.
func (n *net) sample(t *trace) float64 {
	v, a := t.vae, t.a[len(t.a)-1]
	copy(v.mu, a)
	w, b := n.headWeights(n.dense)
	h := len(a)
	copy(v.logVar, b)
	for i, m := range v.mu {
		floats.AddScaled(v.logVar, m, w[i*h:(i+1)*h])
	}
	for k := range a {
		a[k] = v.mu[k] + math.Exp(v.logVar[k]/2)*v.eps[k]
	}
	return klTerm(v.mu, v.logVar, nil, nil, 0)
}

// klTerm returns KL(N(μ, diag(exp(logVar))) ‖ N(0, I)) and, where dMu is
// not nil, adds scale times its gradient with respect to μ and logVar to
// dMu and dLogVar.
func klTerm(mu, logVar, dMu, dLogVar []float64, scale float64) float64 {
	var kl float64
	for k, m := range mu {
		s2 := math.Exp(logVar[k])
		kl += (s2 + m*m - 1 - logVar[k]) / 2
		if dMu != nil {
			dMu[k] += scale * m
			dLogVar[k] += scale * (s2 - 1) / 2
		}
	}
	return kl
}

// headBackward turns dL/dc, the code's gradient in t.d's last layer, into
// dL/dμ there, adding the head's gradient to g and the KL term's.
func (n *net) headBackward(t *trace, g *grads) {
	v, da := t.vae, t.d[len(t.d)-1]
	h := len(da)
	for k, d := range da {
		v.dLogVar[k] = d * v.eps[k] * math.Exp(v.logVar[k]/2) / 2 // dc/dlogσ² = ε·σ/2
	}
	klTerm(v.mu, v.logVar, da, v.dLogVar, v.klWeight) // dc/dμ = 1, so da is dL/dμ so far
	w, _ := n.headWeights(n.dense)
	gw, gb := n.headWeights(g.dense)
	for i, m := range v.mu {
		floats.AddScaled(gw[i*h:(i+1)*h], m, v.dLogVar)
		da[i] += floats.Dot(w[i*h:(i+1)*h], v.dLogVar)
	}
	floats.Add(gb, v.dLogVar)
}

// beta is the KL term's weight in the current batch (see the comment at
// the top of this file).
func (w *worker) beta() float64 {
	step, total := w.progress()
	return min(w.cfg.annealCap(), float64(step)/float64(total))
}

// progress returns the current batch's step in the run, from 0 (0 too
// before the first epoch, as where a test computes a gradient), and the
// run's steps: Config.Epochs times the batches of an epoch.
func (w *worker) progress() (step, total int) {
	batches := (len(w.users) + w.cfg.BatchSize - 1) / w.cfg.BatchSize
	return max(0, (w.epoch-1)*batches+w.batch), w.cfg.Epochs * batches
}
