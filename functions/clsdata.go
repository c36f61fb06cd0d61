//go:build duckdb_arrow

package functions

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// columns resolves the target, split and feature columns of src.
func (s *clsSpec) columns(src *source) (classifier.Columns, error) {
	var out classifier.Columns
	i, err := src.column(s.target, s.targetCol)
	if err != nil {
		return out, err
	}
	t := src.cols[i].Type
	out.Target = src.cols[i].Name
	if s.regression && !isNumeric(t.ID) {
		return out, sqlstate.New(sqlstate.DatatypeMismatch, "%s: target := %s names column %s of type %s; a regressor's target must be numeric",
			s.fn, quote(s.targetCol), out.Target, t.PGName()).WithHint("train_classifier(..., label := %s) learns classes.", quote(s.targetCol))
	}
	if !s.regression && !isNumeric(t.ID) && !isText(t.ID) && t.ID != storage.TypeBoolean {
		return out, sqlstate.New(sqlstate.DatatypeMismatch, "%s: label := %s names column %s of type %s; a label must be text, an integer or a boolean",
			s.fn, quote(s.targetCol), out.Target, t.PGName()).WithHint("Cast it in the source, for example CAST(%s AS VARCHAR).", ident(out.Target))
	}
	if !s.regression {
		out.TargetType = labelTypeName(t.ID)
	}
	if s.split != "" {
		j, err := src.column("split", s.split)
		if err != nil {
			return out, err
		}
		out.Split = src.cols[j].Name
	}
	if s.features == nil {
		out.Features, out.Defaulted = s.defaultFeatures(src, out), true
	} else if out.Features, err = s.givenFeatures(src, out); err != nil {
		return out, err
	}
	return out, s.checkFeatures(src, &out)
}

// defaultFeatures are every column but the target and the split column
// that the model can read: with shape := given, the array and BLOB
// columns; otherwise the numeric, boolean and text ones.
func (s *clsSpec) defaultFeatures(src *source, cols classifier.Columns) []classifier.Feature {
	var out []classifier.Feature
	for _, c := range src.cols {
		if c.Name == cols.Target || c.Name == cols.Split {
			continue
		}
		f, ok := featureOf(c)
		if ok && (f.Kind == classifier.FeatureImage) == (s.shape != nil) {
			out = append(out, f)
		}
	}
	return out
}

// givenFeatures resolves features := [...]: each a column of a type the
// model can read, neither the target nor the split column.
func (s *clsSpec) givenFeatures(src *source, cols classifier.Columns) ([]classifier.Feature, error) {
	var out []classifier.Feature
	for _, name := range s.features {
		i, err := src.column("features", name)
		if err != nil {
			return nil, err
		}
		c := src.cols[i]
		if c.Name == cols.Target || c.Name == cols.Split {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: features := [...] names column %s, which is the %s column",
				s.fn, quote(name), map[bool]string{true: s.target, false: "split"}[c.Name == cols.Target])
		}
		f, ok := featureOf(c)
		if !ok {
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "%s: features := [...] names column %s of type %s; a feature must be numeric, boolean, text, an array of numbers or a BLOB",
				s.fn, c.Name, c.Type.PGName()).WithHint("Cast it in the source, or leave it out of features.")
		}
		out = append(out, f)
	}
	return out, nil
}

// featureOf is how column c can be a feature, if it can.
func featureOf(c storage.Column) (classifier.Feature, bool) {
	t := c.Type
	switch {
	case isNumeric(t.ID) || t.ID == storage.TypeBoolean:
		return classifier.Feature{Name: c.Name, Kind: classifier.FeatureNumeric}, true
	case isText(t.ID):
		return classifier.Feature{Name: c.Name, Kind: classifier.FeatureCategorical}, true
	case t.ID == storage.TypeBlob:
		return classifier.Feature{Name: c.Name, Kind: classifier.FeatureImage, Blob: true}, true
	case (t.ID == storage.TypeList || t.ID == storage.TypeArray) && t.Elem != nil && isNumeric(t.Elem.ID):
		return classifier.Feature{Name: c.Name, Kind: classifier.FeatureImage}, true
	}
	return classifier.Feature{}, false
}

func isText(id storage.TypeID) bool { return id == storage.TypeVarchar || id == storage.TypeEnum }

// checkFeatures checks that the features make one model: some features;
// one image with shape :=, alone, or rows without one.
func (s *clsSpec) checkFeatures(src *source, cols *classifier.Columns) error {
	images := slices.IndexFunc(cols.Features, func(f classifier.Feature) bool { return f.Kind == classifier.FeatureImage })
	switch {
	case len(cols.Features) == 0 && s.shape != nil:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s is given, but the source has no array or BLOB column to read images from",
			s.fn, intsText(s.shape)).WithHint("The source has columns %s.", src.columnList())
	case len(cols.Features) == 0:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has no feature column besides %s", s.fn, cols.Target).
			WithHint("Features are numeric, boolean or text columns, or an image column with shape := [channels, height, width]; the source has %s.", src.columnList())
	case images >= 0 && s.shape == nil:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: feature %s is an array or BLOB column, which needs shape := [channels, height, width]",
			s.fn, cols.Features[images].Name).WithHint("For example shape := [1, 28, 28] for MNIST's 784 pixels.")
	case images >= 0 && len(cols.Features) > 1:
		return sqlstate.New(sqlstate.FeatureNotSupported, "%s: features %s: an image column must be the only feature", s.fn, featureNames(cols.Features)).
			WithHint("Give features := [%s].", quote(cols.Features[images].Name))
	case images < 0 && s.shape != nil:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s is given, but features %s has no array or BLOB column",
			s.fn, intsText(s.shape), featureNames(cols.Features))
	}
	cols.Shape = s.shape
	return nil
}

func featureNames(fs []classifier.Feature) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = quote(f.Name)
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// intsText writes a list of integers as SQL does: [1, 28, 28].
func intsText(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// selectList reads the features of cols, in order, as the model takes
// them: numbers as DOUBLE, text as VARCHAR, arrays as DOUBLE[], BLOBs as
// they are.
func selectList(cols classifier.Columns) []string {
	out := make([]string, len(cols.Features))
	for i, f := range cols.Features {
		id := ident(f.Name)
		switch {
		case f.Kind == classifier.FeatureNumeric:
			out[i] = fmt.Sprintf("CAST(%s AS DOUBLE)", id)
		case f.Kind == classifier.FeatureCategorical:
			out[i] = fmt.Sprintf("CAST(%s AS VARCHAR)", id)
		case f.Blob:
			out[i] = id
		default:
			out[i] = fmt.Sprintf("CAST(%s AS DOUBLE[])", id)
		}
	}
	return out
}
