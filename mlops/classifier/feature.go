package classifier

// Feature kinds: how a source column becomes model input.
const (
	FeatureNumeric     = "numeric"     // a number or boolean, standardised
	FeatureCategorical = "categorical" // text, one-hot
	FeatureImage       = "image"       // an array or BLOB of pixels with a shape
)

// Feature is one feature column as the model reads it.
type Feature struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Blob is set for an image stored as a BLOB of one byte per value.
	Blob bool `json:"blob,omitempty"`
}

// NewTable is an empty table of features: numeric and categorical
// columns in their order, or the image of shape [channels, height,
// width].
func NewTable(features []Feature, shape []int) *Table {
	t := &Table{}
	for _, f := range features {
		switch f.Kind {
		case FeatureNumeric:
			t.Numeric = append(t.Numeric, NumericColumn{Name: f.Name, Values: []float64{}})
		case FeatureCategorical:
			t.Categorical = append(t.Categorical, CategoricalColumn{Name: f.Name, Values: []string{}})
		case FeatureImage:
			t.Image = &ImageColumn{Name: f.Name, Channels: shape[0], Height: shape[1], Width: shape[2]}
		}
	}
	return t
}
