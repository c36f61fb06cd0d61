package main

// The generator of bench recommender's synthetic ratings table, shaped
// like MovieLens-25M, in DuckDB SQL.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The generator's distributions. A user rates recMinPerUser items plus a
// log-normal number (median 51, sigma 1.39, so the median user has 71
// ratings and the mean 154, as in MovieLens-25M), scaled to the ratings
// asked for and capped at half the items. Users draw items from a
// Zipf-Mandelbrot law p(rank) ~ (rank + b)^-s, skipping repeats; s and
// b/items were chosen so that about 45% of users rate the most popular
// item, the median item has a handful of ratings and a few thousand
// items have none, roughly as in MovieLens-25M.
const (
	recCountMu    = 3.93 // ln 51
	recCountSigma = 1.39
	recZipfS      = 2.2
	recZipfB      = 200.0 / mlItems
)

// recShape is the size of the synthetic ratings table asked for.
type recShape struct {
	Users, Items, Ratings int64
}

// recShapeOf scales MovieLens-25M's shape by -rec-scale; -rec-users,
// -rec-items and -rec-ratings, when positive, replace a scaled figure.
func recShapeOf(o options) recShape {
	scaled := func(n int64, override int64) int64 {
		if override > 0 {
			return override
		}
		return max(1, int64(math.Round(float64(n)*o.RecScale)))
	}
	return recShape{Users: scaled(mlUsers, o.RecUsers), Items: scaled(mlItems, o.RecItems), Ratings: scaled(mlRatings, o.RecRatings)}
}

// Validate reports a shape the generator cannot make: every user needs
// recMinPerUser distinct items within the cap of half the items.
func (s recShape) Validate() error {
	switch {
	case s.Users < 1:
		return errors.New("recommender: need at least one user")
	case s.Items/2 < recMinPerUser:
		return fmt.Errorf("recommender: %d items are too few; each user rates at least %d and at most half the items", s.Items, recMinPerUser)
	case s.Ratings < recMinPerUser*s.Users:
		return fmt.Errorf("recommender: %d ratings are fewer than %d per user for %d users", s.Ratings, recMinPerUser, s.Users)
	}
	return nil
}

// recSetupSQL starts the generator. Its random numbers are hashes, so the
// same shape gives the same table whatever the thread count: rec_u is
// uniform on (0, 1) and rec_n standard normal (Box-Muller). rec_u hashes
// DuckDB's hash of its arguments again because that hash ends by XORing
// in the last argument's: hash(a, b, 10) and hash(a, b, 11) differ by a
// constant XOR, which made Box-Muller's two uniforms dependent (the
// minimum of 3,251 normals came out -1.3).
var recSetupSQL = []string{
	`CREATE OR REPLACE TEMP MACRO rec_u(a, b, salt) AS (CAST(hash(hash(a, b, salt)) AS DOUBLE) + 0.5) / 18446744073709551616.0`,
	`CREATE OR REPLACE TEMP MACRO rec_n(a, b, salt) AS sqrt(-2 * ln(rec_u(a, b, salt))) * cos(2 * pi() * rec_u(a, b, salt + 1))`,
	`CREATE OR REPLACE TEMP TABLE rec_users AS
	 SELECT range + 1 AS user_id, exp({mu} + {sigma} * rec_n(range, 0, 10)) AS extra, 0.45 * rec_n(range, 0, 20) AS bias,
	        rec_n(range, 0, 30) AS taste, rec_u(range, 0, 40) < 0.4 AS whole,
	        CAST(0 AS BIGINT) AS want, CAST(0 AS BIGINT) AS have, CAST(0 AS BIGINT) AS drawn
	 FROM range({users})`,
	`CREATE OR REPLACE TEMP TABLE rec_items AS
	 SELECT CAST(range + 1 AS INTEGER) AS rank, row_number() OVER (ORDER BY hash(range, 1, 50)) AS item_id,
	        0.45 * rec_n(range, 1, 60) AS bias, rec_n(range, 1, 70) AS genre FROM range({items})`,
	`CREATE OR REPLACE TEMP TABLE rec_pairs (user_id BIGINT, rank INTEGER, seq BIGINT)`,
}

// recScaleSQL is the next estimate of the factor f that makes the users'
// wants, least(max, min + round(extra * f)), add up to the ratings asked
// for: the ratings left once the capped users have theirs, over the extra
// of the others. Iterating it from the uncapped factor converges.
const recScaleSQL = `SELECT ({ratings} - {min} * {users} - coalesce(sum(({max} - {min}) * CAST(extra * {f} >= {max} - {min} AS INTEGER)), 0))
	/ sum(CASE WHEN extra * {f} < {max} - {min} THEN extra END) FROM rec_users`

// recWantSQL sets each user's want from the factor f.
const recWantSQL = `UPDATE rec_users SET want = CAST(least({max}, {min} + round(extra * {f})) AS BIGINT)`

// recRoundSQL is one draw round: each user short of the items they want
// draws more, in a first round 25% more than they want, in later ones
// four times the shortfall over the share of their draws so far that were
// new, and at least twice the shortfall: a user's new draws hit ever
// fewer new items, so that share overstates the next round's. A pair
// keeps its first draw's sequence number. The rank drawn inverts the
// continuous Zipf-Mandelbrot law: x = (a + u (c - a))^(1/(1-s)),
// a = (1+b)^(1-s), c = (items+1+b)^(1-s), rank = floor(x - b).
var recRoundSQL = []string{
	`CREATE OR REPLACE TEMP TABLE rec_need AS SELECT user_id, drawn, CAST(CASE WHEN drawn = 0 THEN ceil(want * 1.25) + 10
	   ELSE ceil((want - have) * greatest(2.0, 4.0 * drawn / greatest(have, 1))) END AS BIGINT) AS more
	 FROM rec_users WHERE have < want`,
	`INSERT INTO rec_pairs SELECT d.user_id, d.rank, min(d.seq) FROM (
	   SELECT user_id, seq, CAST(least({items}, greatest(1, floor(pow({a} + rec_u(user_id, seq, 80) * ({c} - {a}), {inv}) - {b}))) AS INTEGER) AS rank
	   FROM (SELECT user_id, unnest(range(drawn, drawn + more)) AS seq FROM rec_need)) d
	 WHERE NOT EXISTS (SELECT 1 FROM rec_pairs p WHERE p.user_id = d.user_id AND p.rank = d.rank)
	 GROUP BY d.user_id, d.rank`,
	`UPDATE rec_users u SET drawn = u.drawn + n.more, have = c.have FROM rec_need n,
	   (SELECT user_id, count(*) AS have FROM rec_pairs WHERE user_id IN (SELECT user_id FROM rec_need) GROUP BY user_id) c
	 WHERE u.user_id = n.user_id AND c.user_id = n.user_id`,
}

// recFinishSQL keeps each user's first `want` distinct draws, which is
// sampling without replacement, and rates them: a global mean, a user and
// an item bias, a taste x genre interaction and noise, rounded to half
// stars, or to whole stars for the 40% of users who use only those, as
// MovieLens users often do. Rows are ordered by user and item, as
// MovieLens's ratings.csv is.
var recFinishSQL = []string{
	`CREATE OR REPLACE TABLE ratings AS
	 SELECT user_id, item_id, CAST(CASE WHEN whole THEN least(5, greatest(1, round(x))) ELSE least(5, greatest(0.5, round(2 * x) / 2)) END AS DOUBLE) AS rating
	 FROM (SELECT p.user_id, i.item_id, u.whole, 3.53 + u.bias + i.bias + 0.4 * u.taste * i.genre + 0.7 * rec_n(p.user_id, p.rank, 90) AS x
	       FROM rec_pairs p JOIN rec_users u USING (user_id) JOIN rec_items i USING (rank)
	       QUALIFY row_number() OVER (PARTITION BY p.user_id ORDER BY p.seq) <= u.want)
	 ORDER BY user_id, item_id`,
	`DROP TABLE rec_pairs`, `DROP TABLE rec_need`, `DROP TABLE rec_users`, `DROP TABLE rec_items`,
}

// recMetaSQL records the shape asked for and the table's actual figures,
// so that a later run with the same shape reuses the database.
const recMetaSQL = `CREATE OR REPLACE TABLE rec_bench_meta AS
WITH pu AS (SELECT count(*) AS n FROM ratings GROUP BY user_id), pi AS (SELECT count(*) AS n FROM ratings GROUP BY item_id)
SELECT {version} AS version, {users} AS want_users, {items} AS want_items, {ratings} AS want_ratings, {gen} AS gen_secs,
  (SELECT count(*) FROM ratings) AS ratings, (SELECT count(*) FROM (SELECT DISTINCT user_id, item_id FROM ratings)) AS pairs,
  (SELECT count(*) FROM pu) AS users, (SELECT min(n) FROM pu) AS user_min, (SELECT CAST(median(n) AS DOUBLE) FROM pu) AS user_median,
  (SELECT max(n) FROM pu) AS user_max, (SELECT count(*) FROM pi) AS rated_items, (SELECT CAST(median(n) AS DOUBLE) FROM pi) AS item_median,
  (SELECT max(n) FROM pi) AS item_max, (SELECT count(*) FROM pi WHERE n = 1) AS items_once,
  (SELECT avg(rating) FROM ratings) AS rating_mean, (SELECT stddev_pop(rating) FROM ratings) AS rating_sd,
  (SELECT count(DISTINCT rating) FROM ratings) AS rating_values`

// recStats are the generated table's figures, as rec_bench_meta holds them.
type recStats struct {
	genSecs                                      float64
	ratings, pairs, users, userMin, userMax      int64
	ratedItems, itemMax, itemsOnce, ratingVals   int64
	userMedian, itemMedian, ratingMean, ratingSD float64
}

// ensureRatings serves path and returns the figures of its ratings table,
// generating the table first unless rec_bench_meta says it has the shape.
func ensureRatings(ctx context.Context, o options, shape recShape, path string) (stats recStats, err error) {
	srv, conn, err := startRecServer(ctx, o, path, nil)
	if err != nil {
		return stats, err
	}
	defer func() { conn.Close(context.Background()); err = errors.Join(err, srv.stop()) }()
	have, err := hasRecMeta(ctx, conn, shape)
	if err != nil {
		return stats, err
	}
	if !have {
		if err := generateRatings(ctx, o, conn, shape, path); err != nil {
			return stats, err
		}
	} else {
		fmt.Fprintf(o.Out, "  reusing %s (generated earlier for this shape)\n", path)
	}
	err = conn.QueryRow(ctx, `SELECT gen_secs, ratings, pairs, users, user_min, user_max, rated_items, item_max, items_once, rating_values,
		user_median, item_median, rating_mean, rating_sd FROM rec_bench_meta`).Scan(&stats.genSecs, &stats.ratings, &stats.pairs,
		&stats.users, &stats.userMin, &stats.userMax, &stats.ratedItems, &stats.itemMax, &stats.itemsOnce, &stats.ratingVals,
		&stats.userMedian, &stats.itemMedian, &stats.ratingMean, &stats.ratingSD)
	if err != nil {
		return stats, fmt.Errorf("read rec_bench_meta: %w", err)
	}
	return stats, nil
}

// hasRecMeta reports whether the database holds a ratings table the
// current generator made for shape.
func hasRecMeta(ctx context.Context, conn *pgx.Conn, shape recShape) (bool, error) {
	var tables, match int64
	err := conn.QueryRow(ctx, `SELECT count(*) FROM duckdb_tables() WHERE schema_name = current_schema() AND table_name = 'rec_bench_meta'`).Scan(&tables)
	if err == nil && tables > 0 {
		err = conn.QueryRow(ctx, `SELECT count(*) FROM rec_bench_meta WHERE version = $1 AND want_users = $2 AND want_items = $3 AND want_ratings = $4`,
			recGenVersion, shape.Users, shape.Items, shape.Ratings).Scan(&match)
	}
	if err != nil {
		return false, fmt.Errorf("read rec_bench_meta: %w", err)
	}
	return match > 0, nil
}

// generateRatings makes table ratings of the shape in DuckDB SQL on conn
// and records its figures in rec_bench_meta.
func generateRatings(ctx context.Context, o options, conn *pgx.Conn, shape recShape, path string) error {
	fmt.Fprintf(o.Out, "  generating %s\n", path)
	b := math.Max(1, recZipfB*float64(shape.Items))
	expo := 1 - recZipfS
	r := strings.NewReplacer("{users}", fmt.Sprint(shape.Users), "{items}", fmt.Sprint(shape.Items),
		"{ratings}", fmt.Sprint(shape.Ratings), "{min}", fmt.Sprint(recMinPerUser), "{max}", fmt.Sprint(shape.Items/2),
		"{mu}", fmt.Sprint(recCountMu), "{sigma}", fmt.Sprint(recCountSigma), "{b}", fmt.Sprint(b),
		"{a}", fmt.Sprint(math.Pow(1+b, expo)), "{c}", fmt.Sprint(math.Pow(float64(shape.Items)+1+b, expo)),
		"{inv}", fmt.Sprint(1/expo), "{version}", fmt.Sprint(recGenVersion))
	subst := func(stmts []string) []string {
		out := make([]string, len(stmts))
		for i, s := range stmts {
			out[i] = r.Replace(s)
		}
		return out
	}
	start := time.Now()
	if err := execOn(ctx, conn, subst(recSetupSQL)...); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if err := recWants(ctx, conn, r); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	for round := 1; ; round++ {
		if round > 60 {
			return errors.New("generate: users still short of items after 60 draw rounds")
		}
		var short, draws int64
		if err := execOn(ctx, conn, r.Replace(recRoundSQL[0])); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		if err := conn.QueryRow(ctx, `SELECT count(*), coalesce(sum(more), 0) FROM rec_need`).Scan(&short, &draws); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		if short == 0 {
			break
		}
		fmt.Fprintf(o.Out, "    draw round %d: %d users short, %d draws (%.1fs so far)\n", round, short, draws, time.Since(start).Seconds())
		if err := execOn(ctx, conn, subst(recRoundSQL[1:])...); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	if err := execOn(ctx, conn, subst(recFinishSQL)...); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	gen := time.Since(start).Seconds()
	meta := strings.ReplaceAll(r.Replace(recMetaSQL), "{gen}", fmt.Sprint(gen))
	if err := execOn(ctx, conn, meta, `CHECKPOINT`); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	fmt.Fprintf(o.Out, "  generated in %.1fs, figures and checkpoint %.1fs more\n", gen, time.Since(start).Seconds()-gen)
	return nil
}

// recWants sets the users' wants, iterating recScaleSQL until the factor
// settles or every user is capped.
func recWants(ctx context.Context, conn *pgx.Conn, r *strings.Replacer) error {
	f := 0.0
	for range 50 {
		var next *float64
		q := strings.ReplaceAll(r.Replace(recScaleSQL), "{f}", strconv.FormatFloat(f, 'g', -1, 64))
		if err := conn.QueryRow(ctx, q).Scan(&next); err != nil {
			return fmt.Errorf("scale wants: %w", err)
		}
		if next == nil || math.Abs(*next-f) <= 1e-12*f {
			break
		}
		f = *next
	}
	return execOn(ctx, conn, strings.ReplaceAll(r.Replace(recWantSQL), "{f}", strconv.FormatFloat(f, 'g', -1, 64)))
}

func printRecStats(out io.Writer, shape recShape, s recStats) {
	fmt.Fprintf(out, "  table ratings(user_id BIGINT, item_id BIGINT, rating DOUBLE), generated in %.1fs:\n", s.genSecs)
	fmt.Fprintf(out, "    %d ratings, %d distinct (user, item) pairs\n", s.ratings, s.pairs)
	fmt.Fprintf(out, "    %d users, %d to %d ratings each, median %.0f, mean %.1f\n", s.users, s.userMin, s.userMax, s.userMedian,
		float64(s.ratings)/float64(s.users))
	fmt.Fprintf(out, "    %d of %d items rated (%d unrated), most-rated item %d ratings (%.0f%% of users), median rated item %.0f, %d rated once\n",
		s.ratedItems, shape.Items, shape.Items-s.ratedItems, s.itemMax, 100*float64(s.itemMax)/float64(s.users), s.itemMedian, s.itemsOnce)
	fmt.Fprintf(out, "    ratings 0.5 to 5 in %d distinct values, mean %.3f, sd %.3f\n", s.ratingVals, s.ratingMean, s.ratingSD)
	if s.pairs != s.ratings {
		fmt.Fprintln(out, "    WARNING: the table has duplicate (user, item) pairs")
	}
}
