package classifier

// TrainingBytes estimates what Fit holds in memory besides its rows for
// opts on inputs of h x w x c values (an image when image is set) and
// outputs classes (1 for a regressor). Each worker holds five values per
// weight (the weights, their gradient, the optimiser's two moments and
// the best weights); every layer's output and a convolution's 3x3
// patches for the larger of its share of a batch and a validation chunk
// (evalChunk rows), and their gradients for its share of a batch. It is
// an estimate of the largest buffers, not a bound on every allocation.
func TrainingBytes(opts Options, image bool, h, w, c, outputs int) (int64, error) {
	m := &Model{Classes: make([]string, outputs)}
	if outputs == 1 {
		m.Classes = nil
	}
	if image {
		m.Prep.Image = &ImagePreparation{Height: h, Width: w, Channels: c}
	}
	if err := m.choose(opts); err != nil {
		return 0, err
	}
	n, err := buildNet(m.Arch, shape{h, w, c})
	if err != nil {
		return 0, err
	}
	var acts int64 // values per example
	in := n.in
	for _, l := range n.layers {
		out := l.out()
		acts += int64(out.size())
		if _, ok := l.(*conv); ok {
			acts += int64(out.H * out.W * 9 * in.C)
		}
		in = out
	}
	workers := int64(max(opts.Workers, 1))
	share := (int64(max(opts.BatchSize, 1)) + workers - 1) / workers
	forward := max(share, evalChunk) * (int64(n.in.size()) + acts)
	backward := share * acts
	return 8 * workers * (5*int64(n.params()) + forward + backward), nil
}
