package classifier

// TrainingBytes estimates what Fit holds in memory besides its rows for
// opts on inputs of h x w x c values (an image when image is set) and
// outputs classes (1 for a regressor): for each worker, five values per
// weight (the weights, their gradient, the optimiser's two moments and
// the best weights) and a batch's inputs with every layer's output and
// its gradient (and a convolution's 3x3 patches, twice); and one chunk
// of validation rows. It is an estimate of the largest buffers, not a
// bound on every allocation.
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
	perExample, in := int64(n.in.size()), n.in
	for _, l := range n.layers {
		out := l.out()
		perExample += 2 * int64(out.size())
		if _, ok := l.(*conv); ok {
			perExample += 2 * int64(out.H*out.W*9*in.C) // patches and their gradient
		}
		in = out
	}
	workers := int64(max(opts.Workers, 1))
	rows := int64(max(opts.BatchSize, evalChunk))
	return 8 * (5*workers*int64(n.params()) + 2*rows*perExample), nil
}
