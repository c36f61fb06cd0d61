package recommender

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strings"

	lifecycle "github.com/mallard/mallard/mlops/training"
)

// Fingerprint identifies the ratings a model is trained on: every user's
// and item's id and every rating, and the split.
func Fingerprint(train, test Ratings) string {
	h := sha256.New()
	var b [8]byte
	for _, ids := range []*IDs{train.UserIDs, train.ItemIDs} {
		for k := range ids.Len() {
			id := ids.At(k)
			fmt.Fprintf(h, "%t %q\n", id.IsText, id.String())
		}
	}
	for _, r := range []Ratings{train, test} {
		for u := range r.Users {
			binary.LittleEndian.PutUint64(b[:], uint64(r.Ptr[u+1]))
			h.Write(b[:])
		}
		for k, item := range r.Item {
			binary.LittleEndian.PutUint32(b[:4], uint32(item))
			binary.LittleEndian.PutUint32(b[4:], math.Float32bits(r.Value[k]))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Measured is a trained model measured against the baselines on the test
// ratings, as the registry records the version.
type Measured struct {
	Metrics []Recorded
	// TestLoss is what deployment compares: the model's test RMSE, or for
	// the ranking objectives, whose outputs are no ratings, 1 − NDCG@10.
	TestLoss float64
	Report   *Report
}

// Recorded are a method's held-out metrics as the registry records them:
// null where there was no data to measure on.
type Recorded struct {
	Method     string   `json:"method"`
	RMSE       *float64 `json:"test_rmse"`
	RecallAt10 *float64 `json:"recall_at_10"`
	NDCGAt10   *float64 `json:"ndcg_at_10"`
}

// Measure measures model, trained with objective on train, and the
// baselines on test (see Evaluate; rankUsers caps the users ranked).
func Measure(ctx context.Context, model *Model, train, test Ratings, objective string, rankUsers int) (*Measured, error) {
	metrics, err := Evaluate(ctx, model, train, test, rankUsers)
	if err != nil {
		return nil, err
	}
	stored := make([]Recorded, len(metrics))
	for i, m := range metrics {
		stored[i] = Recorded{Method: m.Method, RMSE: lifecycle.Finite(m.RMSE), RecallAt10: lifecycle.Finite(m.RecallAt10), NDCGAt10: lifecycle.Finite(m.NDCGAt10)}
	}
	testLoss := metrics[0].RMSE // the model's, which Evaluate lists first
	if IsRanking(objective) {
		stored[0].RMSE, testLoss = nil, 1-metrics[0].NDCGAt10
	}
	return &Measured{Metrics: stored, TestLoss: testLoss, Report: NewReport(train, test)}, nil
}

// Report is what the dashboard shows of a recommender version besides
// its metrics: the sizes of its data and a few users to try.
type Report struct {
	Users        int  `json:"users"`
	Items        int  `json:"items"`
	Ratings      int  `json:"ratings"`
	TestRatings  int  `json:"test_ratings"`
	ExampleUsers []ID `json:"example_users"`
}

// reportUsers is how many example users a report names.
const reportUsers = 5

// NewReport is the report of a version trained on train and tested on
// test: its example users are the first with training ratings.
func NewReport(train, test Ratings) *Report {
	r := &Report{Users: train.Users, Items: train.Items, Ratings: train.Len(), TestRatings: test.Len()}
	for u := 0; u < train.Users && len(r.ExampleUsers) < reportUsers; u++ {
		if items, _ := train.Row(u); len(items) > 0 {
			r.ExampleUsers = append(r.ExampleUsers, train.UserIDs.At(u))
		}
	}
	return r
}

// WorkerTimes tells, when several workers trained, where each one's time
// in the epoch went (see WorkerTime), as the end of an epoch's NOTICE: a
// worker that computes much longer than another, or waits much longer,
// shows how evenly the work was shared and whether the host slowed one
// of them down. It is "" for one worker.
func WorkerTimes(ws []WorkerTime) string {
	if len(ws) < 2 {
		return ""
	}
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.String()
	}
	return "; workers' gradient+reduce+step+barrier+evaluate: " + strings.Join(parts, ", ")
}
