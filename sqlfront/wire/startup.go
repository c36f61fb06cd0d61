// Package wire holds the parts of Mallard's Postgres wire protocol (v3)
// that read and answer a client's bytes before a session exists: the
// packets of the startup phase and the SCRAM-SHA-256 exchange. It has no
// engine and no cgo in it, so that its decoders are tested and fuzzed
// without DuckDB or the SQL parser; package sqlfront runs it on a
// connection.
package wire

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/mallard/mallard/sqlstate"
)

// MaxStartupPacket is Postgres' limit on the length of a startup packet.
const MaxStartupPacket = 10000

// The request codes that take the place of a protocol version.
const (
	cancelRequestCode = 80877102
	sslRequestCode    = 80877103
	gssEncRequestCode = 80877104
)

type decoder interface {
	pgproto3.FrontendMessage
	Decode([]byte) error
}

// ReadStartupPacket reads one packet of the startup phase from r: an
// SSLRequest, GSSEncRequest, CancelRequest or StartupMessage. It reads
// exactly the packet's length, which it refuses outside 8 to
// MaxStartupPacket bytes; a protocol version whose major number is not 3
// fails with a *sqlstate.Error, FeatureNotSupported. A StartupMessage of
// protocol 3.x keeps its minor version, for the caller to negotiate down.
func ReadStartupPacket(r io.Reader) (pgproto3.FrontendMessage, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := int(int32(binary.BigEndian.Uint32(hdr[:])))
	if n < 8 || n > MaxStartupPacket {
		return nil, fmt.Errorf("invalid length of startup packet: %d", n)
	}
	body := make([]byte, n-4)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	code := binary.BigEndian.Uint32(body)
	var msg decoder
	switch {
	case code == sslRequestCode:
		msg = &pgproto3.SSLRequest{}
	case code == gssEncRequestCode:
		msg = &pgproto3.GSSEncRequest{}
	case code == cancelRequestCode:
		msg = &pgproto3.CancelRequest{}
	case code>>16 == 3:
		m := &pgproto3.StartupMessage{}
		if err := m.Decode(append([]byte{0, 3, 0, 0}, body[4:]...)); err != nil {
			return nil, err
		}
		m.ProtocolVersion = code
		return m, nil
	default:
		return nil, sqlstate.New(sqlstate.FeatureNotSupported,
			"unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", code>>16, code&0xFFFF)
	}
	return msg, msg.Decode(body)
}

// CancelSecret reads the 4-byte secret key of a protocol 3.0
// CancelRequest; 0 for a key of any other length.
func CancelSecret(b []byte) uint32 {
	if len(b) != 4 {
		return 0
	}
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}
