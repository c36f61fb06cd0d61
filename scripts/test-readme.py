#!/usr/bin/env python3
"""Runs the walk-through of README.md and the manual in docs/ as a test.

Every ```text block of the pages (README.md, then those of docs/ in PAGES'
order) that holds a line starting with "mallard=> " is part of the
walk-through. A command is the text after "mallard=> " and the lines after it
up to the one ending in ";", or a single line starting with a backslash (a
psql meta command such as \\copy). The lines after a command, up to the next
command or the end of its block, are what the page says psql prints for it.

The commands run in page order, in one psql session from the repository
root, against a fresh `bin/mallard serve` on a free port with a database in a
temporary directory. Each command's output is compared with the page's:
  - trailing whitespace, blank lines and psql's "(N rows)" lines are ignored;
  - a line that is only "..." stands for any lines, none included;
  - everything else, NOTICE, ERROR, DETAIL, HINT and LINE lines included, must
    be equal. Training is seeded, so its NOTICEs are reproducible; only the
    per-worker seconds a multi-worker epoch NOTICE ends with, and the phase
    times of train_gat's "outside the epochs" NOTICE, are masked (as
    "<seconds>") in both the page and the output.

Prints "PASS psql: PAGES" or, with a diff of each page against what it should
say, "FAIL psql: PAGES: why", and exits 0 or 1.

UPDATE=1 rewrites the output of every command whose output differs, keeping
the page's "..." elisions and its choice of showing "(N rows)"; read the diff
before committing. Options: --bin (default bin/mallard), --readme (the pages,
default PAGES), --timeout (seconds for the whole walk-through).
"""

import argparse
import difflib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PROMPT = "mallard=> "
MARKER = "@@mallard-readme-command"
ROWS = re.compile(r"^\(\d+ rows?\)$")
ELISION = "..."
# The per-worker seconds a multi-worker epoch NOTICE ends with, e.g.
# "workers' gradient+reduce+step+barrier+evaluate: 0.2+0.0+0.5+0.0+1.1s, ...":
# time, never repeatable.
SECONDS = re.compile(r"\d+\.\d+(\+\d+\.\d+){4}")
# The phases of train_gat's NOTICE "outside the epochs: read 0.03s, ...":
# time too.
PHASES = re.compile(r"\d+\.\d+s\b")


class Command:
    """One command of the walk-through and the output the README shows."""

    def __init__(self, line, sql):
        self.line = line  # 1-based line number of "mallard=> " in the README
        self.sql = sql
        self.out_start = 0  # index in the README's lines of its first output line
        self.out_end = 0  # one past its last output line

    def where(self, readme):
        return "%s:%d" % (readme, self.line)


class Failure(Exception):
    """Why the walk-through could not be compared, and the server's last words."""

    def __init__(self, why, log=""):
        super().__init__(why)
        self.why, self.log = why, log


def parse(lines, readme):
    """Returns the walk-through's commands, in order."""
    commands = []
    i, n = 0, len(lines)
    while i < n:
        if not lines[i].startswith("```text"):
            i += 1
            continue
        end = i + 1
        while end < n and not lines[end].startswith("```"):
            end += 1
        block = range(i + 1, end)
        if any(lines[j].startswith(PROMPT) for j in block):
            commands += parse_block(lines, i + 1, end, readme)
        i = end + 1
    return commands


def parse_block(lines, start, end, readme):
    commands = []
    j = start
    while j < end and not lines[j].startswith(PROMPT):
        j += 1  # shell lines such as "$ make run &"
    while j < end:
        first = lines[j][len(PROMPT):]
        sql = [first]
        k = j + 1
        if not first.startswith("\\"):
            while not sql[-1].rstrip().endswith(";"):
                if k >= end or lines[k].startswith(PROMPT):
                    raise Failure("%s:%d: the command does not end with ';'" % (readme, j + 1))
                sql.append(lines[k])
                k += 1
        cmd = Command(j + 1, "\n".join(sql))
        cmd.out_start = k
        while k < end and not lines[k].startswith(PROMPT):
            k += 1
        cmd.out_end = k
        commands.append(cmd)
        j = k
    return commands


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def psql(port, *args, **kw):
    env = dict(os.environ, PGOPTIONS="")
    base = ["psql", "-X", "-h", "127.0.0.1", "-p", str(port), "-U", "mallard", "-d", "mallard"]
    return subprocess.run(base + list(args), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, **kw)


def run(commands, binary, timeout):
    """Runs the commands on a fresh server; returns each one's output lines."""
    work = tempfile.mkdtemp(prefix="mallard-readme-")
    port = free_port()
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:%d" % port, "--http", "",
                               "--db", os.path.join(work, "readme.duckdb"), "--log-level", "warn"],
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            if server.poll() is not None or psql(port, "-Atc", "select 1").returncode == 0:
                break
            time.sleep(0.1)
        script = []
        for i, cmd in enumerate(commands):
            script.append("\\echo %s %d" % (MARKER, i))
            script.append(cmd.sql)
        script.append("\\echo %s end" % MARKER)
        try:
            # Read from stdin, not -f, so that psql does not prefix its
            # messages with the file's name and line.
            got = psql(port, "-v", "ON_ERROR_STOP=0", input="\n".join(script) + "\n",
                       timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure("the walk-through took more than %d s" % timeout, server_log(work))
        outputs = split(got.stdout, len(commands))
        if outputs is None:
            raise Failure("psql exited with status %d before the end; its output:\n%s"
                          % (got.returncode, got.stdout[-3000:]), server_log(work))
        return outputs
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


def server_log(work):
    try:
        with open(os.path.join(work, "server.log")) as f:
            return "".join(f.readlines()[-20:])
    except OSError:
        return ""


def split(text, n):
    """Splits psql's output at the markers; None if it did not reach the end."""
    outputs, current = [], None
    for line in text.split("\n"):
        if line.startswith(MARKER + " "):
            if current is not None:
                outputs.append(current)
            if line == MARKER + " end":
                return outputs if len(outputs) == n else None
            current = []
        elif current is not None:
            current.append(line)
    return None


def mask(line):
    line = SECONDS.sub("<seconds>", line.rstrip())
    if "outside the epochs:" in line:
        line = PHASES.sub("<seconds>", line)
    return line


def significant(lines):
    """The lines a comparison reads: no blank lines, no "(N rows)"."""
    return [mask(l) for l in lines if l.strip() and not ROWS.match(l.strip())]


def matches(want, got):
    """Whether got matches want, in which an ELISION line stands for any lines."""
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(want):
            r = j == len(got)
        elif want[i].strip() == ELISION:
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and want[i] == got[j] and m(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    return m(0, 0)


def shape(line):
    return re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "#", line)


def render(old, got):
    """The README lines that show got, in the style of old: its elisions kept,
    its "(N rows)" lines and blank lines kept only if old has them."""
    got = [l.rstrip() for l in got]
    while got and not got[-1]:
        got.pop()
    verbatim = any(ROWS.match(l.strip()) for l in old)
    if verbatim:
        if old and not old[-1].strip():
            got.append("")
    else:
        got = [l for l in got if l and not ROWS.match(l.strip())]
    segments, elisions = [[]], []
    for l in old:
        if l.strip() == ELISION:
            elisions.append(l)
            segments.append([])
        else:
            segments[-1].append(l)
    if not elisions or sum(len(s) for s in segments) > len(got):
        return got
    # The first segment shows the first lines, the last the last; a segment
    # between goes where its lines' shapes (numbers aside) fit best.
    out = got[:len(segments[0])]
    pos, tail = len(segments[0]), len(got) - len(segments[-1])
    for seg, elision in zip(segments[1:-1], elisions):
        best, where = -1, pos
        for p in range(pos, tail - len(seg) + 1):
            score = sum(shape(a) == shape(b) for a, b in zip(seg, got[p:p + len(seg)]))
            if score > best:
                best, where = score, p
        out += [elision] + got[where:where + len(seg)]
        pos = where + len(seg)
    return out + [elisions[-1]] + got[tail:]


# PAGES are the manual's pages with walk-throughs, in the order they run:
# one psql session goes through README.md and then each page, so a page may
# use what an earlier one made (the forecasting page trains on the table the
# data-preparation page builds).
PAGES = ["README.md", "docs/data-preparation.md", "docs/forecasting.md", "docs/registry.md",
         "docs/recommendations.md", "docs/dashboard.md", "docs/operations.md", "docs/postgres.md",
         "docs/moving-data.md", "docs/scaling-out.md", "docs/limits.md", "docs/performance.md",
         "docs/development.md", "docs/classifier.md"]


def compare(path, lines, commands, outputs):
    """Returns path's lines as run and the places whose output differs."""
    new, differ, last = [], [], 0
    for cmd, got in zip(commands, outputs):
        old = lines[cmd.out_start:cmd.out_end]
        new += lines[last:cmd.out_start]
        if matches(significant(old), significant(got)):
            new += old
        else:
            new += render(old, got)
            differ.append(cmd.where(path))
        last = cmd.out_end
    return new + lines[last:], differ


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)  # the walk-through's \copy paths are relative to it
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="bin/mallard")
    ap.add_argument("--readme", nargs="+", default=PAGES, help="the pages, in the order they run")
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    update = os.environ.get("UPDATE") == "1"
    check = "psql: " + " ".join(args.readme)

    pages, commands = [], []
    try:
        for path in args.readme:
            with open(path) as f:
                lines = f.read().split("\n")
            mine = parse(lines, path)
            pages.append((path, lines, len(commands), len(commands) + len(mine)))
            commands += mine
        if not commands:
            raise Failure("no walk-through command found")
        outputs = run(commands, os.path.abspath(args.bin), args.timeout)
    except Failure as e:
        print("FAIL %s: %s" % (check, e.why))
        if e.log:
            print("--- server log (last 20 lines)\n" + e.log, end="")
        return 1

    differ = []
    for path, lines, first, last in pages:
        new, bad = compare(path, lines, commands[first:last], outputs[first:last])
        if not bad:
            continue
        differ += bad
        print("\n".join(difflib.unified_diff(lines, new, path, path + " (as run)", lineterm="")))
        if update:
            with open(path, "w") as f:
                f.write("\n".join(new))
    if not differ:
        print("PASS %s (%d commands)" % (check, len(commands)))
        return 0
    if update:
        print("UPDATE=1: rewrote the output of %d commands; read the diff above" % len(differ))
        return 0
    print("FAIL %s: the output of %d commands differs (%s; diff above; UPDATE=1 rewrites it)"
          % (check, len(differ), ", ".join(differ)))
    return 1


if __name__ == "__main__":
    sys.exit(main())
