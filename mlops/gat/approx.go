package gat

import (
	"fmt"

	"github.com/mallard/mallard/mlops/series"
)

// ApproxNeighborsEntities is the most entities for which a neighbour-
// limited graph (Config.Neighbors between 1 and N-2) keeps each target's
// exact strongest sources (series.Windows.StrongestAllOver, O(N^2 window)
// a sample). Past it the sources come from series.Windows.NearAllOver
// with series.DefaultNear, an approximate search linear in N (but for a
// sort). Measured on the catalogue's synthetic series at the default
// window of 4 (docs/catalogue.md, "Past N series: approximate
// neighbours"): the exact search takes 1.6 s a sample at 30,000 entities
// and 16.1 s at 100,000 against 0.3 s and 0.7 s, and the approximate one
// finds the exact top-10 (recall 1.000; 0.83 at a window of 12). Up to
// the limit, 10,000 entities and every public set included, the graph is
// the exact one; at 20,000 the exact search costs about four times the
// 10,000-entity graph.
const ApproxNeighborsEntities = 20000

// approxNeighbors reports whether a graph of n entities keeping keep
// sources per target takes them from the approximate search.
func approxNeighbors(n, keep int) bool {
	return n > ApproxNeighborsEntities && keep > 0 && keep < n-1
}

// ApproxNeighborsBytes is what the approximate search of a graph of n
// entities keeping keep sources per target holds beside its result, at
// workers workers: per worker 20 bytes an entity for the current table's
// keys and 4 for a round's marks, and a round's copy of the sources (4
// bytes an edge); 0 where the graph is the exact one.
func ApproxNeighborsBytes(n, keep, workers int) int64 {
	if !approxNeighbors(n, keep) {
		return 0
	}
	return int64(max(1, workers))*24*int64(n) + 4*int64(n)*int64(keep)
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
		"its recall of the exact top-10 on 100,000 synthetic series was %s (docs/catalogue.md)",
		n, ApproxNeighborsEntities, cfg.Neighbors, series.DefaultNear.Tables, series.DefaultNear.Rounds, approxRecallStated))
}

// approxRecallStated is the recall NoticeApproxNeighbors states, measured
// by bench neighbours on 100,000 series of the catalogue's twin.
const approxRecallStated = "1.000 at window 4 and 0.83 at window 12"
