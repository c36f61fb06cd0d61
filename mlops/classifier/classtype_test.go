package classifier_test

import (
	"slices"
	"testing"

	"github.com/mallard/mallard/mlops/classifier"
)

// TestClassTypeValue: classes read back in their label's type; text, and
// a class that does not read as the type, stay text.
func TestClassTypeValue(t *testing.T) {
	for _, tc := range []struct {
		typ   classifier.ClassType
		class string
		want  any
	}{
		{"BOOLEAN", "true", true}, {"TINYINT", "-3", int8(-3)}, {"SMALLINT", "300", int16(300)},
		{"INTEGER", "7", int32(7)}, {"BIGINT", "7", int64(7)}, {"UTINYINT", "200", uint8(200)},
		{"USMALLINT", "7", uint16(7)}, {"UINTEGER", "7", uint32(7)}, {"UBIGINT", "7", uint64(7)},
		{"", "7", "7"}, {"DOUBLE", "7.5", "7.5"}, {"INTEGER", "seven", "seven"}, {"BOOLEAN", "maybe", "maybe"},
	} {
		if got := tc.typ.Value(tc.class); got != tc.want {
			t.Errorf("%s.Value(%q) = %#v; want %#v", tc.typ, tc.class, got, tc.want)
		}
	}
}

// TestClassTypeSorted: integer classes sort by value, text classes and
// booleans as strings.
func TestClassTypeSorted(t *testing.T) {
	for _, tc := range []struct {
		typ        classifier.ClassType
		keys, want []string
	}{
		{"INTEGER", []string{"10", "9", "-1"}, []string{"-1", "9", "10"}},
		{"", []string{"10", "9", "-1"}, []string{"-1", "10", "9"}},
		{"BOOLEAN", []string{"true", "false"}, []string{"false", "true"}},
	} {
		if got := tc.typ.Sorted(slices.Clone(tc.keys)); !slices.Equal(got, tc.want) {
			t.Errorf("%q.Sorted(%q) = %q; want %q", tc.typ, tc.keys, got, tc.want)
		}
	}
}
