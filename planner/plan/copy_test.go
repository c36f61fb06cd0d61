package plan_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mallard/mallard/planner/plan"
	"github.com/mallard/mallard/sqlstate"
)

// textIn returns COPY t FROM STDIN with text format's defaults.
func textIn() plan.Copy {
	return plan.Copy{FromStdin: true, Table: "t", Format: "text", Delimiter: "\t", Null: `\N`}
}

// csvOut returns COPY t TO STDOUT with csv format's defaults.
func csvOut() plan.Copy {
	return plan.Copy{Table: "t", Format: "csv", Delimiter: ",", Null: "", Quote: `"`, Escape: `"`}
}

// with returns c after applying edit to it.
func with(c plan.Copy, edit func(*plan.Copy)) plan.Copy {
	edit(&c)
	return c
}

func TestParseCopy(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  plan.Copy
	}{
		{"from stdin", "COPY t FROM STDIN", textIn()},
		{"binary", "COPY t FROM STDIN (FORMAT binary)", plan.Copy{FromStdin: true, Table: "t", Format: "binary"}},
		{"binary as pgx sends it", `copy "t" ( "a", "b" ) from stdin binary;`,
			plan.Copy{FromStdin: true, Table: `"t"`, Columns: []string{`"a"`, `"b"`}, Format: "binary"}},
		{"binary before table", "COPY BINARY t FROM STDIN", plan.Copy{FromStdin: true, Table: "t", Format: "binary"}},
		{"lower-case stdin with semicolon", "copy t from stdin;", textIn()},
		{"to stdout", "COPY t TO STDOUT", with(textIn(), func(c *plan.Copy) { c.FromStdin = false })},
		{"qualified with columns", `COPY public.t (a, "B c") FROM STDIN`, with(textIn(), func(c *plan.Copy) {
			c.Table, c.Columns = "public.t", []string{"a", `"B c"`}
		})},
		{"quoted table", `COPY "My Schema"."T" FROM STDIN`,
			with(textIn(), func(c *plan.Copy) { c.Table = `"My Schema"."T"` })},
		{"query to stdout csv header", "COPY (SELECT 1, 'a)' ) TO STDOUT WITH CSV HEADER",
			with(csvOut(), func(c *plan.Copy) { c.Table, c.Query, c.Header = "", "SELECT 1, 'a)'", true })},
		{"query with nested parentheses", "COPY ((SELECT 1) UNION (SELECT 2)) TO STDOUT",
			plan.Copy{Query: "(SELECT 1) UNION (SELECT 2)", Format: "text", Delimiter: "\t", Null: `\N`}},
		{"old style delimiter without with", "COPY t FROM STDIN DELIMITER ','",
			with(textIn(), func(c *plan.Copy) { c.Delimiter = "," })},
		{"old style everything", `COPY t TO STDOUT WITH CSV HEADER DELIMITER AS ';' NULL AS 'x' QUOTE AS '''' ESCAPE AS '\' FORCE QUOTE *`,
			with(csvOut(), func(c *plan.Copy) {
				c.Header, c.Delimiter, c.Null, c.Quote, c.Escape, c.ForceQuote = true, ";", "x", "'", `\`, []string{"*"}
			})},
		{"old style without as", "COPY t TO STDOUT CSV QUOTE '\"' FORCE QUOTE a, \"B\"",
			with(csvOut(), func(c *plan.Copy) { c.ForceQuote = []string{"a", `"B"`} })},
		{"old style e string delimiter", `COPY t FROM STDIN WITH DELIMITER E'\x7c' NULL ''`,
			with(textIn(), func(c *plan.Copy) { c.Delimiter, c.Null = "|", "" })},
		{"old style with only", "COPY t FROM STDIN WITH", textIn()},
		{"new style", `COPY t FROM STDIN WITH (FORMAT csv, HEADER true, DELIMITER ',', NULL 'x', QUOTE '"', ESCAPE '\')`,
			with(csvOut(), func(c *plan.Copy) {
				c.FromStdin, c.Header, c.Null, c.Escape = true, true, "x", `\`
			})},
		{"new style without with", "COPY t TO STDOUT (FORMAT 'CSV', HEADER)",
			with(csvOut(), func(c *plan.Copy) { c.Header = true })},
		{"new style bare values", "copy t from stdin (format text, delimiter '|', null NA, header off)",
			with(textIn(), func(c *plan.Copy) { c.Delimiter, c.Null = "|", "na" })},
		{"new style header 1", "COPY t FROM STDIN (HEADER 1)", with(textIn(), func(c *plan.Copy) { c.Header = true })},
		{"new style header on", "COPY t FROM STDIN (HEADER on)", with(textIn(), func(c *plan.Copy) { c.Header = true })},
		{"new style header false", "COPY t FROM STDIN (HEADER false)", textIn()},
		{"new style header 0", "COPY t FROM STDIN (HEADER 0)", textIn()},
		{"new style force quote list", "COPY t TO STDOUT (FORMAT csv, FORCE_QUOTE (a, b))",
			with(csvOut(), func(c *plan.Copy) { c.ForceQuote = []string{"a", "b"} })},
		{"new style force quote star", "COPY t TO STDOUT (FORMAT csv, FORCE_QUOTE *)",
			with(csvOut(), func(c *plan.Copy) { c.ForceQuote = []string{"*"} })},
		{"new style tab delimiter", `COPY t FROM STDIN (DELIMITER E'\t', ENCODING 'utf-8', FREEZE)`, textIn()},
		{"new style dollar-quoted null", "COPY t FROM STDIN (NULL $$-$$)", with(textIn(), func(c *plan.Copy) { c.Null = "-" })},
		{"csv escape defaults to quote", "COPY t TO STDOUT (FORMAT csv, QUOTE '''')",
			with(csvOut(), func(c *plan.Copy) { c.Quote, c.Escape = "'", "'" })},
		{"comments", "/* c */ COPY t -- x\n FROM STDIN", textIn()},
		{"table named binary", "COPY binary FROM STDIN", with(textIn(), func(c *plan.Copy) { c.Table = "binary" })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := plan.ParseCopy(tt.input)
			if err != nil || !ok {
				t.Fatalf("ParseCopy(%q) = _, %v, %v; want ok", tt.input, ok, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseCopy(%q) =\n %#v\nwant\n %#v", tt.input, got, tt.want)
			}
		})
	}
}

func TestParseCopyServerSide(t *testing.T) {
	tests := []struct {
		name  string
		input string
	}{
		{"from file", "COPY t FROM 'data.csv'"},
		{"to file with options", "COPY t TO 'out.parquet' (FORMAT parquet)"},
		{"query to file", "COPY (SELECT 'STDOUT') TO 'out.csv'"},
		{"stdout only inside parentheses", "COPY (SELECT stdout FROM t) TO 'out.csv'"},
		{"database copy", "COPY FROM DATABASE a TO b"},
		{"program", "COPY t FROM PROGRAM 'cat x'"},
		{"unterminated query, left to the engine", "COPY (SELECT 1 TO STDOUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok, err := plan.ParseCopy(tt.input)
			if ok || err != nil {
				t.Errorf("ParseCopy(%q) = _, %v, %v; want not ok and no error", tt.input, ok, err)
			}
		})
	}
}

func TestParseCopyErrors(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		wantCode sqlstate.Code
	}{
		{"not copy", "SELECT 1", sqlstate.SyntaxError},
		{"unknown new option", "COPY t FROM STDIN (FORMAT csv, BOGUS 1)", sqlstate.SyntaxError},
		{"unknown old option", "COPY t FROM STDIN WITH CSV OIDS", sqlstate.SyntaxError},
		{"repeated option", "COPY t FROM STDIN (HEADER, HEADER)", sqlstate.SyntaxError},
		{"repeated old format", "COPY t FROM STDIN CSV CSV", sqlstate.SyntaxError},
		{"bad boolean", "COPY t FROM STDIN (HEADER maybe)", sqlstate.SyntaxError},
		{"missing value", "COPY t FROM STDIN (DELIMITER)", sqlstate.SyntaxError},
		{"old style value not a string", "COPY t FROM STDIN DELIMITER AS x", sqlstate.SyntaxError},
		{"unclosed options", "COPY t FROM STDIN (FORMAT csv", sqlstate.SyntaxError},
		{"missing comma", "COPY t FROM STDIN (FORMAT csv HEADER)", sqlstate.SyntaxError},
		{"unterminated string", "COPY t FROM STDIN DELIMITER 'x", sqlstate.SyntaxError},
		{"trailing text", "COPY t FROM STDIN; SELECT 1", sqlstate.SyntaxError},
		{"missing direction", "COPY t STDIN", sqlstate.SyntaxError},
		{"bad column list", "COPY t (a b) FROM STDIN", sqlstate.SyntaxError},
		{"query from stdin", "COPY (SELECT 1) FROM STDIN", sqlstate.SyntaxError},
		{"binary to stdout", "COPY t TO STDOUT (FORMAT binary)", sqlstate.FeatureNotSupported},
		{"old binary to stdout", "COPY t TO STDOUT WITH BINARY", sqlstate.FeatureNotSupported},
		{"binary with delimiter", "COPY t FROM STDIN (FORMAT binary, DELIMITER ',')", sqlstate.SyntaxError},
		{"binary with null", "COPY t FROM STDIN BINARY NULL 'x'", sqlstate.SyntaxError},
		{"binary with header", "COPY t FROM STDIN (FORMAT binary, HEADER false)", sqlstate.SyntaxError},
		{"binary twice", "COPY BINARY t FROM STDIN BINARY", sqlstate.SyntaxError},
		{"unknown format", "COPY t FROM STDIN (FORMAT json)", sqlstate.InvalidParameterValue},
		{"where", "COPY t FROM STDIN WHERE a > 1", sqlstate.FeatureNotSupported},
		{"force not null", "COPY t FROM STDIN CSV FORCE NOT NULL a", sqlstate.FeatureNotSupported},
		{"force null", "COPY t FROM STDIN (FORMAT csv, FORCE_NULL (a))", sqlstate.FeatureNotSupported},
		{"header match", "COPY t FROM STDIN (HEADER match)", sqlstate.FeatureNotSupported},
		{"latin1 encoding", "COPY t FROM STDIN (ENCODING 'LATIN1')", sqlstate.FeatureNotSupported},
		{"quote in text mode", "COPY t FROM STDIN (QUOTE '\"')", sqlstate.FeatureNotSupported},
		{"escape in text mode", "COPY t FROM STDIN ESCAPE '\\'", sqlstate.FeatureNotSupported},
		{"force quote in text mode", "COPY t TO STDOUT FORCE QUOTE *", sqlstate.FeatureNotSupported},
		{"force quote on copy from", "COPY t FROM STDIN CSV FORCE QUOTE *", sqlstate.FeatureNotSupported},
		{"long delimiter", "COPY t FROM STDIN DELIMITER '||'", sqlstate.InvalidParameterValue},
		{"empty delimiter", "COPY t FROM STDIN (DELIMITER '')", sqlstate.InvalidParameterValue},
		{"multi-byte delimiter", "COPY t FROM STDIN DELIMITER 'é'", sqlstate.InvalidParameterValue},
		{"newline delimiter", `COPY t FROM STDIN DELIMITER E'\n'`, sqlstate.InvalidParameterValue},
		{"backslash delimiter in text", `COPY t FROM STDIN DELIMITER '\'`, sqlstate.InvalidParameterValue},
		{"letter delimiter in text", "COPY t FROM STDIN DELIMITER 'a'", sqlstate.InvalidParameterValue},
		{"delimiter in null", "COPY t FROM STDIN CSV DELIMITER ',' NULL 'a,b'", sqlstate.InvalidParameterValue},
		{"newline in null", `COPY t FROM STDIN NULL E'a\nb'`, sqlstate.InvalidParameterValue},
		{"long quote", "COPY t FROM STDIN CSV QUOTE 'ab'", sqlstate.InvalidParameterValue},
		{"long escape", "COPY t FROM STDIN CSV ESCAPE ''", sqlstate.InvalidParameterValue},
		{"quote equals delimiter", "COPY t FROM STDIN CSV QUOTE ','", sqlstate.InvalidParameterValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := plan.ParseCopy(tt.input)
			var se *sqlstate.Error
			if !errors.As(err, &se) {
				t.Fatalf("ParseCopy(%q) error = %v, want an *sqlstate.Error", tt.input, err)
			}
			if se.Code != tt.wantCode {
				t.Errorf("ParseCopy(%q) = %v, want SQLSTATE %s", tt.input, err, tt.wantCode)
			}
		})
	}
}

func TestParseCopyErrorNamesOption(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"new style", "COPY t FROM STDIN (FORMAT csv, Bogus 1)", `option "bogus" not recognized`},
		{"old style", "COPY t FROM STDIN CSV OIDS", `option "oids" not recognized`},
		{"binary", "COPY t TO STDOUT (FORMAT binary)", "COPY TO STDOUT in binary format is not supported; use text or csv"},
		{"binary option", "COPY t FROM STDIN (FORMAT binary, DELIMITER ',')", "cannot specify DELIMITER in BINARY mode"},
		{"syntax", "COPY t FROM STDIN (FORMAT csv HEADER)", `syntax error at or near "HEADER"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := plan.ParseCopy(tt.input)
			if got := sqlstate.From(err).Message; got != tt.want {
				t.Errorf("ParseCopy(%q) message = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}

func TestParseCopyErrorPosition(t *testing.T) {
	const input = "COPY é FROM STDIN (BOGUS)"
	_, _, err := plan.ParseCopy(input)
	if got, want := sqlstate.From(err).Position, 20; got != want {
		t.Errorf("ParseCopy(%q) error position = %d, want %d", input, got, want)
	}
}
