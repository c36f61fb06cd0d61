package wire_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/sqlfront/wire"
	"github.com/mallard/mallard/sqlstate"
)

// packet frames body as a startup packet: its length, then body.
func packet(body ...[]byte) []byte {
	b := bytes.Join(body, nil)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(b)+4)), b...)
}

func be32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func TestReadStartupPacket(t *testing.T) {
	params := []byte("user\x00mallard\x00database\x00db\x00\x00")
	tests := []struct {
		name     string
		in       []byte
		want     pgproto3.FrontendMessage
		wantCode sqlstate.Code // for a *sqlstate.Error
		wantErr  bool          // for any other error
	}{
		{"startup 3.0", packet(be32(3<<16), params),
			&pgproto3.StartupMessage{ProtocolVersion: 3 << 16, Parameters: map[string]string{"user": "mallard", "database": "db"}}, "", false},
		{"startup 3.2 keeps its minor version", packet(be32(3<<16|2), params),
			&pgproto3.StartupMessage{ProtocolVersion: 3<<16 | 2, Parameters: map[string]string{"user": "mallard", "database": "db"}}, "", false},
		{"ssl request", packet(be32(80877103)), &pgproto3.SSLRequest{}, "", false},
		{"gssenc request", packet(be32(80877104)), &pgproto3.GSSEncRequest{}, "", false},
		{"cancel request", packet(be32(80877102), be32(42), be32(0xdeadbeef)),
			&pgproto3.CancelRequest{ProcessID: 42, SecretKey: be32(0xdeadbeef)}, "", false},
		{"protocol 2.0", packet(be32(2<<16), params), nil, sqlstate.FeatureNotSupported, false},
		{"length under 8", append(be32(7), 0, 3, 0), nil, "", true},
		{"length over the limit", append(be32(wire.MaxStartupPacket+1), be32(3<<16)...), nil, "", true},
		{"negative length", append(be32(0xffffffff), be32(3<<16)...), nil, "", true},
		{"truncated", packet(be32(3<<16), params)[:20], nil, "", true},
		{"parameters not terminated", packet(be32(3<<16), []byte("user\x00mallard")), nil, "", true},
		{"empty", nil, nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := wire.ReadStartupPacket(bytes.NewReader(tt.in))
			var se *sqlstate.Error
			switch {
			case tt.wantCode != "":
				if !errors.As(err, &se) || se.Code != tt.wantCode {
					t.Fatalf("error %v, want SQLSTATE %s", err, tt.wantCode)
				}
			case tt.wantErr:
				if err == nil {
					t.Fatalf("got %#v, want an error", got)
				}
			case err != nil:
				t.Fatalf("error %v, want %#v", err, tt.want)
			default:
				if !sameMessage(got, tt.want) {
					t.Fatalf("got %#v, want %#v", got, tt.want)
				}
			}
		})
	}
}

// TestReadStartupPacketReadsOnePacket requires ReadStartupPacket to leave
// what follows a packet unread: after an SSLRequest comes the TLS
// handshake, and after a StartupMessage the client's first messages.
func TestReadStartupPacketReadsOnePacket(t *testing.T) {
	next := []byte("Q\x00\x00\x00\x0dSELECT 1\x00")
	r := bytes.NewReader(append(packet(be32(80877103)), next...))
	if _, err := wire.ReadStartupPacket(r); err != nil {
		t.Fatal(err)
	}
	if rest, _ := io.ReadAll(r); !bytes.Equal(rest, next) {
		t.Fatalf("left %q unread, want %q", rest, next)
	}
}

func TestCancelSecret(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want uint32
	}{
		{"four bytes", []byte{0xde, 0xad, 0xbe, 0xef}, 0xdeadbeef},
		{"three bytes", []byte{1, 2, 3}, 0},
		{"longer key of protocol 3.2", bytes.Repeat([]byte{1}, 32), 0},
		{"none", nil, 0},
	}
	for _, tt := range tests {
		if got := wire.CancelSecret(tt.in); got != tt.want {
			t.Errorf("%s: CancelSecret(%x) = %#x, want %#x", tt.name, tt.in, got, tt.want)
		}
	}
}

// FuzzStartupPacket reads the fuzzed bytes as the startup phase does: one
// packet after another while they are SSLRequests or GSSEncRequests (the
// server declines both and reads on). Whatever the bytes:
//   - ReadStartupPacket returns, without panicking;
//   - a packet it accepts is 8 to MaxStartupPacket bytes long, and it read
//     exactly that many bytes;
//   - a protocol it refuses is refused with FeatureNotSupported;
//   - a StartupMessage it accepts is of protocol 3, and reads back the
//     same once encoded again.
//
// The corpus is in testdata/fuzz/FuzzStartupPacket; sqlfront's FuzzStartup
// sends the same bytes to a running server.
func FuzzStartupPacket(f *testing.F) {
	f.Add(packet(be32(3<<16), []byte("user\x00mallard\x00\x00")))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		for {
			before := r.Len()
			msg, err := wire.ReadStartupPacket(r)
			if err != nil {
				var se *sqlstate.Error
				if errors.As(err, &se) && se.Code != sqlstate.FeatureNotSupported {
					t.Fatalf("refused with %s %q, want %s", se.Code, se.Message, sqlstate.FeatureNotSupported)
				}
				return
			}
			read := before - r.Len()
			start := len(data) - before
			if n := int(binary.BigEndian.Uint32(data[start:])); read != n || n < 8 || n > wire.MaxStartupPacket {
				t.Fatalf("read %d bytes of a packet of %d", read, n)
			}
			switch m := msg.(type) {
			case *pgproto3.SSLRequest, *pgproto3.GSSEncRequest:
				continue
			case *pgproto3.StartupMessage:
				checkStartupRoundTrip(t, m)
			}
			return
		}
	})
}

// checkStartupRoundTrip requires m, of protocol 3, to read back the same
// once encoded.
func checkStartupRoundTrip(t *testing.T, m *pgproto3.StartupMessage) {
	t.Helper()
	if m.ProtocolVersion>>16 != 3 {
		t.Fatalf("accepted protocol %d.%d", m.ProtocolVersion>>16, m.ProtocolVersion&0xffff)
	}
	enc, err := m.Encode(nil)
	if err != nil {
		return // a parameter holds a NUL: it came from a different encoding
	}
	again, err := wire.ReadStartupPacket(bytes.NewReader(enc))
	if err != nil || !sameMessage(again, m) {
		t.Fatalf("%#v encoded as %q reads back as %#v, %v", m, enc, again, err)
	}
}

// sameMessage reports whether two startup-phase messages are equal.
func sameMessage(a, b pgproto3.FrontendMessage) bool {
	switch a := a.(type) {
	case *pgproto3.StartupMessage:
		b, ok := b.(*pgproto3.StartupMessage)
		return ok && a.ProtocolVersion == b.ProtocolVersion && maps.Equal(a.Parameters, b.Parameters)
	case *pgproto3.CancelRequest:
		b, ok := b.(*pgproto3.CancelRequest)
		return ok && a.ProcessID == b.ProcessID && bytes.Equal(a.SecretKey, b.SecretKey)
	case *pgproto3.SSLRequest:
		_, ok := b.(*pgproto3.SSLRequest)
		return ok
	case *pgproto3.GSSEncRequest:
		_, ok := b.(*pgproto3.GSSEncRequest)
		return ok
	}
	return false
}
