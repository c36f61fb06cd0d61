package plan

import (
	"strings"

	"github.com/mallard/mallard/sqlstate"
)

// apply fills c's format options from o, with Postgres' defaults for what
// o leaves out, and checks the combination as Postgres does.
func (o *copyOptions) apply(c *Copy) error {
	c.Format = "text"
	if o.format != "" {
		c.Format = o.format
	}
	c.Header = o.header
	c.ForceQuote = o.forceQuote
	if c.Format == "binary" {
		return o.checkBinary(c.FromStdin)
	}
	if err := o.checkCSVOnly(c.Format, c.FromStdin); err != nil {
		return err
	}
	c.Delimiter, c.Null = "\t", `\N`
	if c.Format == "csv" {
		c.Delimiter, c.Null = ",", ""
		c.Quote = valueOr(o.quote, `"`)
		c.Escape = valueOr(o.escape, c.Quote)
	}
	c.Delimiter = valueOr(o.delimiter, c.Delimiter)
	c.Null = valueOr(o.null, c.Null)
	if err := checkDelimiterAndNull(c); err != nil {
		return err
	}
	if c.Format == "csv" {
		return checkCSV(c)
	}
	return nil
}

// checkBinary rejects what binary format does not have: the options of
// the text formats, as Postgres does, and COPY TO STDOUT, which Mallard
// sends in text or CSV only.
func (o *copyOptions) checkBinary(from bool) error {
	for _, opt := range []struct {
		name string
		set  bool
	}{{"DELIMITER", o.delimiter != nil}, {"NULL", o.null != nil}, {"HEADER", o.seen["header"]},
		{"QUOTE", o.quote != nil}, {"ESCAPE", o.escape != nil}, {"FORCE_QUOTE", o.forceQuote != nil}} {
		if opt.set {
			return sqlstate.New(sqlstate.SyntaxError, "cannot specify %s in BINARY mode", opt.name)
		}
	}
	if !from {
		return notSupported("COPY TO STDOUT in binary format is not supported; use text or csv")
	}
	return nil
}

// checkCSVOnly rejects the options that only csv format has, and
// FORCE_QUOTE on COPY FROM.
func (o *copyOptions) checkCSVOnly(format string, from bool) error {
	switch {
	case format == "csv":
	case o.quote != nil:
		return notSupported("COPY QUOTE requires CSV mode")
	case o.escape != nil:
		return notSupported("COPY ESCAPE requires CSV mode")
	case o.forceQuote != nil:
		return notSupported("COPY FORCE_QUOTE requires CSV mode")
	}
	if from && o.forceQuote != nil {
		return notSupported("COPY FORCE_QUOTE cannot be used with COPY FROM")
	}
	return nil
}

// checkDelimiterAndNull checks the delimiter and null string that every
// format has.
func checkDelimiterAndNull(c *Copy) error {
	switch {
	case len(c.Delimiter) != 1:
		return invalidValue("COPY delimiter must be a single one-byte character")
	case c.Delimiter == "\n" || c.Delimiter == "\r":
		return invalidValue("COPY delimiter cannot be newline or carriage return")
	case strings.ContainsAny(c.Null, "\r\n"):
		return invalidValue("COPY null representation cannot use newline or carriage return")
	case c.Format == "text" && strings.Contains(`\.abcdefghijklmnopqrstuvwxyz0123456789`, c.Delimiter):
		return invalidValue(`COPY delimiter cannot be "` + c.Delimiter + `"`)
	case strings.Contains(c.Null, c.Delimiter):
		return invalidValue("COPY delimiter character must not appear in the NULL specification")
	}
	return nil
}

// checkCSV checks the quote and escape of csv format.
func checkCSV(c *Copy) error {
	switch {
	case len(c.Quote) != 1:
		return invalidValue("COPY quote must be a single one-byte character")
	case len(c.Escape) != 1:
		return invalidValue("COPY escape must be a single one-byte character")
	case c.Delimiter == c.Quote:
		return invalidValue("COPY delimiter and quote must be different")
	case strings.Contains(c.Null, c.Quote):
		return invalidValue("CSV quote character must not appear in the NULL specification")
	}
	return nil
}

// valueOr returns *p, or def if p is nil.
func valueOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

// notSupported returns a FeatureNotSupported error.
func notSupported(msg string) error {
	return sqlstate.New(sqlstate.FeatureNotSupported, "%s", msg)
}

// invalidValue returns an InvalidParameterValue error.
func invalidValue(msg string) error {
	return sqlstate.New(sqlstate.InvalidParameterValue, "%s", msg)
}
