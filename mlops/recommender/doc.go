// Package recommender is a user-based autoencoder recommender of the
// AutoRec family (Sedhain et al., 2015): a user's ratings go in, the
// network reconstructs them, and its outputs at the items the user has not
// rated are the predictions.
//
// # Model
//
// A user's input is the sparse vector of the user's ratings mapped to
// [0, 1] by x = (r−Min)/(Max−Min), Min and Max the least and greatest
// training rating (so a rating of Min goes in as an absent one does), with
// zeros for unrated items. Hidden layers of the widths Config.Hidden use
// Config.Activation, the output layer, one unit per item, Config.Output,
// and a prediction is Min + (Max−Min)·output, clipped to [Min, Max]. The
// output layer has a row shared by every item plus an offset row per item
// (see net), so that an item with few ratings predicts close to what the
// shared row gives the user and one with none exactly that.
//
// The loss of a mini-batch of users is the mean squared error, in [0, 1],
// over the batch's ratings only, so the output layer is evaluated at the
// rated items alone, plus the penalty: L2/2 times the sum of squares of
// every weight but the hidden biases and the shared output row, where an
// item's table rows (its encoder weights and output offsets) count only
// in a batch that rates the item, and then with weight L2/p, p the chance
// that a batch does. In expectation over batches that is L2/2 times the
// sum of squares of all those weights, while a batch touches only its
// items' rows (see rowPenalties).
//
// # The ranking objective
//
// With Config.Objective Ranking the network is the multinomial denoising
// autoencoder (Mult-DAE) of Liang, Krishnan, Hoffman and Jebara ("Variational
// Autoencoders for Collaborative Filtering", WWW 2018), in the shapes
// above: a user's interactions, the ratings of at least Config.Relevant,
// go in as a binary row scaled to unit length, of which training drops
// each entry with chance Config.Dropout (scaling the rest by
// 1/(1−Dropout)); the outputs are logits, and the loss of a batch is the
// mean over its users of −Σ log softmax(z)_i over each one's
// interactions i, plus the penalty. The softmax is over every item, or,
// with Config.Negatives, a sampled one (see sampler): per batch a set of
// negatives drawn in proportion to a power of the items' popularity,
// with the log-Q correction, so that a batch touches the rows of its
// users' interactions and of its negatives only. A ranking model predicts
// no ratings: it has no RMSE, and Scores gives each item's probability.
// See multinomial.go for where it differs from the paper. With
// RankingVAE the same network is the paper's variational autoencoder
// (Mult-VAE): the last hidden layer is the mean of a Gaussian code, a
// linear head gives its log-variance, training decodes one draw of it
// and adds an annealed KL term, and serving decodes the mean (see vae.go).
// Its default softmax is exact over at most ExactSoftmaxItems items and
// sampled beyond (AutoNegatives).
//
// # Sparsity and memory
//
// The first and last layers are items x width tables stored by item, and
// a user's forward and backward passes read and write only the rows of
// the user's items: a user costs time in proportion to the user's ratings.
// A worker's gradient holds a row per item its share of the batch rated
// (grads), the optimiser is lazy Adam (the rows a batch does not use keep
// their weights and moments), and no users x items array, nor any dense
// items x width gradient, is ever formed. Memory is the ratings (8 bytes
// each), the two tables with their Adam moments (16·items·(h₁+h_L+1)
// bytes, once for all workers), and per worker a gradient of the batch's
// items and a replica of the small dense part: about 300 MB of tables for
// 62,000 items and the default layers, which a run asks the kernel to back
// with huge pages (see training.pages).
//
// # Data parallelism
//
// Workers (Config.Workers goroutines) share each mini-batch out, each
// getting about as many ratings and as many users as the others (see
// worker.share), and take one optimiser step together. The dense
// part (the hidden layers between the tables, a few thousand values) is
// replicated: its gradient is all-reduced through a parallel.Collective and
// every replica steps alike. The tables are not: shipping their gradient
// would cost, per batch, items x width values if dense and the batch's rows
// if sparse, and parallel.Local sums on one goroutine, so even the sparse
// exchange would be serial work as large as the gradient itself, and every
// replica would then step every row. Instead one copy of the tables and
// their moments is shared by the workers of a run, and after the
// all-reduce (which is also the point after which every worker's gradient
// is complete) the workers claim the batch's rows a few at a time as they
// go, and for each sums its gradients in rank order and steps it (see
// worker.eachRow); a barrier ends the step. A worker that has finished
// its share while another is still computing does not wait idle: the rows
// of items no other share rated have their whole gradient already, and no
// other worker reads them, so it steps those meanwhile (see
// worker.stepAhead), and the rest after the all-reduce. So both the reduction and the
// optimiser step are divided among the workers, who steps a row does not
// matter, and the result depends on the number of workers only through
// the order of floating-point sums. Across processes each row has an
// owner (the items of each residue mod the processes), and the rows stay
// with their owners for the epoch: each process computes its items' part
// of every user's pass, and what crosses is a few vectors per user (see
// ownedRows).
//
// # Metrics
//
// RMSE is over test ratings, each predicted from its user's training
// ratings. For Recall@10 and NDCG@10 a user's relevant items are the test
// items rated at least Config.Relevant (4 by default); every item the user
// has not rated in training is ranked (ties to the lower item index);
// Recall@10 is the relevant items among the ten best over min(10,
// relevant), NDCG@10 uses binary gains discounted by log2(1+rank); both
// average over the users with a relevant item (after each epoch, over at
// most Config.RankUsers of them, since ranking scores every item for every
// user). Evaluate compares the model with two baselines, ItemMean and
// Popularity. Its rows also carry Recall@20 and NDCG@100, the cut-offs
// Liang et al. (2018) and Steck (2019) report, with the same definitions.
// EASE, a closed-form item-item model (see FitEASE), is a third, stronger
// baseline, and a Protocol measures every method either on the
// per-rating split (RatingsProtocol) or on held-out users
// (UsersProtocol, see HeldOutUsers).
package recommender
