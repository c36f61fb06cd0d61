// Package nn is Mallard's small neural-network core on gonum: layers with
// hand-written forward and backward passes in float64, losses and
// optimisers. A layer's Forward keeps what its Backward needs; Backward
// adds the parameter gradients into each Param's Grad and returns the
// gradient with respect to the layer's input. Nothing here knows SQL.
package nn

import "gonum.org/v1/gonum/mat"

// Param is one trainable tensor of a layer: its values and the gradient
// accumulated for them since the last ZeroGrad. Both are rows x cols.
type Param struct {
	Name string
	W    *mat.Dense
	Grad *mat.Dense
}

// NewParam returns a zero-valued parameter of the given shape.
func NewParam(name string, rows, cols int) *Param {
	return &Param{Name: name, W: mat.NewDense(rows, cols, nil), Grad: mat.NewDense(rows, cols, nil)}
}

// ZeroGrad clears the accumulated gradient.
func (p *Param) ZeroGrad() { p.Grad.Zero() }

// Len is the number of values in p.
func (p *Param) Len() int {
	r, c := p.W.Dims()
	return r * c
}
