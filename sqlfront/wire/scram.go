package wire

import (
	"fmt"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/xdg-go/scram"
)

// Conn is the connection an exchange of the startup phase runs on: Send
// buffers a message for Flush to write, and Receive decodes the client's
// next message, reading an authentication message as SetAuthType last
// said to expect. A *pgproto3.Backend is one.
type Conn interface {
	Send(pgproto3.BackendMessage)
	Flush() error
	Receive() (pgproto3.FrontendMessage, error)
	SetAuthType(uint32) error
}

// AuthenticateSCRAM runs the SASL exchange of SCRAM-SHA-256 on c against
// the verifier stored. It reports whether the client proved knowledge of
// the password and userOK; errors are protocol failures. For a wrong user
// the exchange runs to its end all the same, as in Postgres, so that a
// client learns nothing before the final failure. On success the last
// message, AuthenticationSASLFinal, is sent but not flushed.
func AuthenticateSCRAM(c Conn, stored scram.StoredCredentials, userOK bool) (bool, error) {
	server, err := scram.SHA256.NewServer(func(string) (scram.StoredCredentials, error) {
		// Postgres ignores the SCRAM user name; the startup user was checked already.
		return stored, nil
	})
	if err != nil {
		return false, err
	}
	conv := server.NewConversation()
	c.Send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{"SCRAM-SHA-256"}})
	if err := c.Flush(); err != nil {
		return false, err
	}
	msg, err := receiveAuth(c, pgproto3.AuthTypeSASL)
	if err != nil {
		return false, err
	}
	initial, ok := msg.(*pgproto3.SASLInitialResponse)
	if !ok || initial.AuthMechanism != "SCRAM-SHA-256" {
		return false, fmt.Errorf("expected SASLInitialResponse for SCRAM-SHA-256, got %T", msg)
	}
	first, err := conv.Step(string(initial.Data))
	if err != nil {
		return false, nil
	}
	c.Send(&pgproto3.AuthenticationSASLContinue{Data: []byte(first)})
	if err := c.Flush(); err != nil {
		return false, err
	}
	msg, err = receiveAuth(c, pgproto3.AuthTypeSASLContinue)
	if err != nil {
		return false, err
	}
	resp, ok := msg.(*pgproto3.SASLResponse)
	if !ok {
		return false, fmt.Errorf("expected SASLResponse, got %T", msg)
	}
	final, err := conv.Step(string(resp.Data))
	if err != nil || !conv.Valid() || !userOK {
		return false, nil
	}
	c.Send(&pgproto3.AuthenticationSASLFinal{Data: []byte(final)})
	return true, nil
}

// receiveAuth receives the client's answer to an authentication request
// of type t.
func receiveAuth(c Conn, t uint32) (pgproto3.FrontendMessage, error) {
	if err := c.SetAuthType(t); err != nil {
		return nil, err
	}
	return c.Receive()
}
