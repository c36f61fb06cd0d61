package gat

import (
	"fmt"

	"github.com/mallard/mallard/mlops/series"
)

// ApproxNeighborsEntities is the most entities for which a neighbour-
// limited graph (Config.Neighbors between 1 and N-2) keeps each target's
// exact strongest sources (series.Windows.StrongestAllOver, O(N^2 window)
// a sample). Past it the sources come from series.Windows.NearAllOver
// with series.DefaultNear, an approximate search linear in N: the exact
// search costs 8.6 s a sample at 30,000 entities against 0.7 s, and would
// cost a hundred times the 10,000-entity graph at 100,000 entities,
// where the search finds 99.1% of the exact top-10 at the default window
// (docs/catalogue.md, "Past N series: approximate neighbours"). Up to it,
// 10,000 entities included, the graph is the exact one.
const ApproxNeighborsEntities = 20000

// approxNeighbors reports whether a graph of n entities keeping keep
// sources per target takes them from the approximate search.
func approxNeighbors(n, keep int) bool {
	return n > ApproxNeighborsEntities && keep > 0 && keep < n-1
}

// sourcesAll appends to buf the keep sources of every target of w, as
// series.Windows.StrongestAllOver lists them: the exact ones up to
// ApproxNeighborsEntities entities, the approximate search's past it.
func sourcesAll(w *series.Windows, buf []int32, keep, workers int) []int32 {
	if approxNeighbors(w.N(), keep) {
		return w.NearAllOver(buf, keep, workers, series.DefaultNear)
	}
	return w.StrongestAllOver(buf, keep, workers)
}

// NoticeApproxNeighbors calls notice with a NOTICE's text when cfg's
// graphs on n entities keep approximate sources (past
// ApproxNeighborsEntities entities with a neighbour limit below n-1).
func NoticeApproxNeighbors(cfg Config, n int, notice func(string)) {
	if cfg.NoGraph || !approxNeighbors(n, min(cfg.Neighbors, n-1)) {
		return
	}
	notice(fmt.Sprintf("train_gat: %d entities are more than %d: each sample's graph keeps the neighbors := %d sources an approximate search finds "+
		"(random-hyperplane hashing, %d tables, then %d rounds of sources of sources), not always the exact strongest correlations: the exact search costs O(entities^2) a sample; "+
		"it found %s of the exact top-10 on the catalogue's synthetic series at window 4 (docs/catalogue.md)",
		n, ApproxNeighborsEntities, cfg.Neighbors, series.DefaultNear.Tables, series.DefaultNear.Rounds, approxRecallStated))
}

// approxRecallStated is the recall NoticeApproxNeighbors states, measured
// by bench neighbours at 100,000 entities (99.9% at 10,000 and 30,000).
const approxRecallStated = "99.1%"
