package recommender

import "encoding/binary"

// ArtifactMagic opens a recommender artifact as the registry stores it.
var ArtifactMagic = []byte("MRA1")

// AppendArtifact appends a recommender version as the registry stores it:
// ArtifactMagic, then header (the registry's JSON: the epoch and the
// source's columns), the model's, the training ratings' and the test
// ratings' encodings, each after its length (8 bytes, little-endian).
//
// out grows once, to the artifact's exact size, before anything is
// appended (see Model.EncodedSize).
func AppendArtifact(out, header []byte, model *Model, train, test Ratings) ([]byte, error) {
	size, err := model.EncodedSize()
	if err != nil {
		return nil, err
	}
	if n := len(ArtifactMagic) + 4*8 + len(header) + size + train.EncodedSize() + test.EncodedSize(); cap(out)-len(out) < n {
		out = append(make([]byte, 0, len(out)+n), out...)
	}
	out = append(out, ArtifactMagic...)
	parts := []func([]byte) ([]byte, error){
		func(b []byte) ([]byte, error) { return append(b, header...), nil },
		model.AppendBinary, train.AppendBinary, test.AppendBinary,
	}
	for _, part := range parts {
		at := len(out)
		out = binary.LittleEndian.AppendUint64(out, 0) // the length, set below
		if out, err = part(out); err != nil {
			return nil, err
		}
		binary.LittleEndian.PutUint64(out[at:], uint64(len(out)-at-8))
	}
	return out, nil
}
