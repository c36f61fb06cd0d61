package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mallard/mallard/mlops/linalg"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// gatNegativeSlope is the slope of the LeakyReLU applied to attention
// logits, PyTorch Geometric's default negative_slope and the GAT paper's.
const gatNegativeSlope = 0.2

// Mallard's GATConv follows PyTorch Geometric's GATConv (torch_geometric/nn/
// conv/gat_conv.py, 2.x) with edge_dim=1, add_self_loops=True,
// fill_value="mean", negative_slope=0.2, dropout=0 and bias=True, and not
// the GAT paper (Veličković et al., "Graph Attention Networks", ICLR 2018)
// where the two differ:
//
//   - The paper scores an edge with one vector a on the concatenation,
//     a^T [W h_i || W h_j]. PyG keeps two vectors, att_dst and att_src, and
//     adds <W h_i, a_dst> + <W h_j, a_src>. That is the same function with
//     a = [a_dst; a_src], but it lets each node's two scores be computed
//     once instead of once per edge.
//   - The paper has no edge features. PyG adds a third term inside the
//     LeakyReLU, <W_e e_ij, a_edge>, with its own bias-free linear map W_e.
//     With one scalar attribute that is e_ij * <W_e, a_edge> per head.
//   - The paper's neighbourhood "includes i" without saying how. PyG first
//     removes every self loop from the edge list, attribute and all, then
//     adds exactly one per node, whose attribute with fill_value="mean" is
//     the mean of the attributes of the node's incoming edges (0 for a node
//     with none; see gatAdj.build). Parallel edges stay separate terms.
//   - The paper applies its nonlinearity sigma inside the layer (per head
//     before concatenating, after averaging otherwise) and has no bias. PyG
//     applies none and adds a learned bias after concatenating or averaging;
//     the caller adds an activation as a separate layer.
//   - The paper drops out inputs and attention coefficients; PyG drops out
//     only attention coefficients, and Mallard not at all (dropout 0).
//   - PyG's softmax subtracts each group's maximum and adds 1e-16 to the
//     denominator. After the subtraction the denominator is at least 1, so
//     in float64 the 1e-16 rounds away and Mallard leaves it out.
//
// PyG's bipartite form (separate lin_src and lin_dst) and residual option
// are not implemented.

// GATConv is a graph attention convolution computing what PyTorch
// Geometric's GATConv computes for a graph with one scalar attribute per
// edge (see the comparison with the GAT paper above). For input features x
// (n x in) it forms x' = x W, split into Heads heads of Out columns each.
// For an edge from source i to target j and head h the attention logit is
//
//	LeakyReLU_0.2(<x'_i,h, AttSrc_h> + <x'_j,h, AttDst_h> + e_ij <WEdge_h, AttEdge_h>)
//
// where AttSrc_h is row h of AttSrc and WEdge_h the h-th Out columns of
// WEdge. The logits are normalised by a softmax over the edges into each
// target, one self loop included, and the output of node j for head h is
// the attention-weighted sum of x'_i,h over those edges. The heads are
// concatenated (n x Heads*Out) when Concat is true and averaged (n x Out)
// otherwise, and Bias is added to every row.
//
// Forward keeps what Backward needs, so a GATConv serves one
// forward/backward pair at a time and is not safe for concurrent use.
// ForwardOn and BackwardOn are Forward and Backward for a network that runs
// a layer sample after sample: they take the graph grouped once for all
// the network's layers and return matrices the layer reuses, so that a
// sample allocates nothing.
type GATConv struct {
	W       *Param // in x Heads*Out, PyG's lin.weight transposed
	AttSrc  *Param // Heads x Out
	AttDst  *Param // Heads x Out
	WEdge   *Param // 1 x Heads*Out, PyG's lin_edge.weight transposed
	AttEdge *Param // Heads x Out
	Bias    *Param // 1 x OutDim()
	Heads   int
	Out     int
	Concat  bool

	x     *mat.Dense // input of the last Forward, owned by the layer
	xp    *mat.Dense // x W
	adj   *gatAdj    // the last graph, grouped by target, self loops added
	edges int        // len(Src) of the last graph
	own   Adjacency  // the graph of Forward, which ForwardOn is given
	y, dx *mat.Dense // the outputs of ForwardOn and BackwardOn, reused
	logit []float64  // pre-activation logit of slot e, head h at e*Heads+h
	alpha []float64  // attention of slot e, head h at e*Heads+h
	work  gatWork
}

// gatWork is the scratch of a GATConv's Forward and Backward, kept so that
// a layer allocates it once for the largest graph it has seen.
type gatWork struct {
	sSrc, sDst, k  []float64 // node scores and edge scales (Forward)
	dAttn          []float64 // gradient per slot and head (Backward)
	dSrc, dDst, dk []float64 // gradients of the node scores and edge scales
	dxp, gw        *mat.Dense
}

// NewGATConv returns a GATConv named name mapping in features to heads
// heads of out features each, concatenated if concat is true and averaged
// otherwise. Like PyG's reset_parameters it draws W, the three attention
// vectors and WEdge from Glorot uniform distributions U(-a, a) with
// a = sqrt(6/(rows+cols)) of PyG's shapes (in + heads*out for W, heads + out
// for the attention vectors, 1 + heads*out for WEdge) using rng, and starts
// Bias at zero. The parameters are named name+".lin.weight", ".att_src",
// ".att_dst", ".lin_edge.weight", ".att_edge" and ".bias" after PyG's.
func NewGATConv(name string, in, out, heads int, concat bool, rng *rand.Rand) *GATConv {
	if in <= 0 || out <= 0 || heads <= 0 {
		panic(fmt.Sprintf("nn: NewGATConv %q: non-positive in %d, out %d or heads %d", name, in, out, heads))
	}
	l := &GATConv{
		W:       NewParam(name+".lin.weight", in, heads*out),
		AttSrc:  NewParam(name+".att_src", heads, out),
		AttDst:  NewParam(name+".att_dst", heads, out),
		WEdge:   NewParam(name+".lin_edge.weight", 1, heads*out),
		AttEdge: NewParam(name+".att_edge", heads, out),
		Heads:   heads,
		Out:     out,
		Concat:  concat,
	}
	l.Bias = NewParam(name+".bias", 1, l.OutDim())
	gatGlorot(l.W, in+heads*out, rng)
	gatGlorot(l.AttSrc, heads+out, rng)
	gatGlorot(l.AttDst, heads+out, rng)
	gatGlorot(l.WEdge, 1+heads*out, rng)
	gatGlorot(l.AttEdge, heads+out, rng)
	return l
}

// gatGlorot fills p from U(-a, a) with a = sqrt(6/fans).
func gatGlorot(p *Param, fans int, rng *rand.Rand) {
	limit := math.Sqrt(6 / float64(fans))
	r, _ := p.W.Dims()
	for i := range r {
		row := p.W.RawRowView(i)
		for j := range row {
			row[j] = limit * (2*rng.Float64() - 1)
		}
	}
}

// OutDim is the number of output columns: Heads*Out if Concat, else Out.
func (l *GATConv) OutDim() int {
	if l.Concat {
		return l.Heads * l.Out
	}
	return l.Out
}

// Params returns W, AttSrc, AttDst, WEdge, AttEdge and Bias, in that order.
func (l *GATConv) Params() []*Param {
	return []*Param{l.W, l.AttSrc, l.AttDst, l.WEdge, l.AttEdge, l.Bias}
}

// Forward returns the layer's output (g.N x OutDim()) for node features x
// (g.N x in) on graph g; the matrix is the caller's. It panics if g is
// invalid or x has the wrong shape.
func (l *GATConv) Forward(g *Graph, x *mat.Dense) *mat.Dense {
	if err := l.own.Set(g); err != nil {
		panic(fmt.Sprintf("nn: GATConv %q: %v", l.W.Name, err))
	}
	return mat.DenseCopyOf(l.ForwardOn(&l.own, x))
}

// ForwardOn is Forward on the graph a was set to, which layers running on
// the same graph share: a must not change until this forward's Backward
// (and Attention) have run. The output is the layer's: the caller may
// change it, and the next ForwardOn or Forward overwrites it. It panics if
// a is empty or x has the wrong shape.
func (l *GATConv) ForwardOn(a *Adjacency, x *mat.Dense) *mat.Dense {
	if !a.built {
		panic(fmt.Sprintf("nn: GATConv %q: forward on an empty Adjacency", l.W.Name))
	}
	n, c := x.Dims()
	in, _ := l.W.W.Dims()
	if n != a.n || c != in {
		panic(fmt.Sprintf("nn: GATConv %q: input is %d x %d, want %d x %d", l.W.Name, n, c, a.n, in))
	}
	l.x = copiedDense(l.x, x)
	l.xp = mulInto(l.xp, x, l.W.W)
	l.adj, l.edges = &a.adj, a.edges
	w := &l.work
	w.sSrc, w.sDst, w.k = l.nodeScores(w.sSrc, l.AttSrc), l.nodeScores(w.sDst, l.AttDst), l.edgeScale(w.k)
	l.attend(w.sSrc, w.sDst, w.k)
	return l.aggregate()
}

// head returns columns of head h of a row of x' (or of its gradient).
func (l *GATConv) head(row []float64, h int) []float64 {
	return row[h*l.Out : (h+1)*l.Out]
}

// outHead returns the columns of an output row that head h contributes to.
func (l *GATConv) outHead(row []float64, h int) []float64 {
	if l.Concat {
		return l.head(row, h)
	}
	return row
}

// outScale is the weight of each head in the output: 1, or 1/Heads when
// the heads are averaged.
func (l *GATConv) outScale() float64 {
	if l.Concat {
		return 1
	}
	return 1 / float64(l.Heads)
}

// nodeScores returns <x'_i,h, att_h> for every node i and head h, at
// i*Heads+h, in buf's storage.
func (l *GATConv) nodeScores(buf []float64, att *Param) []float64 {
	n, _ := l.xp.Dims()
	s := resized(buf, n*l.Heads)
	for i := range n {
		row := l.xp.RawRowView(i)
		for h := range l.Heads {
			s[i*l.Heads+h] = floats.Dot(l.head(row, h), att.W.RawRowView(h))
		}
	}
	return s
}

// edgeScale returns <WEdge_h, AttEdge_h> for each head h, in buf's
// storage: an edge with attribute e adds e times it to its logit.
func (l *GATConv) edgeScale(buf []float64) []float64 {
	k := resized(buf, l.Heads)
	we := l.WEdge.W.RawRowView(0)
	for h := range l.Heads {
		k[h] = floats.Dot(l.head(we, h), l.AttEdge.W.RawRowView(h))
	}
	return k
}

// gatLeaky is the LeakyReLU of the attention logits: s for s > 0 and
// gatNegativeSlope*s otherwise, which is the larger of the two since the
// slope is below 1. Taking the maximum needs no branch, which the logits'
// signs would mispredict about half the time.
func gatLeaky(s float64) float64 {
	return max(s, gatNegativeSlope*s)
}

// gatLeakySlope is the derivative of gatLeaky, taken as the negative slope
// at 0 as PyTorch's leaky_relu backward takes it.
func gatLeakySlope(s float64) float64 {
	if s > 0 {
		return 1
	}
	return gatNegativeSlope
}

// attend fills l.logit and l.alpha from the node scores and edge scales:
// for each target and head, a max-shifted softmax of the LeakyReLU'd logits
// of its incoming slots.
func (l *GATConv) attend(sSrc, sDst, k []float64) {
	H, a := l.Heads, l.adj
	l.logit = resized(l.logit, len(a.src)*H)
	l.alpha = resized(l.alpha, len(a.src)*H)
	for j := range len(a.ptr) - 1 {
		lo, hi := a.ptr[j], a.ptr[j+1]
		for h := range H {
			mx := math.Inf(-1)
			for e := lo; e < hi; e++ {
				s := sSrc[a.src[e]*H+h] + sDst[j*H+h] + a.attr[e]*k[h]
				l.logit[e*H+h] = s
				v := gatLeaky(s)
				l.alpha[e*H+h] = v // until the exp below replaces it
				if v > mx {
					mx = v // a NaN logit is skipped here but still makes its group NaN below
				}
			}
			sum := 0.0
			for e := lo; e < hi; e++ {
				v := math.Exp(l.alpha[e*H+h] - mx)
				l.alpha[e*H+h] = v
				sum += v
			}
			for e := lo; e < hi; e++ {
				l.alpha[e*H+h] /= sum
			}
		}
	}
}

// aggregate returns the attention-weighted sums of x' over each node's
// incoming slots, heads concatenated or averaged, plus Bias.
func (l *GATConv) aggregate() *mat.Dense {
	n, _ := l.xp.Dims()
	l.y = reusedDense(l.y, n, l.OutDim())
	y := l.y
	bias := l.Bias.W.RawRowView(0)
	for j := range n {
		yr := y.RawRowView(j)
		if l.Concat {
			for h := range l.Heads {
				l.sumSlots(l.head(yr, h), j, h, h+1)
			}
		} else {
			l.sumSlots(yr, j, 0, l.Heads)
		}
		floats.Add(yr, bias)
	}
	return y
}

// sumSlots sets column c of dst, for every c < len(dst) <= Out, to the sum
// over the slots e into node j and, within a slot, over the heads h0..h1-1
// of scale*alpha(e, h) * x'(src(e), h, c), each term added in that order as
// adding it into dst would. Eight columns are summed at a time, in
// registers rather than through dst.
func (l *GATConv) sumSlots(dst []float64, j, h0, h1 int) {
	H, C, a, scale := l.Heads, l.Out, l.adj, l.outScale()
	xp := l.xp.RawMatrix()
	lo, hi := a.ptr[j], a.ptr[j+1]
	c := 0
	for ; c+8 <= len(dst); c += 8 {
		var s0, s1, s2, s3, s4, s5, s6, s7 float64
		for e := lo; e < hi; e++ {
			row := xp.Data[a.src[e]*xp.Stride:]
			for h := h0; h < h1; h++ {
				f, x := scale*l.alpha[e*H+h], row[h*C+c:h*C+c+8:h*C+c+8]
				s0, s1, s2, s3 = s0+f*x[0], s1+f*x[1], s2+f*x[2], s3+f*x[3]
				s4, s5, s6, s7 = s4+f*x[4], s5+f*x[5], s6+f*x[6], s7+f*x[7]
			}
		}
		d := dst[c : c+8 : c+8]
		d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7] = s0, s1, s2, s3, s4, s5, s6, s7
	}
	for ; c < len(dst); c++ {
		s := 0.0
		for e := lo; e < hi; e++ {
			row := xp.Data[a.src[e]*xp.Stride:]
			for h := h0; h < h1; h++ {
				s += scale * l.alpha[e*H+h] * row[h*C+c]
			}
		}
		dst[c] = s
	}
}

// Attention returns the attention coefficients of the last Forward, one
// row per edge and one column per head: row k for edge k of the graph and
// row len(g.Src)+j for the self loop the layer added at node j. A self
// loop in the graph's own edge list was ignored and has a row of zeros.
// The rows of the edges into a node sum to 1 in every column. Attention
// returns nil before the first Forward; the matrix is the caller's.
func (l *GATConv) Attention() *mat.Dense {
	if l.xp == nil {
		return nil
	}
	n, _ := l.xp.Dims()
	att := mat.NewDense(l.edges+n, l.Heads, nil)
	for e, k := range l.adj.edge {
		copy(att.RawRowView(k), l.alpha[e*l.Heads:(e+1)*l.Heads])
	}
	return att
}

// Backward takes dL/dy for the output of the last Forward, adds the
// gradients of all six parameters into their Grad and returns dL/dx; the
// matrix is the caller's. The edge attributes are inputs without a
// gradient. It panics if called before Forward or if dy has the wrong
// shape.
func (l *GATConv) Backward(dy *mat.Dense) *mat.Dense {
	return mat.DenseCopyOf(l.BackwardOn(dy))
}

// BackwardOn is Backward returning a matrix that is the layer's, as
// ForwardOn's output is: the caller may change it, and the next BackwardOn
// or Backward overwrites it.
func (l *GATConv) BackwardOn(dy *mat.Dense) *mat.Dense {
	if l.xp == nil {
		panic(fmt.Sprintf("nn: GATConv %q: Backward before Forward", l.W.Name))
	}
	n, hc := l.xp.Dims()
	if r, c := dy.Dims(); r != n || c != l.OutDim() {
		panic(fmt.Sprintf("nn: GATConv %q: gradient is %d x %d, want %d x %d", l.W.Name, r, c, n, l.OutDim()))
	}
	w := &l.work
	w.dxp = reusedDense(w.dxp, n, hc)
	dxp := w.dxp
	d := l.backAggregate(dy, dxp)
	l.backSoftmax(d)
	l.backScores(d, dxp)

	bg := l.Bias.Grad.RawRowView(0)
	for j := range n {
		floats.Add(bg, dy.RawRowView(j))
	}
	w.gw = mulTransAInto(w.gw, l.x, dxp)
	l.W.Grad.Add(l.W.Grad, w.gw)
	l.dx = mulTransBInto(l.dx, dxp, l.W.W)
	return l.dx
}

// backAggregate adds into dxp the gradient of the weighted sums with
// respect to x' and returns their gradient with respect to each slot's
// attention, at e*Heads+h, in the layer's scratch.
func (l *GATConv) backAggregate(dy, dxp *mat.Dense) []float64 {
	H, a, scale := l.Heads, l.adj, l.outScale()
	l.work.dAttn = resized(l.work.dAttn, len(a.src)*H)
	dAlpha := l.work.dAttn
	xp, dxpRaw, hc := l.xp.RawMatrix(), dxp.RawMatrix(), H*l.Out
	for j := range len(a.ptr) - 1 {
		dr := dy.RawRowView(j)
		for e := a.ptr[j]; e < a.ptr[j+1]; e++ {
			s := a.src[e]
			xr, dxr := xp.Data[s*xp.Stride:s*xp.Stride+hc], dxpRaw.Data[s*dxpRaw.Stride:s*dxpRaw.Stride+hc]
			for h := range H {
				g := l.outHead(dr, h)
				dAlpha[e*H+h] = scale * linalg.Dot(g, l.head(xr, h))
				linalg.Axpy(l.head(dxr, h), scale*l.alpha[e*H+h], g)
			}
		}
	}
	return dAlpha
}

// backSoftmax turns, in place, the gradient with respect to each slot's
// attention into the gradient with respect to its pre-activation logit,
// through the softmax over the target's slots and the LeakyReLU.
func (l *GATConv) backSoftmax(d []float64) {
	H, a := l.Heads, l.adj
	for j := range len(a.ptr) - 1 {
		lo, hi := a.ptr[j], a.ptr[j+1]
		for h := range H {
			dot := 0.0
			for e := lo; e < hi; e++ {
				dot += l.alpha[e*H+h] * d[e*H+h]
			}
			for e := lo; e < hi; e++ {
				i := e*H + h
				d[i] = l.alpha[i] * (d[i] - dot) * gatLeakySlope(l.logit[i])
			}
		}
	}
}

// backScores spreads the logit gradients ds onto the node scores and edge
// scales, and from them adds into dxp and into the Grad of AttSrc, AttDst,
// WEdge and AttEdge.
func (l *GATConv) backScores(ds []float64, dxp *mat.Dense) {
	n, _ := l.xp.Dims()
	H, a := l.Heads, l.adj
	w := &l.work
	w.dSrc, w.dDst, w.dk = cleared(w.dSrc, n*H), cleared(w.dDst, n*H), cleared(w.dk, H)
	dSrc, dDst, dk := w.dSrc, w.dDst, w.dk
	for j := range n {
		for e := a.ptr[j]; e < a.ptr[j+1]; e++ {
			for h := range H {
				v := ds[e*H+h]
				dSrc[a.src[e]*H+h] += v
				dDst[j*H+h] += v
				dk[h] += v * a.attr[e]
			}
		}
	}
	for i := range n {
		xr, dxr := l.xp.RawRowView(i), dxp.RawRowView(i)
		for h := range H {
			s, t := dSrc[i*H+h], dDst[i*H+h]
			floats.AddScaled(l.head(dxr, h), s, l.AttSrc.W.RawRowView(h))
			floats.AddScaled(l.head(dxr, h), t, l.AttDst.W.RawRowView(h))
			floats.AddScaled(l.AttSrc.Grad.RawRowView(h), s, l.head(xr, h))
			floats.AddScaled(l.AttDst.Grad.RawRowView(h), t, l.head(xr, h))
		}
	}
	we, gwe := l.WEdge.W.RawRowView(0), l.WEdge.Grad.RawRowView(0)
	for h := range H {
		floats.AddScaled(l.head(gwe, h), dk[h], l.AttEdge.W.RawRowView(h))
		floats.AddScaled(l.AttEdge.Grad.RawRowView(h), dk[h], l.head(we, h))
	}
}
