// Package classifier is the numeric core of Mallard's supervised
// learning: a linear model (multinomial logistic regression, or linear
// regression for a regressor), a multi-layer perceptron and a small
// convolutional network for images, trained by mini-batch SGD with
// momentum or Adam, with weight decay, early stopping on a validation
// set and data-parallel workers that average their gradients through a
// parallel.Collective.
//
// Activations are row-major float64 matrices with one row per example.
// An image is stored channel-last (height, width, channels), so that a
// 3 x 3 convolution of a whole batch is one im2col matrix times the
// filter matrix, a single serial product (linalg.Gemm), and its result
// is already the next layer's channel-last input.
//
// Every layer's backward pass is written by hand. The networks have no
// batch normalisation: its statistics are those of a worker's share of
// the batch, so with it two workers would train another model than one
// worker unless every normalised layer added a collective in its forward
// pass; the networks here are shallow enough to train without it.
//
// Training with any number of workers computes the same gradients, the
// same dropout masks and the same steps as one worker, up to the order in
// which the gradient of a batch is summed (see Train).
//
// The SQL surface (train_classifier, train_regressor, predict,
// evaluate) is package functions'; this package knows no SQL.
package classifier
