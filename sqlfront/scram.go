package sqlfront

import (
	"crypto/rand"
	"crypto/subtle"
	"fmt"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/xdg-go/scram"

	"github.com/mallard/mallard/sqlfront/wire"
)

// scramIterations is the PBKDF2 iteration count of stored verifiers, as in Postgres.
const scramIterations = 4096

// Credentials is a SCRAM-SHA-256 verifier for one user: the salted keys,
// never the password.
type Credentials struct {
	User   string
	stored scram.StoredCredentials
}

// NewCredentials derives a verifier for user and password with a random salt.
func NewCredentials(user, password string) (*Credentials, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, fmt.Errorf("scram salt: %w", err)
	}
	client, err := scram.SHA256.NewClient(user, password, "")
	if err != nil {
		return nil, fmt.Errorf("scram verifier: %w", err)
	}
	kf := scram.KeyFactors{Salt: string(salt), Iters: scramIterations}
	return &Credentials{User: user, stored: client.GetStoredCredentials(kf)}, nil
}

// Verify reports whether user and password are the ones c was made from,
// for sides of Mallard that receive a password rather than a SCRAM
// proof (the dashboard's HTTP basic authentication). It takes as long as
// a SCRAM login: the key derivation is the work.
func (c *Credentials) Verify(user, password string) bool {
	client, err := scram.SHA256.NewClient(user, password, "")
	if err != nil {
		return false
	}
	got := client.GetStoredCredentials(c.stored.KeyFactors)
	keyOK := subtle.ConstantTimeCompare([]byte(got.StoredKey), []byte(c.stored.StoredKey)) == 1
	return keyOK && subtle.ConstantTimeCompare([]byte(user), []byte(c.User)) == 1
}

// authenticateSCRAM runs the SASL exchange (see wire.AuthenticateSCRAM).
func (c *startup) authenticateSCRAM(creds *Credentials, userOK bool) (bool, error) {
	return wire.AuthenticateSCRAM(startupConn{c}, creds.stored, userOK)
}

// startupConn is the startup's connection as wire's exchanges use it:
// messages go through the startup's writer, and come from its Backend.
type startupConn struct{ c *startup }

func (s startupConn) Send(m pgproto3.BackendMessage)             { s.c.send(m) }
func (s startupConn) Flush() error                               { return s.c.flush() }
func (s startupConn) Receive() (pgproto3.FrontendMessage, error) { return s.c.be.Receive() }
func (s startupConn) SetAuthType(t uint32) error                 { return s.c.be.SetAuthType(t) }
