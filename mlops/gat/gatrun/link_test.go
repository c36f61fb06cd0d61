package gatrun_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/mlops/scale"
	"github.com/mallard/mallard/sqlstate"
)

// TestNewLink finds each entity's column of the scaler, in the entities'
// order, and refuses a scaler without one of them, naming it.
func TestNewLink(t *testing.T) {
	s := scale.Scaler{Columns: []string{"c", "a", "b"}, Mean: []float64{3, 1, 2}, Std: []float64{1, 1, 1}}
	l, err := gatrun.NewLink(s, "vol", []string{"a", "b", "c"})
	if err != nil || !reflect.DeepEqual(l.Column, []int{1, 2, 0}) {
		t.Fatalf("NewLink = %+v, %v; want columns [1 2 0]", l, err)
	}
	_, err = gatrun.NewLink(s, "vol", []string{"a", "z"})
	var e *sqlstate.Error
	if !errors.As(err, &e) || e.Code != sqlstate.InvalidParameterValue || e.Message != "train_gat: scaler 'vol' has no column z" {
		t.Errorf("NewLink without a column: %v, want 22023 naming the scaler and the entity", err)
	}
}
