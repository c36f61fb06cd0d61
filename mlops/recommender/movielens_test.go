package recommender_test

import (
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mallard/mallard/mlops/recommender"
)

// movielens reads MovieLens small as make movielens writes it from Debian's
// r-cran-dslabs (userId, movieId, rating, timestamp; grouped by user)
// through a Builder.
func movielens(t testing.TB) recommender.Ratings {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "examples", "data", "movielens-small", "ratings.csv"))
	if err != nil {
		t.Fatalf("%v: MovieLens small is written by make movielens (R with Debian's r-cran-dslabs), not committed", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	b := recommender.NewBuilder(recommender.DuplicatesError)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		user, err1 := strconv.ParseInt(rec[0], 10, 64)
		item, err2 := strconv.ParseInt(rec[1], 10, 64)
		rating, err3 := strconv.ParseFloat(rec[2], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("bad record %q", rec)
		}
		if err := b.Add(recommender.Int(user), recommender.Int(item), rating); err != nil {
			t.Fatal(err)
		}
	}
	ratings, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return ratings
}
