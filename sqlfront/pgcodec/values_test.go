package pgcodec_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/mallard/mallard/sqlfront/pgcodec"
)

func TestStringAt(t *testing.T) {
	large := array.NewLargeStringBuilder(mem())
	defer large.Release()
	large.AppendValues([]string{"x", "large"}, nil)
	view := array.NewStringViewBuilder(mem())
	defer view.Release()
	view.AppendValues([]string{"x", "a view longer than twelve bytes"}, nil)
	tests := []struct {
		name   string
		arr    arrow.Array
		want   string
		wantOK bool
	}{
		{"utf8", strArr("x", "plain"), "plain", true},
		{"large utf8", large.NewArray(), "large", true},
		{"string view", view.NewArray(), "a view longer than twelve bytes", true},
		{"dictionary", enumArr([]string{"a", "b"}, 0, 1), "b", true},
		{"integer", i16Arr(1, 2), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer tt.arr.Release()
			if got, ok := pgcodec.StringAt(tt.arr, 1); got != tt.want || ok != tt.wantOK {
				t.Errorf("StringAt(%s, 1) = %q, %v; want %q, %v", tt.arr.DataType(), got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
