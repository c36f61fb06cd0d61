package testserver

import (
	"os"
	"path/filepath"
	"strings"
)

// ProcessesUnder are the command lines of this machine's processes that
// name a path under dir, such as mpirun and the ranks of a job there.
func ProcessesUnder(dir string) []string {
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, p := range cmdlines {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if line := strings.ReplaceAll(string(data), "\x00", " "); strings.Contains(line, dir+"/") {
			out = append(out, line)
		}
	}
	return out
}
