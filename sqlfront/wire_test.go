package sqlfront_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/mallard/mallard/sqlfront"
)

var update = flag.Bool("update", false, "rewrite the expected messages of testdata/wire scripts")

// TestWireScripts runs the send/expect scripts of wireScriptDirs through
// pgproto3.Frontend against a fresh server each. The scripts directly in
// testdata/wire test the wire alone: they use only what both engines
// answer alike (constants, parameters, the server's own statements and
// errors), so they run on memengine without cgo and on DuckDB with it.
// Those in testdata/wire/engine need real SQL (tables, COPY, DuckDB's
// errors) and run only on DuckDB. A script is a sequence of blocks
// separated by blank lines:
//
//	send
//	Parse {"Query": "SELECT $1::INTEGER"}
//	Sync
//
//	expect
//	{"Type":"ParseComplete"}
//	{"Type":"ReadyForQuery","TxStatus":"I"}
//
// An expect block reads messages until ReadyForQuery, or exactly as many as
// it lists if it lists no ReadyForQuery. Lines starting with # are comments.
func TestWireScripts(t *testing.T) {
	for _, dir := range wireScriptDirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no scripts in %s: %v", dir, err)
		}
		for _, file := range files {
			name, _ := filepath.Rel("testdata/wire", strings.TrimSuffix(file, ".txt"))
			t.Run(filepath.ToSlash(name), func(t *testing.T) {
				runScript(t, file)
			})
		}
	}
}

type block struct {
	kind  string
	lines []string
}

func parseScript(t *testing.T, file string) []block {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []block
	var cur *block
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "":
			cur = nil
		case cur == nil:
			blocks = append(blocks, block{kind: line})
			cur = &blocks[len(blocks)-1]
		default:
			cur.lines = append(cur.lines, line)
		}
	}
	return blocks
}

// MALLARD_WIRE_ADDR=host:port runs the scripts against another server, such
// as a real PostgreSQL, to compare behaviour by reading the failures (its
// error texts differ from DuckDB's; the message sequences should not).
func runScript(t *testing.T, file string) {
	addr := os.Getenv("MALLARD_WIRE_ADDR")
	if addr == "" {
		addr = startServer(t, sqlfront.Config{})
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fe := pgproto3.NewFrontend(conn, conn)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": scriptUser(), "database": scriptUser()}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	readUntilReady(t, conn, fe)
	blocks := parseScript(t, file)
	for i := range blocks {
		b := &blocks[i]
		switch b.kind {
		case "send":
			for _, l := range b.lines {
				fe.Send(frontendMessage(t, l))
			}
			if err := fe.Flush(); err != nil {
				t.Fatal(err)
			}
		case "expect":
			got := receive(t, conn, fe, b.lines)
			if *update {
				b.lines = got
				continue
			}
			if strings.Join(got, "\n") != strings.Join(b.lines, "\n") {
				t.Errorf("block %d:\ngot:\n%s\nwant:\n%s", i, strings.Join(got, "\n"), strings.Join(b.lines, "\n"))
			}
		default:
			t.Fatalf("unknown block %q", b.kind)
		}
	}
	if *update {
		writeScript(t, file, blocks)
	}
}

// receive reads the messages an expect block stands for and renders them.
func receive(t *testing.T, conn net.Conn, fe *pgproto3.Frontend, want []string) []string {
	untilReady := len(want) == 0 || strings.Contains(want[len(want)-1], `"ReadyForQuery"`)
	var got []string
	for {
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		msg, err := fe.Receive()
		if err != nil {
			return append(got, fmt.Sprintf("receive error: %v", err))
		}
		js, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(js))
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok && untilReady {
			return got
		}
		if !untilReady && len(got) == len(want) {
			return got
		}
	}
}

func readUntilReady(t *testing.T, conn net.Conn, fe *pgproto3.Frontend) {
	for {
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		msg, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			return
		}
	}
}

// frontendMessage parses `Type {json}` into a frontend message.
func frontendMessage(t *testing.T, line string) pgproto3.FrontendMessage {
	name, body, _ := strings.Cut(line, " ")
	var msg pgproto3.FrontendMessage
	switch name {
	case "Query":
		msg = &pgproto3.Query{}
	case "Parse":
		msg = &pgproto3.Parse{}
	case "Bind":
		msg = &pgproto3.Bind{}
	case "Describe":
		msg = &pgproto3.Describe{}
	case "Execute":
		msg = &pgproto3.Execute{}
	case "Close":
		msg = &pgproto3.Close{}
	case "Sync":
		msg = &pgproto3.Sync{}
	case "Flush":
		msg = &pgproto3.Flush{}
	case "CopyData":
		msg = &pgproto3.CopyData{}
	case "CopyDone":
		msg = &pgproto3.CopyDone{}
	case "CopyFail":
		msg = &pgproto3.CopyFail{}
	case "Terminate":
		msg = &pgproto3.Terminate{}
	default:
		t.Fatalf("unknown message %q", name)
	}
	if cd, ok := msg.(*pgproto3.CopyData); ok && strings.HasPrefix(body, `"`) {
		// CopyData "text" sends the JSON string's bytes, for readable scripts.
		var data string
		if err := json.Unmarshal([]byte(body), &data); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		cd.Data = []byte(data)
		return cd
	}
	if body != "" {
		if err := json.Unmarshal([]byte(body), msg); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	return msg
}

func writeScript(t *testing.T, file string, blocks []block) {
	data, _ := os.ReadFile(file)
	var header []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "#") {
			break
		}
		header = append(header, l)
	}
	var out strings.Builder
	for _, h := range header {
		out.WriteString(h + "\n")
	}
	for _, b := range blocks {
		out.WriteString("\n" + b.kind + "\n")
		for _, l := range b.lines {
			out.WriteString(l + "\n")
		}
	}
	if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func scriptUser() string {
	if u := os.Getenv("MALLARD_WIRE_USER"); u != "" {
		return u
	}
	return "mallard"
}
