package classifier

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Columns are the columns a supervised model reads: what training
// records, and what predict reads again from its source.
type Columns struct {
	Target string `json:"target"`
	// TargetType is a classifier's label type when its classes are
	// written out in it (a SQL type's name, such as BIGINT); "" for text
	// classes.
	TargetType string    `json:"target_type,omitempty"`
	Split      string    `json:"split,omitempty"`
	Features   []Feature `json:"features"`
	// Shape is an image's [channels, height, width]; nil for rows.
	Shape []int `json:"shape,omitempty"`
	// Defaulted is set when features := was not given: text columns with
	// more than max_categories values are then left out, not refused.
	Defaulted bool `json:"defaulted,omitempty"`
}

// stored is what the registry stores for a classifier or regressor
// version, final or checkpoint: the model (Model.Encode, with its
// preprocessing), the source columns it reads and its training state.
type stored struct {
	Epoch   int             `json:"epoch"`
	Columns Columns         `json:"columns"`
	Model   json.RawMessage `json:"model"`
	// State is the training state after Epoch, which a resumed run goes
	// on from; nil when the model stored is not the one trained (the
	// linear model an 'auto' architecture chose).
	State *State `json:"state,omitempty"`
}

// Stored is a decoded version: its model, the columns it reads and the
// epoch it was stored after.
type Stored struct {
	Model   *Model
	Columns Columns
	Epoch   int
}

// EncodeStored is model m after epoch, reading cols, with its training
// state (nil for none), as the registry stores it.
func EncodeStored(m *Model, state *State, epoch int, cols Columns) ([]byte, error) {
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		return nil, err
	}
	return json.Marshal(stored{Epoch: epoch, Columns: cols, Model: buf.Bytes(), State: state})
}

// DecodeStored decodes a version for serving.
func DecodeStored(data []byte) (*Stored, error) {
	var a stored
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("decode classifier artifact: %w", err)
	}
	m, err := Decode(bytes.NewReader(a.Model))
	if err != nil {
		return nil, err
	}
	return &Stored{Model: m, Columns: a.Columns, Epoch: a.Epoch}, nil
}

// DecodeState decodes the training state a version stores, which a
// resumed run goes on from; nil where it stores none.
func DecodeState(data []byte) (*State, error) {
	var a stored
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, err
	}
	return a.State, nil
}
