package gat

// Anchor "auto" scores its candidates over rolling origins (see
// chooseAnchor): every candidate is fitted again before each of the
// origins (four with the default validation span), which at the default
// ladder costs about three times the fits that training and its
// evaluation need anyway (on the fitting rows and on the training rows).
// Past CatalogueEntities entities it scores them on the validation span
// alone, from the fits on the fitting rows that evaluate reuses, so that
// the anchor's choice costs no fit beyond the ladder's.

// AnchorOriginsRolling scores anchor "auto"'s candidates over every
// rolling origin.
const AnchorOriginsRolling = "rolling"

// AnchorOriginsValidation scores anchor "auto"'s candidates on the
// validation span alone: one origin, the first validation row.
const AnchorOriginsValidation = "validation"

// CatalogueEntities is the most entities for which anchor "auto" scores
// its candidates over every rolling origin unless Config.AnchorOrigins
// says otherwise.
const CatalogueEntities = 2000

// AnchorOriginRules are the values Config.AnchorOrigins may take besides
// "" (by the number of entities).
func AnchorOriginRules() []string {
	return []string{AnchorOriginsRolling, AnchorOriginsValidation}
}

// AnchorOriginsFor is where anchor "auto" scores its candidates on n
// entities under c: c.AnchorOrigins when given; else rolling up to
// CatalogueEntities entities and the validation span above, with bySize
// true when the size made that choice and it is not rolling.
func AnchorOriginsFor(c Config, n int) (rule string, bySize bool) {
	switch {
	case c.AnchorOrigins != "":
		return c.AnchorOrigins, false
	case n > CatalogueEntities:
		return AnchorOriginsValidation, true
	}
	return AnchorOriginsRolling, false
}

// anchorStarts are the first rows (indexes of train) of the origins over
// which anchor "auto" scores its candidates on m's entities: the rolling
// origins (cvStarts), or the first validation sample alone.
func anchorStarts(cfg Config, n int, train []int, valLen int) []int {
	if rule, _ := AnchorOriginsFor(cfg, n); rule == AnchorOriginsValidation && valLen > 0 {
		return []int{len(train) - valLen}
	}
	return cvStarts(train, valLen, cfg.horizon())
}
