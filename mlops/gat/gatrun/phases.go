package gatrun

import (
	"fmt"
	"time"
)

// phases times the parts of a train_gat statement outside its epochs.
// Each is written by the goroutine that runs it before the phases are
// read, after those goroutines are waited for.
type phases struct {
	read, prepare, setup, checkpoints  time.Duration
	evaluate, report, artifact, finish time.Duration
	// lastEpoch is when the last epoch's row was handed to fill, computed
	// when the result was, and stored the size of its artifact: the
	// training goroutine writes them, the NOTICE of storing reads them
	// once stream has handed fill the end, which comes after the writes.
	lastEpoch, computed time.Time
	stored              int // bytes of the stored artifact
}

// String lists the phases for the closing NOTICE; evaluate, report and
// artifact run at the same time, so finish, their wall time, is what they
// add to the statement.
func (p *phases) String() string {
	s := func(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }
	return fmt.Sprintf("read %s, prepare %s, setup %s, checkpoints %s, evaluate+report+artifact %s (together; alone %s, %s, %s)",
		s(p.read), s(p.prepare), s(p.setup), s(p.checkpoints), s(p.finish), s(p.evaluate), s(p.report), s(p.artifact))
}

// storing is the closing NOTICE's text once the result is stored, at
// now: how long storing took (writing the artifact and the report,
// marking the version ready, deploying it and freeing the run's memory,
// from when the result was computed), and the statement's time after its
// last epoch in all. It is the last phase outside the epochs, and says
// so, as the NOTICE of the others does.
func (p *phases) storing(now time.Time) string {
	return fmt.Sprintf("outside the epochs: storing %.2fs (artifact %.2f MB); after the last epoch %.2fs in all",
		now.Sub(p.computed).Seconds(), float64(p.stored)/1e6, now.Sub(p.lastEpoch).Seconds())
}

// timed runs do and adds its duration to d.
func timed(d *time.Duration, do func() error) error {
	start := time.Now()
	err := do()
	*d += time.Since(start)
	return err
}
