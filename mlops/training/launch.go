package training

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mallard/mallard/mlops/parallel"
	"github.com/mallard/mallard/sqlstate"
)

// MPI configures training across MPI ranks, which ranks := N asks for: the
// server exports the source to a job directory, starts mpirun over
// `mallard train-worker --job DIR` and relays rank 0's progress.
type MPI struct {
	// Mpirun is the mpirun to start: a path, or a name looked up in PATH;
	// "" is "mpirun".
	Mpirun string
	// Hostfile, when set, is passed to mpirun as --hostfile.
	Hostfile string
	// Launcher, when set, is a command template that starts the ranks
	// instead of mpirun (for a scheduler such as Slurm's srun): sh runs it
	// with the placeholders of LauncherPlaceholders replaced by their
	// values, quoted for sh. CheckLauncher tells whether one is well made.
	Launcher string
	// JobDir is where each run gets a job directory of its own; on a file
	// system every host of the hostfile shares. "" refuses ranks.
	JobDir string
	// Worker is the mallard binary the ranks run; "" is this executable,
	// which must then be built with MPI (make build-mpi).
	Worker string
	// Version is the Mallard release the job spec names; a worker of
	// another release refuses the job.
	Version string
}

// Launch is a run's launch across ranks, its settings resolved.
type Launch struct {
	fn                       string
	ranks                    int
	mpirun, worker, hostfile string
	launcher                 string
	jobDir, version          string
}

// LauncherPlaceholders are what a launcher template may name, each
// replaced by its value quoted for sh: {ranks}, the number of ranks;
// {worker}, the mallard the ranks run (this executable unless configured
// otherwise); {job}, the job directory, which the template must name.
var LauncherPlaceholders = []string{"{ranks}", "{worker}", "{job}"}

// placeholder is anything a template writes as a placeholder.
var placeholder = regexp.MustCompile(`\{[A-Za-z_]*\}`)

// CheckLauncher reports what is wrong with a launcher template: a
// placeholder it does not know, or no {job}, without which the ranks
// cannot find their job.
func CheckLauncher(template string) error {
	for _, p := range placeholder.FindAllString(template, -1) {
		if !slices.Contains(LauncherPlaceholders, p) {
			return fmt.Errorf("the placeholder %s is not one of %s", p, strings.Join(LauncherPlaceholders, ", "))
		}
	}
	if !strings.Contains(template, "{job}") {
		return errors.New("the template does not name {job}, the job directory the ranks read (such as train-worker --job {job})")
	}
	return nil
}

// launcherCommand is the launcher template with its placeholders
// replaced.
func (l *Launch) launcherCommand(dir string) string {
	return strings.NewReplacer("{ranks}", strconv.Itoa(l.ranks), "{worker}", shellQuote(l.worker), "{job}", shellQuote(dir)).Replace(l.launcher)
}

// shellQuote quotes s as one word for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// starter is what starts the ranks, as the launcher's errors name it.
func (l *Launch) starter() string {
	if l.launcher != "" {
		return "the launcher"
	}
	return "mpirun"
}

// NewLaunch resolves the server's MPI settings m for a call of fn with
// ranks := ranks, and refuses, naming the flag to set, when a setting is
// missing.
func NewLaunch(fn string, ranks int, m MPI) (*Launch, error) {
	name := m.Mpirun
	if name == "" {
		name = "mpirun"
	}
	if m.Launcher != "" {
		name = "sh" // runs the launcher, which starts the ranks its own way
	}
	path, err := exec.LookPath(name)
	if err != nil && m.Launcher != "" {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: ranks := %d: --launcher needs sh to run it, and it is not found: %v", fn, ranks, err)
	}
	if err != nil {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: ranks := %d needs mpirun, and %q is not found: %v", fn, ranks, name, err).
			WithHint("Install Open MPI (openmpi-bin) or start mallard with --mpirun PATH (or --launcher TEMPLATE for another scheduler).")
	}
	if m.JobDir == "" {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: ranks := %d needs a job directory, and this server has none (an in-memory database has no default)", fn, ranks).
			WithHint("Start mallard with --job-dir DIR, on a file system every host of the job shares.")
	}
	if err := writable(m.JobDir); err != nil {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: ranks := %d needs a job directory this server can write, and --job-dir %s is not: %v",
			fn, ranks, m.JobDir, err).
			WithHint("Start mallard with --job-dir naming a directory it can create and write, on a file system every host of the job shares.")
	}
	worker := m.Worker
	if worker == "" && (m.Launcher == "" || strings.Contains(m.Launcher, "{worker}")) {
		if !parallel.MPI {
			return nil, sqlstate.New(sqlstate.FeatureNotSupported, "%s: ranks := %d needs a mallard built with MPI, and this one is not: its ranks would each train alone", fn, ranks).
				WithHint("Build it with make build-mpi (needs libopenmpi-dev), or train in one process with workers := N.")
		}
		if worker, err = os.Executable(); err != nil {
			return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: ranks := %d: find this executable to run as the ranks: %v", fn, ranks, err)
		}
	}
	return &Launch{fn: fn, ranks: ranks, mpirun: path, worker: worker, hostfile: m.Hostfile, launcher: m.Launcher, jobDir: m.JobDir,
		version: m.Version}, nil
}

// writable makes dir if it is missing and checks that a job directory can
// be made in it, so that a run that could not write its job is refused
// before it is recorded.
func writable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	probe, err := os.MkdirTemp(dir, ".probe-")
	if err != nil {
		return err
	}
	return os.Remove(probe)
}

// mpiOutputTail is how much of mpirun's output a failed job's error keeps.
const mpiOutputTail = 4 << 10

// mpiPoll is how often the launcher looks for new progress lines.
const mpiPoll = 50 * time.Millisecond

// rankLine is the line each rank prints when its job ends (see
// `mallard train-worker`); rank 0's names the ranks it ran with.
var rankLine = regexp.MustCompile(`(?m)^rank 0/(\d+): `)

// Run runs a job across the ranks: it makes a job directory, has export
// write the source there, has spec write the job's spec there for the
// Mallard release the ranks must be (MPI.Version), starts mpirun and
// hands each progress line rank 0 writes to progress, with the job
// directory, as it comes. It returns rank 0's artifact. When ctx ends or
// progress fails, it kills mpirun's process group; a job that fails (a
// rank that exits non-zero) fails with mpirun's output. The job directory
// is removed unless the job failed.
func (l *Launch) Run(ctx context.Context, spec func(dir, version string) error, export func(ctx context.Context, dir string) error,
	progress func(dir string, p Progress) error) (artifact []byte, err error) {
	if err := os.MkdirAll(l.jobDir, 0o755); err != nil {
		return nil, l.DirError(err)
	}
	dir, err := os.MkdirTemp(l.jobDir, "train-")
	if err != nil {
		return nil, l.DirError(err)
	}
	keep := false
	defer func() {
		if !keep {
			os.RemoveAll(dir)
		}
	}()
	if err := export(ctx, dir); err != nil {
		return nil, err
	}
	if err := spec(dir, l.version); err != nil {
		return nil, l.DirError(err)
	}
	p, err := l.start(dir)
	if err != nil {
		return nil, err
	}
	artifact, keep, err = p.watch(ctx, l, progress)
	return artifact, err
}

// ranksProcess is mpirun (or the launcher) running a job's ranks.
type ranksProcess struct {
	dir    string // the job's
	cmd    *exec.Cmd
	out    *tailBuffer
	exited chan error // receives cmd.Wait's error once it exits
}

// start starts the ranks of the job in dir, in a process group of their
// own.
func (l *Launch) start(dir string) (*ranksProcess, error) {
	args := []string{"-np", strconv.Itoa(l.ranks)}
	if l.hostfile != "" {
		args = append(args, "--hostfile", l.hostfile)
	}
	args = append(args, "--bind-to", "none", l.worker, "train-worker", "--job", dir)
	if l.launcher != "" {
		args = []string{"-c", l.launcherCommand(dir)}
	}
	p := &ranksProcess{dir: dir, cmd: exec.Command(l.mpirun, args...), out: &tailBuffer{max: mpiOutputTail}, exited: make(chan error, 1)}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	ownGroup(p.cmd)
	started := make(chan error, 1)
	go func() {
		// Linux signals a child whose parent dies (see stopWithParent) when
		// the thread that started it ends: this one is kept until it exits.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := p.cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		p.exited <- p.cmd.Wait()
	}()
	if err := <-started; err != nil {
		return nil, sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s: start %s: %v", l.fn, l.mpirun, err).
			WithHint("Check --mpirun and --launcher.")
	}
	return p, nil
}

// stop kills the process group and waits for mpirun to exit.
func (p *ranksProcess) stop() {
	killGroup(p.cmd)
	<-p.exited
}

// watch hands progress each line rank 0 writes until the ranks exit, and
// returns rank 0's artifact; keep tells whether the job directory is to
// be kept, for a job that failed.
func (p *ranksProcess) watch(ctx context.Context, l *Launch, progress func(dir string, p Progress) error) (artifact []byte, keep bool, err error) {
	tail := &progressTail{dir: p.dir}
	tick := time.NewTicker(mpiPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			p.stop()
			return nil, false, context.Cause(ctx)
		case werr := <-p.exited:
			if err := tail.each(progress); err != nil {
				return nil, false, err
			}
			artifact, err := p.ended(l, werr)
			return artifact, err != nil, err
		case <-tick.C:
			if err := tail.each(progress); err != nil {
				p.stop()
				return nil, false, err
			}
		}
	}
}

// ended is rank 0's artifact once the ranks exited with werr, or why the
// job failed.
func (p *ranksProcess) ended(l *Launch, werr error) ([]byte, error) {
	out := strings.TrimSpace(p.out.String())
	if werr != nil {
		return nil, sqlstate.New(sqlstate.IOError, "%s: the MPI job of %d ranks failed (%v); %s's output ends:\n%s",
			l.fn, l.ranks, werr, l.starter(), out).
			WithHint("The job directory %s keeps its spec and source.", p.dir)
	}
	if m := rankLine.FindStringSubmatch(p.out.String()); m == nil || m[1] != strconv.Itoa(l.ranks) {
		return nil, sqlstate.New(sqlstate.FeatureNotSupported, "%s: the workers did not run as %d ranks of one MPI job (a worker not built with MPI, or a launcher that started them apart); %s's output ends:\n%s",
			l.fn, l.ranks, l.starter(), out).WithHint("Run a mallard built with make build-mpi, started as one MPI job.")
	}
	data, err := os.ReadFile(filepath.Join(p.dir, ArtifactFile))
	if err != nil {
		return nil, sqlstate.New(sqlstate.IOError, "%s: the MPI job ended without an artifact: %v", l.fn, err)
	}
	return data, nil
}

// DirError is the error of err, met writing the job directory.
func (l *Launch) DirError(err error) error {
	return sqlstate.New(sqlstate.IOError, "%s: the job directory under --job-dir %s: %v", l.fn, l.jobDir, err).
		WithHint("--job-dir must name a directory the server can write, shared with every host of the job.")
}

// progressTail reads the lines a job appends to its progress file.
type progressTail struct {
	dir string // the job's
	off int64
}

// each hands every whole line written since the last call to fn.
func (p *progressTail) each(fn func(dir string, p Progress) error) error {
	f, err := os.Open(filepath.Join(p.dir, ProgressFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil // rank 0 has not started training yet
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(p.off, 0); err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(f); err != nil {
		return err
	}
	data := buf.Bytes()
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil
		}
		var pr Progress
		if err := json.Unmarshal(data[:i], &pr); err != nil {
			return fmt.Errorf("progress line %q: %w", data[:i], err)
		}
		p.off += int64(i + 1)
		data = data[i+1:]
		if err := fn(p.dir, pr); err != nil {
			return err
		}
	}
}

// Metric is the progress line's metric name, NaN when null or absent.
func (p Progress) Metric(name string) float64 {
	if v := p.Metrics[name]; v != nil {
		return *v
	}
	return math.NaN()
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// MaxRanks is the most ranks a run may ask for.
const MaxRanks = 4096

// RankCheckpoint returns rank 0's checkpoint of epoch from the job
// directory dir (CheckpointFileOf); nil where rank 0 wrote none (it saw
// no new lowest loss where the registry did). A run asks for it only
// where the lifecycle's rule (see mlops.CheckpointDue) makes one due.
func RankCheckpoint(dir string, epoch int) []byte {
	data, err := os.ReadFile(filepath.Join(dir, CheckpointFileOf(epoch)))
	if err != nil {
		return nil
	}
	return data
}

// RemoveRankCheckpoint removes rank 0's checkpoint of epoch, read or
// not, once the epoch is recorded: the job directory keeps none for long.
func RemoveRankCheckpoint(dir string, epoch int) {
	os.Remove(filepath.Join(dir, CheckpointFileOf(epoch)))
}
