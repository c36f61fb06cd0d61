package sqlfront

import (
	"crypto/rand"
	"crypto/subtle"
	"fmt"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/xdg-go/scram"
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

// authenticateSCRAM runs the SASL exchange. It reports whether the client
// proved knowledge of the password and userOK; errors are protocol
// failures. For a wrong user the exchange runs to its end all the same, as
// in Postgres, so that a client learns nothing before the final failure.
func (c *startup) authenticateSCRAM(creds *Credentials, userOK bool) (bool, error) {
	server, err := scram.SHA256.NewServer(func(string) (scram.StoredCredentials, error) {
		// Postgres ignores the SCRAM user name; the startup user was checked already.
		return creds.stored, nil
	})
	if err != nil {
		return false, err
	}
	conv := server.NewConversation()
	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{"SCRAM-SHA-256"}})
	if err := c.flush(); err != nil {
		return false, err
	}
	c.be.SetAuthType(pgproto3.AuthTypeSASL)
	msg, err := c.be.Receive()
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
	c.send(&pgproto3.AuthenticationSASLContinue{Data: []byte(first)})
	if err := c.flush(); err != nil {
		return false, err
	}
	c.be.SetAuthType(pgproto3.AuthTypeSASLContinue)
	msg, err = c.be.Receive()
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
	c.send(&pgproto3.AuthenticationSASLFinal{Data: []byte(final)})
	return true, nil
}
