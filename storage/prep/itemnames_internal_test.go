//go:build duckdb_arrow

package prep

import "testing"

// splitLastDot splits item_names := 'table.column' at the last dot
// outside double quotes and unquotes the column.
func TestSplitLastDot(t *testing.T) {
	for _, tc := range []struct {
		text, table, column string
		ok                  bool
	}{
		{"movies.title", "movies", "title", true},
		{"main.movies.title", "main.movies", "title", true},
		{` items . title `, "items", "title", true},
		{`main."my.movies"."ti""tle"`, `main."my.movies"`, `ti"tle`, true},
		{"movies", "", "", false},
		{".title", "", "", false},
		{"movies.", "", "", false},
		{`"movies.title`, "", "", false},
	} {
		table, column, ok := splitLastDot(tc.text)
		if table != tc.table || column != tc.column || ok != tc.ok {
			t.Errorf("splitLastDot(%q) = %q, %q, %v; want %q, %q, %v", tc.text, table, column, ok, tc.table, tc.column, tc.ok)
		}
	}
}

// sqlName quotes a schema name only where it needs quotes.
func TestSQLName(t *testing.T) {
	for name, want := range map[string]string{"main": "main", "my_schema2": "my_schema2", "My": `"My"`, "2x": `"2x"`, `a"b`: `"a""b"`} {
		if got := sqlName(name); got != want {
			t.Errorf("sqlName(%q) = %s, want %s", name, got, want)
		}
	}
}
