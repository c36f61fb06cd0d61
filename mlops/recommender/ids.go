package recommender

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// ID is a user's or an item's id as the data gives it: an integer, or a
// text when IsText. IDs of any integer column become Int, of any text
// column Text; the two kinds never compare equal.
type ID struct {
	Int    int64
	Text   string
	IsText bool
}

// Int returns the id of an integer.
func Int(v int64) ID { return ID{Int: v} }

// Text returns the id of a text.
func Text(s string) ID { return ID{Text: s, IsText: true} }

// String returns the id as the data spells it.
func (id ID) String() string {
	if id.IsText {
		return id.Text
	}
	return strconv.FormatInt(id.Int, 10)
}

// MarshalJSON encodes an integer id as a JSON number and a text as a string.
func (id ID) MarshalJSON() ([]byte, error) {
	if id.IsText {
		return json.Marshal(id.Text)
	}
	return strconv.AppendInt(nil, id.Int, 10), nil
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (id *ID) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		*id = ID{IsText: true}
		return json.Unmarshal(data, &id.Text)
	}
	v, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		return fmt.Errorf("recommender id %s: %w", data, err)
	}
	*id = Int(v)
	return nil
}

// IDs numbers distinct ids densely, 0, 1, 2, ..., in the order they are
// first added: the index of an id is its row in Ratings and in a Model.
// The zero IDs is empty and ready to use. It marshals to JSON as the list
// of ids in index order. Ratings and Models share their IDs, which must
// not be added to once they do.
type IDs struct {
	list  []ID
	index map[ID]int
}

// Add returns id's index, numbering it next if it is new.
func (d *IDs) Add(id ID) int {
	if i, ok := d.index[id]; ok {
		return i
	}
	if d.index == nil {
		d.index = make(map[ID]int)
	}
	d.index[id] = len(d.list)
	d.list = append(d.list, id)
	return len(d.list) - 1
}

// Index returns id's index, and false if id has none.
func (d *IDs) Index(id ID) (int, bool) {
	i, ok := d.index[id]
	return i, ok
}

// At returns the id of index i.
func (d *IDs) At(i int) ID { return d.list[i] }

// Len is the number of ids.
func (d *IDs) Len() int { return len(d.list) }

// MarshalJSON encodes the ids in index order.
func (d *IDs) MarshalJSON() ([]byte, error) {
	if d.list == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(d.list)
}

// UnmarshalJSON decodes what MarshalJSON encodes; the ids must be distinct.
func (d *IDs) UnmarshalJSON(data []byte) error {
	var list []ID
	if err := json.Unmarshal(data, &list); err != nil {
		return err
	}
	*d = IDs{}
	for _, id := range list {
		if _, ok := d.Index(id); ok {
			return fmt.Errorf("recommender ids: %v appears twice", id)
		}
		d.Add(id)
	}
	return nil
}
