package recommender_test

import (
	"context"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// builtRatings are ratings of four users, text ids, of three items.
func builtRatings(t *testing.T, bump float64) (train, test recommender.Ratings) {
	t.Helper()
	b := recommender.NewBuilder(recommender.DuplicatesError)
	for u := range 4 {
		for i := range 3 {
			if err := b.Add(recommender.Text(string(rune('a'+u))), recommender.Int(int64(10+i)), float64(1+(u+i)%5)+bump*float64(u)); err != nil {
				t.Fatal(err)
			}
		}
	}
	all, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return recommender.Split(all, 0.3, 1)
}

// untrained is the model a rating run of hidden [4] starts from on train.
func untrained(t *testing.T, train recommender.Ratings) *recommender.Model {
	t.Helper()
	cfg := recommender.DefaultConfig()
	cfg.Hidden = []int{4}
	model, err := recommender.InitialModel(cfg, train)
	if err != nil {
		t.Fatal(err)
	}
	return model
}

func TestFingerprintFollowsRatings(t *testing.T) {
	train, test := builtRatings(t, 0)
	fp := recommender.Fingerprint(train, test)
	if len(fp) != 16 || fp != recommender.Fingerprint(builtRatings(t, 0)) {
		t.Fatalf("fingerprint %q is not 16 hex digits the same for the same ratings", fp)
	}
	if fp == recommender.Fingerprint(builtRatings(t, 0.5)) {
		t.Error("the ratings changed and the fingerprint did not")
	}
	if fp == recommender.Fingerprint(test, train) {
		t.Error("the split changed and the fingerprint did not")
	}
}

func TestStoredRoundTrip(t *testing.T) {
	train, test := builtRatings(t, 0)
	model := untrained(t, train)
	cols := recommender.Columns{User: "u", Item: "i", Rating: "r", UserIsText: true, ItemNames: recommender.ItemNames{Table: "t", Column: "name", Key: "i"}}
	data, err := recommender.EncodeStored(model, train, test, 3, cols)
	if err != nil {
		t.Fatal(err)
	}
	m, epoch, err := recommender.DecodeStart(data)
	if err != nil || epoch != 3 || m.Items != model.Items {
		t.Fatalf("DecodeStart: epoch %d, %v; want epoch 3 and the model", epoch, err)
	}
	s, err := recommender.DecodeStored(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Epoch != 3 || s.Columns != cols || s.Train.Len() != train.Len() || s.Test.Len() != test.Len() {
		t.Errorf("DecodeStored: epoch %d, columns %+v, %d and %d ratings", s.Epoch, s.Columns, s.Train.Len(), s.Test.Len())
	}
	if got := s.PopularItems(); len(got) != model.Items {
		t.Errorf("PopularItems lists %d items; want every one of %d", len(got), model.Items)
	}
	if _, err := recommender.DecodeStored(data[:len(data)-1]); err == nil {
		t.Error("a truncated artifact decoded")
	}
}

func TestMeasureRanksTestLoss(t *testing.T) {
	train, test := builtRatings(t, 0)
	model := untrained(t, train)
	m, err := recommender.Measure(context.Background(), model, train, test, recommender.Rating, 100)
	if err != nil {
		t.Fatal(err)
	}
	if m.Metrics[0].RMSE == nil || *m.Metrics[0].RMSE != m.TestLoss {
		t.Errorf("rating objective: test loss %g is not the model's RMSE %v", m.TestLoss, m.Metrics[0].RMSE)
	}
	if m.Report.Users != train.Users || m.Report.Ratings != train.Len() || len(m.Report.ExampleUsers) == 0 {
		t.Errorf("report %+v", m.Report)
	}
	r, err := recommender.Measure(context.Background(), model, train, test, recommender.Ranking, 100)
	if err != nil {
		t.Fatal(err)
	}
	if r.Metrics[0].RMSE != nil || r.Metrics[0].NDCGAt10 == nil || r.TestLoss != 1-*r.Metrics[0].NDCGAt10 {
		t.Errorf("ranking objective: RMSE %v, test loss %g; want no RMSE and 1 − NDCG@10", r.Metrics[0].RMSE, r.TestLoss)
	}
}

func TestWorkerTimesNotice(t *testing.T) {
	if got := recommender.WorkerTimes([]recommender.WorkerTime{{}}); got != "" {
		t.Errorf("one worker: %q; want none", got)
	}
	want := "; workers' gradient+reduce+step+barrier+evaluate: 0.0+0.0+0.0+0.0+0.0s, 0.0+0.0+0.0+0.0+0.0s"
	if got := recommender.WorkerTimes(make([]recommender.WorkerTime, 2)); got != want {
		t.Errorf("two workers: %q; want %q", got, want)
	}
}

// storedOf is a stored version of an untrained model on builtRatings,
// decoded as serving decodes it.
func storedOf(t *testing.T) *recommender.Stored {
	t.Helper()
	train, test := builtRatings(t, 0)
	model := untrained(t, train)
	data, err := recommender.EncodeStored(model, train, test, 1, recommender.Columns{UserIsText: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := recommender.DecodeStored(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStoredEvaluate(t *testing.T) {
	s := storedOf(t)
	ev, err := s.Evaluate(context.Background(), recommender.ProtocolRatings)
	if err != nil {
		t.Fatal(err)
	}
	if ev.EveryUserTrained || ev.EASESkipped != nil || ev.Rows[len(ev.Rows)-1].Method != recommender.EASEMethod {
		t.Errorf("protocol ratings: %+v; want every method measured, EASE last", ev)
	}
	users, err := s.Evaluate(context.Background(), recommender.ProtocolUsers)
	if err != nil {
		t.Fatal(err)
	}
	if !users.EveryUserTrained || users.Rows[0].Method != recommender.Kind || users.Rows[0].RMSE == users.Rows[0].RMSE {
		t.Errorf("protocol users of a model trained on every user: %+v; want its row unmeasured (NaN)", users.Rows[0])
	}
	again, _ := s.Evaluate(context.Background(), recommender.ProtocolRatings)
	if &again.Rows[0] != &ev.Rows[0] {
		t.Error("a second evaluation measured again instead of keeping the first")
	}
}

func TestStoredPopular(t *testing.T) {
	s := storedOf(t)
	all := s.Popular(nil, 10, false)
	if len(all) != s.Model.Items {
		t.Fatalf("Popular lists %d items; want %d", len(all), s.Model.Items)
	}
	seen := []int32{int32(all[0].Item)}
	if got := s.Popular(seen, 1, true); len(got) != 1 || got[0].Item == all[0].Item {
		t.Errorf("Popular leaving out item %d: %v", all[0].Item, got)
	}
	if got := s.Popular(seen, 1, false); got[0].Item != all[0].Item {
		t.Errorf("Popular keeping seen items: %v; want item %d first", got, all[0].Item)
	}
	if r := s.HistoryRating(); float64(r) < s.Model.Min || float64(r) > s.Model.Max {
		t.Errorf("HistoryRating %g is outside the ratings' scale %g to %g", r, s.Model.Min, s.Model.Max)
	}
}

func TestStoredIDs(t *testing.T) {
	for _, tc := range []struct {
		v      any
		isText bool
		want   recommender.ID
		ok     bool
	}{
		{int64(7), false, recommender.Int(7), true}, {int64(7), true, recommender.Text("7"), true},
		{" 12 ", false, recommender.Int(12), true}, {"x", false, recommender.ID{}, false}, {"x", true, recommender.Text("x"), true},
		{3.5, false, recommender.ID{}, false},
	} {
		if got, ok := recommender.IDOf(tc.v, tc.isText); ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("IDOf(%v, %t) = %v, %t; want %v, %t", tc.v, tc.isText, got, ok, tc.want, tc.ok)
		}
	}
	s := storedOf(t) // users "a" to "d" (text), items 10 to 12
	if _, ok := s.User("b"); !ok {
		t.Error(`user "b" is not known`)
	}
	if _, ok := s.User("z"); ok {
		t.Error(`user "z" is known`)
	}
	j, ok := s.Item(int64(11))
	if !ok || s.ItemValue(j) != int64(11) {
		t.Errorf("item 11: index %d, %t, value %v", j, ok, s.ItemValue(j))
	}
	for _, method := range recommender.Methods() {
		if recs, err := s.Rank(context.Background(), method, nil, nil, 2, false); err != nil || len(recs) != 2 {
			t.Errorf("Rank by %s: %v, %v; want 2 items", method, recs, err)
		}
	}
}
