package recommender

import (
	"encoding/binary"
	"errors"
)

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

// ArtifactParts returns the first n parts of an artifact that
// AppendArtifact made (the header, the model, the training and the test
// ratings), without copying them out of data.
func ArtifactParts(data []byte, n int) ([][]byte, error) {
	if len(data) < len(ArtifactMagic) || string(data[:len(ArtifactMagic)]) != string(ArtifactMagic) {
		return nil, errors.New("not a recommender artifact")
	}
	data = data[len(ArtifactMagic):]
	parts := make([][]byte, n)
	for i := range parts {
		if len(data) < 8 || binary.LittleEndian.Uint64(data) > uint64(len(data)-8) {
			return nil, errors.New("the artifact is truncated")
		}
		size := binary.LittleEndian.Uint64(data)
		parts[i], data = data[8:8+size], data[8+size:]
	}
	return parts, nil
}
