package gat

// FLOPsPerEpoch counts the floating-point operations of one training epoch
// of cfg's network on entities nodes with trainSamples training and
// testSamples test samples: for every training sample the correlation
// graph, the forward and the backward pass; for every sample the graph and
// the forward pass again, which the epoch's evaluation runs; and the
// optimiser step of every mini-batch. A multiply-add counts as two
// operations and an exp or a comparison as one, so the count is a floor on
// the work, not an estimate of the instructions executed. Building edge
// lists moves data without arithmetic and is not counted. It counts the
// recursive network (Config.Strategy): one output, one step per sample.
func FLOPsPerEpoch(cfg Config, entities, trainSamples, testSamples int) float64 {
	n := float64(entities)
	keep := entities - 1
	if cfg.Neighbors > 0 {
		keep = min(keep, cfg.Neighbors)
	}
	slots := n * float64(keep+1) // every kept edge and one self loop per node
	graph := 6*n*float64(cfg.Window) + 2*n*n*float64(cfg.Window)
	var fwd, bwd, params float64
	sizes := append(append([]int{cfg.Window}, cfg.Hidden...), 1)
	for i := 1; i < len(sizes); i++ {
		f, b, p := layerFLOPs(n, slots, float64(sizes[i-1]), float64(sizes[i]), float64(cfg.Heads), i < len(sizes)-1)
		fwd, bwd, params = fwd+f, bwd+b, params+p
	}
	const lossFLOPs = 3 // a difference, its square or doubling, and a sum, per node
	batches := float64((trainSamples + cfg.BatchSize - 1) / max(cfg.BatchSize, 1))
	train := float64(trainSamples) * (graph + fwd + lossFLOPs*n + bwd)
	evaluate := float64(trainSamples+testSamples) * (graph + fwd + lossFLOPs*n)
	return train + evaluate + batches*5*params // scaling and summing gradients, momentum and the update
}

// layerFLOPs counts one layer's forward and backward operations on n nodes
// and slots attention slots, and returns its number of parameters: a
// GATConv from in to heads heads of out features, averaged, its skip
// connection (a linear map when in != out) and, if relu, the ReLU after it.
func layerFLOPs(n, slots, in, out, heads float64, relu bool) (fwd, bwd, params float64) {
	hc := heads * out
	fwd = 2*n*in*hc + // x W
		4*n*hc + // source and target scores of every node and head
		8*slots*heads + // logit, LeakyReLU, max, exp, sum and division per slot and head
		2*slots*hc + n*out // attention-weighted sums, bias
	bwd = 4*slots*hc + // gradients of the attention and of x W through the weighted sums
		5*slots*heads + // softmax and LeakyReLU backward
		4*slots*heads + 8*n*hc + // scores backward into x W and the attention vectors
		n*out + 4*n*in*hc + in*hc // bias, W and input gradients
	params = in*hc + 4*hc + out // W, three attention vectors and WEdge, bias
	if in != out {
		fwd += 2 * n * in * out
		bwd += 4 * n * in * out
		params += in * out
	}
	fwd += n * out // adding the skip connection
	bwd += n * in
	if relu {
		fwd += n * out
		bwd += n * out
	}
	return fwd, bwd, params
}
