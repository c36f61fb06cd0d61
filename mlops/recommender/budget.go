package recommender

// RatingsBytes estimates the memory n ratings take while they are read and
// split: the builder's triple (4-byte user and item, 4-byte value), the
// ratings it finishes (4-byte item and value) and the split's copy of
// them, 28 bytes a rating, rounded up to 32 for the per-user row pointers
// and id maps.
func RatingsBytes(n int64) int64 { return 32 * n }

// TablesBytes estimates the memory of the item tables a training run over
// items items holds besides the ratings: the encoder and decoder tables
// (float64, shapes gives their lengths), Adam's two float32 moments a
// weight, the encoded artifact (another copy of the tables) and, with
// more than one worker, each worker's 4-byte mark a item. The dense part
// between the tables does not grow with the data and is not counted.
func TablesBytes(cfg Config, items int) int64 {
	enc := int64(items) * int64(cfg.Hidden[0])
	dec := int64(items) * int64(cfg.Hidden[len(cfg.Hidden)-1]+1)
	weights := enc + dec
	bytes := 2 * 8 * weights // the tables and the artifact
	if cfg.Optimizer == "adam" {
		bytes += 2 * 4 * weights
	}
	if cfg.Workers > 1 {
		bytes += int64(cfg.Workers) * 4 * int64(items)
	}
	return bytes
}
