package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Dense is a fully connected layer computing y = xW + b for an n x in input
// x, an in x out Weight and a 1 x out Bias added to every row. Bias is nil
// when the layer was built without one.
//
// Forward keeps a copy of its input for Backward, so a Dense serves one
// forward/backward pair at a time and is not safe for concurrent use.
type Dense struct {
	Weight *Param
	Bias   *Param

	x  *mat.Dense // input of the last Forward, owned by the layer
	gw *mat.Dense // scratch of Backward
}

// NewDense returns a Dense layer named name mapping in features to out
// features. Weight is drawn from the Glorot (Xavier) uniform distribution
// U(-a, a) with a = sqrt(6/(in+out)) using rng, so the same rng state gives
// the same layer; Bias, if bias is true, starts at zero. The parameters are
// named name+".weight" and name+".bias".
func NewDense(name string, in, out int, bias bool, rng *rand.Rand) *Dense {
	if in <= 0 || out <= 0 {
		panic(fmt.Sprintf("nn: NewDense %q: non-positive shape %d x %d", name, in, out))
	}
	w := NewParam(name+".weight", in, out)
	limit := math.Sqrt(6 / float64(in+out))
	for i := range in {
		row := w.W.RawRowView(i)
		for j := range row {
			row[j] = limit * (2*rng.Float64() - 1)
		}
	}
	d := &Dense{Weight: w}
	if bias {
		d.Bias = NewParam(name+".bias", 1, out)
	}
	return d
}

// Forward returns xW + b for x of shape n x in. It panics if x does not
// have in columns.
func (d *Dense) Forward(x *mat.Dense) *mat.Dense {
	n, c := x.Dims()
	in, out := d.Weight.W.Dims()
	if c != in {
		panic(fmt.Sprintf("nn: Dense %q: input has %d columns, want %d", d.Weight.Name, c, in))
	}
	d.x = copiedDense(d.x, x)
	y := mat.NewDense(n, out, nil)
	y.Mul(x, d.Weight.W)
	if d.Bias != nil {
		b := d.Bias.W.RawRowView(0)
		for i := range n {
			floats.Add(y.RawRowView(i), b)
		}
	}
	return y
}

// Backward takes dy = dL/dy for the output of the last Forward (n x out),
// adds x^T dy to Weight.Grad and the column sums of dy to Bias.Grad, and
// returns dL/dx = dy W^T (n x in). It uses the current Weight values, so it
// must run before an optimiser step changes them. It panics if Forward has
// not been called.
func (d *Dense) Backward(dy *mat.Dense) *mat.Dense {
	if d.x == nil {
		panic(fmt.Sprintf("nn: Dense %q: Backward before Forward", d.Weight.Name))
	}
	n, _ := dy.Dims()
	in, out := d.Weight.W.Dims()
	d.gw = reusedDense(d.gw, in, out)
	d.gw.Mul(d.x.T(), dy)
	d.Weight.Grad.Add(d.Weight.Grad, d.gw)
	if d.Bias != nil {
		gb := d.Bias.Grad.RawRowView(0)
		for i := range n {
			floats.Add(gb, dy.RawRowView(i))
		}
	}
	dx := mat.NewDense(n, in, nil)
	dx.Mul(dy, d.Weight.W.T())
	return dx
}

// Params returns the layer's trainable parameters: Weight, then Bias if the
// layer has one.
func (d *Dense) Params() []*Param {
	if d.Bias == nil {
		return []*Param{d.Weight}
	}
	return []*Param{d.Weight, d.Bias}
}
