package classifier

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/mallard/mallard/sqlstate"
)

// Parts of a split column's values.
const (
	PartTrain      = "train"
	PartValidation = "validation"
	PartTest       = "test"
)

// ParsePart reads a split column's value: train, validation (or val) or
// test, case-insensitively; false for anything else.
func ParsePart(v string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "train", "training":
		return PartTrain, true
	case "validation", "val", "valid":
		return PartValidation, true
	case "test", "testing":
		return PartTest, true
	}
	return "", false
}

// Splitting is how Split assigns n rows: by their parts (each a Part),
// when there are any, or by a permutation Seed draws.
type Splitting struct {
	// Fn names the function in the error of a split with no training row.
	Fn    string
	Seed  uint64
	Parts []string
	// TestFraction of the rows go to test when there are no parts, and
	// ValFraction of them (of the training rows, with parts but no
	// validation rows) to validation.
	TestFraction, ValFraction float64
}

// Split assigns the n rows to training, validation and test: by the
// parts, or by a permutation the seed draws (TestFraction of the rows to
// test, ValFraction to validation). Parts without validation rows have
// ValFraction of their training rows drawn. A split that leaves no
// training row is refused with 22023.
func (s Splitting) Split(n int) (train, val, test []int, err error) {
	rng := rand.New(rand.NewPCG(s.Seed, 0x5b117))
	if s.Parts == nil {
		perm := rng.Perm(n)
		nt := int(s.TestFraction * float64(n))
		nv := int(s.ValFraction * float64(n))
		test, val, train = perm[:nt], perm[nt:nt+nv], perm[nt+nv:]
		slices.Sort(train)
		slices.Sort(val)
		slices.Sort(test)
	} else {
		train, val, test = s.byParts(rng)
	}
	if len(train) == 0 {
		return nil, nil, nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the split of %d rows leaves none to train on", s.Fn, n).
			WithHint("Training needs at least one training row.")
	}
	return train, val, test, nil
}

// byParts assigns the rows by their parts, drawing validation rows from
// the training rows with rng where no row is a validation row.
func (s Splitting) byParts(rng *rand.Rand) (train, val, test []int) {
	for r, p := range s.Parts {
		switch p {
		case PartTrain:
			train = append(train, r)
		case PartValidation:
			val = append(val, r)
		default:
			test = append(test, r)
		}
	}
	if len(val) == 0 && s.ValFraction > 0 {
		perm := rng.Perm(len(train))
		nv := int(s.ValFraction * float64(len(train)))
		for _, k := range perm[:nv] {
			val = append(val, train[k])
		}
		slices.Sort(val)
		train = slices.DeleteFunc(train, func(r int) bool { _, found := slices.BinarySearch(val, r); return found })
	}
	return train, val, test
}
