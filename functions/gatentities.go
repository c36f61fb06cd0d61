//go:build duckdb_arrow

package functions

import (
	"context"

	"github.com/mallard/mallard/sqlstate"
)

const evaluateEntitiesName = "evaluate_entities"

func evaluateEntitiesFunction() tableFunction {
	return typedFunction(evaluateEntitiesName,
		[]column{{"entity", pgText}, {"method", pgText}, {"val_mse", pgDouble}, {"test_mse", pgDouble}, {"chosen", pgBool}},
		bindEvaluateEntities, nil)
}

// bindEvaluateEntities scores every method of a GAT version (the network
// and the ladder) on every entity: entity, method, val_mse (fitted on the
// fitting rows, over the validation rows) and test_mse (fitted on the
// fitting and validation rows, over the test rows), each the mean over
// steps 1..horizon of that step's MSE, and chosen: the method forecast's
// and evaluate's 'auto' take for the entity, the lowest val_mse.
func bindEvaluateEntities(c *call, o *entitiesArgs) (*table, error) {
	s, err := loadGAT(c, evaluateEntitiesName, o.modelVersion)
	if err != nil {
		return nil, err
	}
	if err := s.NeedsData(evaluateEntitiesName, "auto"); err != nil {
		return nil, err
	}
	m, _ := s.Matrix()
	fit, val, test, err := s.Model.Config.Samples(m)
	if err != nil {
		return nil, err
	}
	h := o.Horizon
	if h > len(test) {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: horizon := %d is beyond the test span of %d rows", evaluateEntitiesName, h, len(test)).
			WithHint("Choose a horizon from 1 to %d.", len(test))
	}
	if len(val) == 0 {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: %s was trained without validation, so there is nothing to choose by", evaluateEntitiesName, s.Ref).
			WithHint("Train with validation_fraction above 0.")
	}
	return &table{open: func(context.Context) (*run, error) {
		scores, chosen, err := s.Serving().EntityScores(fit, val, test, h)
		if err != nil {
			return nil, err
		}
		var rows [][]any
		for _, sc := range scores {
			for i, name := range s.Entities {
				rows = append(rows, []any{name, sc.Method, nanNull(sc.ValMSE[i]), nanNull(sc.TestMSE[i]), chosen[i] == sc.Method})
			}
		}
		return rowsRun(rows), nil
	}}, nil
}
