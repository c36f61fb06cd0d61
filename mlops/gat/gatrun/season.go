package gatrun

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/sqlstate"
)

// calendarPeriod is a season the calendar gives a date or timestamp
// column whose rows are spaced by low to high hours.
type calendarPeriod struct {
	name      string
	low, high float64
	season    int
}

// calendarPeriods returns the seasons of rows an hour, a day, a week, a
// month and a quarter apart: a day of hours, a week of days, a year of
// weeks, of months and of quarters.
func calendarPeriods() []calendarPeriod {
	return []calendarPeriod{
		{"an hour", 0.9, 1.1, 24},
		{"a day", 23, 25, 7},
		{"a week", 6.5 * 24, 7.5 * 24, 52},
		{"a month", 28 * 24, 31 * 24, 12},
		{"a quarter", 89 * 24, 92 * 24, 4},
	}
}

// calendarSeason returns the season the calendar gives the time columns
// names (of the kinds series.TimeInt, ..., with rows in time order, as text):
// 4, 12 or 52 for integer columns named year and quarter, month or week;
// for a single date or timestamp column, 24, 7, 52, 12 or 4 when the
// median spacing of its rows is about an hour, a day, a week, a month or a
// quarter. why says which columns gave it; season is 0 when the calendar
// gives none.
func calendarSeason(names, kinds []string, rows [][]string) (season int, why string) {
	lower := make([]string, len(names))
	for i, n := range names {
		lower[i] = strings.ToLower(n)
	}
	if y := slices.Index(lower, "year"); y >= 0 && kinds[y] == series.TimeInt {
		for _, p := range []struct {
			name   string
			season int
		}{{"quarter", 4}, {"month", 12}, {"week", 52}} {
			if i := slices.Index(lower, p.name); i >= 0 && kinds[i] == series.TimeInt {
				return p.season, fmt.Sprintf("the time columns are (%s, %s)", names[y], names[i])
			}
		}
	}
	if len(names) != 1 || (kinds[0] != series.TimeDate && kinds[0] != series.TimeTimestamp) {
		return 0, ""
	}
	hours, ok := medianSpacing(rows)
	if !ok {
		return 0, ""
	}
	for _, p := range calendarPeriods() {
		if hours >= p.low && hours <= p.high {
			return p.season, fmt.Sprintf("the time column %s steps by %s", names[0], p.name)
		}
	}
	return 0, ""
}

// medianSpacing returns the median, in hours, of the differences between
// consecutive rows of a date or timestamp column given as text; ok is
// false when fewer than two rows parse.
func medianSpacing(rows [][]string) (hours float64, ok bool) {
	var prev time.Time
	var diffs []float64
	for _, r := range rows {
		t, err := parseTime(r[0])
		if err != nil {
			prev = time.Time{}
			continue
		}
		if !prev.IsZero() {
			diffs = append(diffs, t.Sub(prev).Hours())
		}
		prev = t
	}
	if len(diffs) == 0 {
		return 0, false
	}
	slices.Sort(diffs)
	return diffs[len(diffs)/2], true
}

// parseTime reads a DATE or TIMESTAMP cast to text by DuckDB.
func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02 15:04:05.999999999", s)
}

// resolveSeason sets the season the baselines and MASE use and says which
// in a NOTICE: the one given (season := n), checked against the training
// rows; else the calendar's (see calendarSeason) where the training rows
// hold three of its seasons; else the one detected in them
// (baseline.DetectSeason), 1 when none is.
func (j *Job) resolveSeason(m series.Matrix) error {
	train, _, err := series.Split(m, j.Config.Span(), j.Config.TrainFraction)
	if err != nil {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: train_fraction := %g of %d rows with window %d and highway %d: %v",
			Name, j.Config.TrainFraction, m.T, j.Config.Window, j.Config.Highway, err).
			WithHint("The training rows need a sample after the first %d rows, and the test rows at least one: choose a train_fraction that leaves both.", j.Config.Span())
	}
	rows := train[len(train)-1] + 1
	if j.Config.Season != 0 {
		if err := (baseline.Options{Season: j.Config.Season}).Validate(rows); err != nil {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: season := %d: the %d training rows allow seasons 1 to %d (at least three seasons)",
				Name, j.Config.Season, rows, rows/3)
		}
		j.Caller.Notice(j.givenSeason())
	} else {
		j.Config.Season = j.chooseSeason(m, rows)
	}
	if j.SeasonalHighway && j.From == nil {
		j.Config.Highway = max(j.Config.Highway, j.Config.Season)
	}
	if _, _, _, err := j.Config.Samples(m); err != nil {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %d rows with window %d, highway %d, season %d and validation_fraction := %g: %v",
			Name, m.T, j.Config.Window, j.Config.Highway, j.Config.Season, j.Config.ValidationFraction, err).
			WithHint("Give more rows, or a smaller highway, season or validation_fraction (0 trains without validation).")
	}
	return nil
}

// chooseSeason returns the season of m's first rows training rows when
// none is given, from the calendar or detected, and says which and why in
// a NOTICE.
func (j *Job) chooseSeason(m series.Matrix, rows int) int {
	cal, why := calendarSeason(j.Source.TimeNames(), j.timeKinds, j.timeRows)
	if cal > 1 && (baseline.Options{Season: cal}).Validate(rows) == nil {
		j.Caller.Notice(fmt.Sprintf("train_gat: season %d from the calendar (%s); season := n overrides it", cal, why))
		return cal
	}
	note := ""
	if cal > 1 {
		note = fmt.Sprintf("; the calendar's season %d (%s) needs %d training rows, there are %d", cal, why, 3*cal, rows)
	}
	season, acf := baseline.DetectSeason(m, rows, baseline.SeasonCandidates())
	if season > 1 {
		j.Caller.Notice(fmt.Sprintf("train_gat: season %d detected (mean autocorrelation %.3f of the training rows' differences at that lag)%s", season, acf, note))
	} else {
		j.Caller.Notice(fmt.Sprintf("train_gat: no season detected among %v: season 1%s", baseline.SeasonCandidates(), note))
	}
	return season
}

// givenSeason is the NOTICE for a season train_gat did not choose: the
// one season := n gave, or that of the checkpoint a resumed run
// continues.
func (j *Job) givenSeason() string {
	if j.From != nil && !j.SeasonGiven {
		return fmt.Sprintf("train_gat: season %d, that of %s, which resume continues", j.Config.Season, j.FromRef)
	}
	return fmt.Sprintf("train_gat: season %d given (season := %d)", j.Config.Season, j.Config.Season)
}
