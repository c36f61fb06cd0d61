package gatrun_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/sqlstate"
)

// TestServingErrorWording words package gat's serving errors as forecast
// and detect_anomalies refuse: a SQLSTATE, the function, the version and
// what to do.
func TestServingErrorWording(t *testing.T) {
	s := &gatrun.Version{Ref: mlops.Ref{Name: "vol", Version: 2}}
	other := errors.New("fit failed")
	for _, tc := range []struct {
		fn   string
		err  error
		code sqlstate.Code
		msg  string
		hint string
	}{
		{"detect_anomalies", gat.ErrNoValidation, sqlstate.ObjectNotInPrerequisiteState,
			"detect_anomalies: vol@2 was trained without validation, so method := 'auto' has nothing to choose by",
			"Train with validation_fraction above 0, or name a method."},
		{"forecast", &gat.UnfittableError{Method: "ets", Skipped: []error{errors.New("ets: too few rows")}}, sqlstate.InvalidParameterValue,
			"forecast: method 'ets' cannot be fitted on vol@2's training rows: [ets: too few rows]", "Choose another method."},
		{"forecast", fmt.Errorf("wrapped: %w", gat.ErrNoValidation), sqlstate.ObjectNotInPrerequisiteState,
			"forecast: vol@2 was trained without validation, so method := 'auto' has nothing to choose by",
			"Train with validation_fraction above 0, or name a method."},
	} {
		var e *sqlstate.Error
		if !errors.As(s.ServingError(tc.fn, tc.err), &e) || e.Code != tc.code || e.Message != tc.msg || e.Hint != tc.hint {
			t.Errorf("ServingError(%v) = %+v, want %s %q (hint %q)", tc.err, e, tc.code, tc.msg, tc.hint)
		}
	}
	if err := s.ServingError("forecast", other); err != other {
		t.Errorf("ServingError passes %v as %v", other, err)
	}
}
