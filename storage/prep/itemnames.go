//go:build duckdb_arrow

package prep

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/mallard/mallard/mlops/recommender"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// Describer runs queries, and describes a query's columns without
// running it, as the calling session would.
type Describer interface {
	Reader
	Describe(ctx context.Context, query string) ([]storage.Column, error)
}

// tableName matches a table's name, schema- and catalog-qualified or not,
// each part an identifier, plain or double-quoted: what item_names may
// name, and nothing a reader could run.
var tableName = regexp.MustCompile(`^\s*("([^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)(\s*\.\s*("([^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)){0,2}\s*$`)

// ReadItemNames checks item_names := text, "table.column" (the table may be
// schema-qualified and either part double-quoted), against the catalog:
// the table must exist and have the column and the ratings' item column,
// as recommend's items := table does; fn is the function that asks.
func ReadItemNames(ctx context.Context, d Describer, fn, text string, cols recommender.Columns) (recommender.ItemNames, error) {
	arg := "item_names := " + Quote(text)
	table, column, ok := splitLastDot(strings.TrimSpace(text))
	if !ok {
		return recommender.ItemNames{}, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s is not table.column", fn, arg).
			WithHint("Name the table of items and its column of names, for example item_names := 'movies.title'.")
	}
	if !tableName.MatchString(table) {
		return recommender.ItemNames{}, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s: %s is not a table name", fn, arg, table).
			WithHint("Name a table or a view, optionally schema-qualified, for example item_names := 'movies.title'.")
	}
	src := &Source{Fn: fn, Text: table, From: table}
	described, err := d.Describe(ctx, "SELECT * FROM "+table)
	if err != nil {
		var e *sqlstate.Error
		if !errors.As(err, &e) || e.Code == sqlstate.QueryCanceled {
			return recommender.ItemNames{}, err
		}
		out := *e
		out.Position = 0
		out.Message = fn + ": " + arg + ": " + e.Message
		if e.Code == sqlstate.UndefinedTable {
			out.Hint = strings.TrimSpace(e.Hint + " " + TemporaryHint)
		}
		return recommender.ItemNames{}, &out
	}
	src.Cols = described
	names := recommender.ItemNames{Table: qualified(ctx, d, table)}
	find := func(name, what, hint string) (string, error) {
		i, err := src.Column("item_names", name)
		if err != nil {
			return "", sqlstate.New(sqlstate.UndefinedColumn, "%s: %s: table %s has no column %s%s", fn, arg, table, name, what).
				WithHint("It has columns %s.%s", src.ColumnList(), hint)
		}
		return src.Cols[i].Name, nil
	}
	names.Key, err = find(cols.Item, ", the item column of the ratings (item := "+Quote(cols.Item)+")",
		" A view can give its id column that name: CREATE VIEW item_names AS SELECT id AS "+Ident(cols.Item)+", name FROM ...")
	if err != nil {
		return recommender.ItemNames{}, err
	}
	if names.Column, err = find(column, "", ""); err != nil {
		return recommender.ItemNames{}, err
	}
	if names.Column == names.Key {
		return recommender.ItemNames{}, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s names the item column itself; name the column that holds the items' names",
			fn, arg).WithHint("Table %s has columns %s.", table, src.ColumnList())
	}
	return names, nil
}

// qualified is table as a reader without the caller's schema and search
// path (the dashboard) finds it: an unqualified name gets the schema it
// resolves to for the caller. A name it cannot place stays as it is.
func qualified(ctx context.Context, d Describer, table string) string {
	if _, _, dotted := splitLastDot(table); dotted {
		return table
	}
	rd, err := d.Read(ctx, "SELECT current_schema() UNION ALL SELECT trim(unnest(string_split(current_setting('search_path'), ',')))")
	if err != nil {
		return table
	}
	defer rd.Close()
	var schemas []string
	for rd.Next() {
		col := rd.Batch().Column(0).(interface {
			IsNull(int) bool
			Value(int) string
		})
		for i := range int(rd.Batch().NumRows()) {
			if !col.IsNull(i) && col.Value(i) != "" {
				schemas = append(schemas, strings.Clone(col.Value(i)))
			}
		}
	}
	for _, schema := range schemas {
		name := sqlName(schema) + "." + table
		if _, err := d.Describe(ctx, "SELECT * FROM "+name); err == nil {
			return name
		}
	}
	return table
}

// sqlName is name as an identifier: as it is when it needs no quotes.
func sqlName(name string) string {
	for i, r := range name {
		if !(r == '_' || 'a' <= r && r <= 'z' || i > 0 && '0' <= r && r <= '9') {
			return Ident(name)
		}
	}
	return name
}

// splitLastDot splits text at its last dot outside double quotes, and
// unquotes the part after it: "movies.title" is movies and title, and
// 'main."my.movies"."title"' is main."my.movies" and title.
func splitLastDot(text string) (table, column string, ok bool) {
	at, quoted := -1, false
	for i, r := range text {
		switch {
		case r == '"':
			quoted = !quoted
		case r == '.' && !quoted:
			at = i
		}
	}
	if at <= 0 || at == len(text)-1 || quoted {
		return "", "", false
	}
	table, column = strings.TrimSpace(text[:at]), strings.TrimSpace(text[at+1:])
	if len(column) >= 2 && column[0] == '"' && column[len(column)-1] == '"' {
		column = strings.ReplaceAll(column[1:len(column)-1], `""`, `"`)
	}
	return table, column, table != "" && column != ""
}
