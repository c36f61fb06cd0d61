package gat

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// Anchor "auto" chooses by rolling-origin validation (time series
// cross-validation: Tashman 2000; Hyndman and Athanasopoulos, "Forecasting:
// Principles and Practice", 3rd ed., section 5.10) rather than on the
// validation rows alone, which on a short series are a handful of rows
// per entity. The training rows are cut into blocks of half the
// validation span: the two blocks of the validation span and the two
// blocks of fitting rows before it. Every candidate is refitted on the
// training rows before each block and forecasts the block's rows with its
// parameters held fixed; its score is its MSE over every block's rows
// (the mean over steps 1..h at horizon h). The candidate with the lowest
// score is then fitted on every training row, as evaluate fits the
// ladder, and the network is trained on top of it.

// cvBlock is one origin of the rolling-origin validation: the candidates
// are fitted on the training samples before rows[0] and forecast rows.
type cvBlock struct {
	rows []int
	fs   []baseline.Forecaster // by candidate; nil where it could not be fitted
}

// cvStarts are the first rows of the rolling-origin blocks over the
// training samples train whose last valLen are validation samples: blocks
// of half the validation span (the whole span when half is shorter than
// the horizon h), as many of them over the validation span as over the
// fitting rows before it, and none that leaves fewer than half the
// fitting samples before it.
func cvStarts(train []int, valLen, h int) []int {
	if valLen == 0 {
		return nil
	}
	step := (valLen + 1) / 2
	if step < h {
		step = valLen
	}
	v0 := len(train) - valLen
	var starts []int
	for k := (valLen + step - 1) / step; k > 0; k-- {
		if s := v0 - k*step; s >= max(1, v0/2) {
			starts = append(starts, s)
		}
	}
	for s := v0; s < len(train); s += step {
		starts = append(starts, s)
	}
	return starts
}

// cvBlocks fits every kind on the training samples before each block
// (starts index train), up to cfg.Workers fits at once, and returns the
// blocks; with them the fits on the fitting samples alone, those before
// the block that starts at train[v0], the first validation sample, so
// that evaluate may reuse them.
func cvBlocks(cfg Config, m series.Matrix, train, starts []int, v0 int, kinds []string) ([]cvBlock, []fitted) {
	blocks := make([]cvBlock, len(starts))
	anchors := make([][]*Anchor, len(starts))
	var wg sync.WaitGroup
	slots := make(chan struct{}, max(1, cfg.Workers))
	for b, s := range starts {
		end := len(train)
		if b+1 < len(starts) {
			end = starts[b+1]
		}
		blocks[b] = cvBlock{rows: train[s:end], fs: make([]baseline.Forecaster, len(kinds))}
		anchors[b] = make([]*Anchor, len(kinds))
		for j, kind := range kinds {
			wg.Go(func() {
				slots <- struct{}{}
				defer func() { <-slots }()
				// A candidate that cannot be fitted here is left out (see cvScores).
				if a, f, err := fitOne(cfg, m, train[:s], kind); err == nil {
					blocks[b].fs[j], anchors[b][j] = f, a
				}
			})
		}
	}
	wg.Wait()
	var fits []fitted
	if b := slices.Index(starts, v0); b >= 0 {
		for _, a := range anchors[b] {
			if a != nil {
				fits = append(fits, a.fits...)
			}
		}
	}
	return blocks, fits
}

// cvScore is the rolling-origin MSE of the forecaster that build makes from
// each block's fits: the mean over the blocks, weighted by their rows, of
// its MSE over the block's rows at horizon h (see validationMSE); +Inf
// when build returns nil for a block.
func cvScore(blocks []cvBlock, m series.Matrix, h int, build func(fs []baseline.Forecaster) baseline.Forecaster) float64 {
	var sum float64
	var rows int
	for _, b := range blocks {
		f := build(b.fs)
		if f == nil {
			return math.Inf(1)
		}
		sum += validationMSE(f, m, b.rows, h) * float64(len(b.rows))
		rows += len(b.rows)
	}
	return sum / float64(rows)
}

// chooseAnchor is anchor "auto": the single candidate or the combination
// of the two or three best single ones (whichever pair or triple scores
// lower) with the lowest score over the origins anchorStarts gives (the
// rolling origins, or the validation span alone past CatalogueEntities
// entities), fitted on every training sample. Anchor.Validation holds every candidate's score. Without
// validation samples there is nothing to choose on, and the anchor is the
// last value.
func chooseAnchor(cfg Config, m series.Matrix, fit, val []int) (*Anchor, error) {
	train := slices.Concat(fit, val)
	starts := anchorStarts(cfg, m.N, train, len(val))
	if len(starts) == 0 {
		a, _, err := fitOne(cfg, m, train, AnchorLastValue)
		return a, err
	}
	kinds := candidateKinds(cfg, m.N)
	blocks, fits := cvBlocks(cfg, m, train, starts, len(fit), kinds)
	// A candidate that cannot be fitted on the most rows, those before
	// the last block, is not a candidate; a block before which another
	// one cannot be fitted (too few rows) is left out for all.
	last := blocks[len(blocks)-1]
	blocks = slices.DeleteFunc(blocks, func(b cvBlock) bool {
		for j := range kinds {
			if b.fs[j] == nil && last.fs[j] != nil {
				return true
			}
		}
		return false
	})
	h := cfg.horizon()
	scores := map[string]float64{}
	var order []int
	for j, kind := range kinds {
		if last.fs[j] == nil {
			continue
		}
		scores[kind] = cvScore(blocks, m, h, func(fs []baseline.Forecaster) baseline.Forecaster { return fs[j] })
		order = append(order, j)
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("gat: no anchor could be fitted")
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[kinds[a]], scores[kinds[b]]) })
	best, bestScore := []string{kinds[order[0]]}, scores[kinds[order[0]]]
	combined := math.Inf(1)
	for n := 2; n <= min(3, len(order)); n++ {
		s := combinedScore(blocks, m, h, order[:n], false)
		combined = min(combined, s)
		if s < bestScore {
			best, bestScore = kindsAt(kinds, order[:n]), s
		}
	}
	if !math.IsInf(combined, 1) {
		scores[AnchorCombination] = combined
	}
	median := false
	if s, ok := fixedScore(cfg, blocks, m, kinds, last); ok {
		scores[cfg.CombineFixed] = s
		if s < bestScore {
			best, median = fixedMembers(), cfg.CombineFixed == AnchorETSARIMAThetaMedian
		}
	}
	a, chosen, err := fitChosen(cfg, m, train, best)
	if err != nil {
		return nil, err
	}
	a.Median, a.Validation, a.fits = median, scores, append(fits, chosen...)
	return a, nil
}

// combinedScore is the rolling-origin score (see cvScore) of the
// equal-weight mean of the candidates js, or of their median.
func combinedScore(blocks []cvBlock, m series.Matrix, h int, js []int, median bool) float64 {
	return cvScore(blocks, m, h, func(fs []baseline.Forecaster) baseline.Forecaster {
		mean := &baseline.Mean{Median: median}
		for _, j := range js {
			mean.Members = append(mean.Members, fs[j])
		}
		return mean
	})
}

// fixedScore is the rolling-origin score of cfg.CombineFixed, the fixed
// combination "auto" also weighs; ok is false when there is none or one
// of its members was not fitted.
func fixedScore(cfg Config, blocks []cvBlock, m series.Matrix, kinds []string, last cvBlock) (score float64, ok bool) {
	fixed := fixedIndices(kinds, last)
	if cfg.CombineFixed == "" || fixed == nil {
		return 0, false
	}
	return combinedScore(blocks, m, cfg.horizon(), fixed, cfg.CombineFixed == AnchorETSARIMAThetaMedian), true
}

// kindsAt returns the kinds at js.
func kindsAt(kinds []string, js []int) []string {
	out := make([]string, len(js))
	for i, j := range js {
		out[i] = kinds[j]
	}
	return out
}

// fixedIndices are the indices in kinds of AnchorETSARIMATheta's members,
// nil unless each is among them and fitted before the last block.
func fixedIndices(kinds []string, last cvBlock) []int {
	var out []int
	for _, k := range fixedMembers() {
		j := slices.Index(kinds, k)
		if j < 0 || last.fs[j] == nil {
			return nil
		}
		out = append(out, j)
	}
	return out
}

// fitChosen fits the anchor of kinds on the samples train: the single
// candidate, or the combination of several. It returns with it the
// baselines it fitted, which the ladder on the same samples reuses
// rather than fitting them again.
func fitChosen(cfg Config, m series.Matrix, train []int, kinds []string) (*Anchor, []fitted, error) {
	if len(kinds) == 1 {
		a, _, err := fitOne(cfg, m, train, kinds[0])
		if err != nil {
			return nil, nil, err
		}
		return a, a.fits, nil
	}
	a := &Anchor{Kind: AnchorCombination}
	var fits []fitted
	for _, kind := range kinds {
		member, _, err := fitOne(cfg, m, train, kind)
		if err != nil {
			return nil, nil, err
		}
		fits = append(fits, member.fits...)
		if member, err = standalone(cfg, m, train, member); err != nil {
			return nil, nil, err
		}
		a.Members = append(a.Members, member)
	}
	return a, fits, nil
}
