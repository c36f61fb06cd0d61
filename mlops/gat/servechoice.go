package gat

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops/baseline"
)

// Choose fits the version's methods on the fitting samples and names each
// entity's method with the lowest validation MSE over steps 1..h
// (ChooseEntities; the network where none could be measured), and that
// MSE.
func (s *Serving) Choose(fit, val []int, h int) (fs []baseline.Forecaster, names []string, mse []float64, err error) {
	fs, _, err = s.Ladder(s.Data, fit)
	if err != nil {
		return nil, nil, nil, err
	}
	choice, mse := ChooseEntities(fs, s.Data, val[0], val[len(val)-1]+1, h)
	names = make([]string, len(choice))
	for i, c := range choice {
		names[i] = fs[max(c, 0)].Name()
	}
	return fs, names, mse, nil
}

// PerEntity forecasts entity i with the member of fs named names[i].
func PerEntity(fs []baseline.Forecaster, names []string) (*baseline.PerEntity, error) {
	p := &baseline.PerEntity{Members: fs, Choice: make([]int, len(names))}
	for i, name := range names {
		p.Choice[i] = slices.IndexFunc(fs, func(f baseline.Forecaster) bool { return f.Name() == name })
		if p.Choice[i] < 0 {
			return nil, fmt.Errorf("method %s chosen for entity %d cannot be fitted on these rows", name, i)
		}
	}
	return p, nil
}

// Summary says how many entities each method was chosen for, most first:
// "gat for 6 entities, ets for 5, theta for 3".
func (c *Choice) Summary() string {
	counts := map[string]int{}
	for _, n := range c.Names {
		counts[n]++
	}
	keys := slices.Collect(maps.Keys(counts))
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(counts[b]-counts[a], strings.Compare(a, b)) })
	parts := make([]string, len(keys))
	for k, name := range keys {
		parts[k] = fmt.Sprintf("%s for %d", name, counts[name])
		if k == 0 && counts[name] != 1 {
			parts[k] += " entities"
		} else if k == 0 {
			parts[k] += " entity"
		}
	}
	return strings.Join(parts, ", ")
}
