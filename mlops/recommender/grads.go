package recommender

// grads is one worker's gradient of a batch: the dense part in net.dense's
// layout, and a row of each table for every item its users rated, in the
// order first rated (the item's slot). Its size is bounded by the batch's
// ratings, never by the number of items.
type grads struct {
	dense []float64
	items []int32   // the item of each slot
	ahead []bool    // by slot: whether its rows were stepped ahead (see worker.stepAhead)
	enc   []float64 // slot s: enc[s·h₁ : (s+1)·h₁]
	dec   []float64 // slot s: dec[s·(h_L+1) : (s+1)·(h_L+1)]
	wEnc  int
	wDec  int
	slot  []int32  // item j's slot, valid when mark[j] == gen
	mark  []uint32 // the batch in which each item last got a slot
	gen   uint32
}

func newGrads(n *net) *grads {
	return &grads{dense: make([]float64, len(n.dense)), wEnc: n.sizes[0], wDec: n.sizes[len(n.sizes)-1] + 1,
		slot: make([]int32, n.items), mark: make([]uint32, n.items)}
}

// reset empties g for the next batch.
func (g *grads) reset() {
	clear(g.dense)
	g.items, g.ahead, g.enc, g.dec = g.items[:0], g.ahead[:0], g.enc[:0], g.dec[:0]
	if g.gen++; g.gen == 0 {
		clear(g.mark)
		g.gen = 1
	}
}

// find returns item j's slot, and false if it has none.
func (g *grads) find(j int32) (int, bool) {
	if g.mark[j] != g.gen {
		return 0, false
	}
	return int(g.slot[j]), true
}

// row returns item j's gradient rows, giving it a zeroed slot if it has none.
func (g *grads) row(j int32) (enc, dec []float64) {
	s, ok := g.find(j)
	if !ok {
		s = len(g.items)
		g.items = append(g.items, j)
		g.ahead = append(g.ahead, false)
		g.slot[j], g.mark[j] = int32(s), g.gen
		g.enc = grown(g.enc, g.wEnc)
		g.dec = grown(g.dec, g.wDec)
	}
	return g.enc[s*g.wEnc : (s+1)*g.wEnc], g.dec[s*g.wDec : (s+1)*g.wDec]
}

// grown returns buf extended by n zeros.
func grown(buf []float64, n int) []float64 {
	if len(buf)+n > cap(buf) {
		buf = append(make([]float64, 0, 2*cap(buf)+n), buf...)
	}
	buf = buf[:len(buf)+n]
	clear(buf[len(buf)-n:])
	return buf
}
