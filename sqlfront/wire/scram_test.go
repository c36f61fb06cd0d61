package wire_test

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/xdg-go/scram"

	"github.com/mallard/mallard/sqlfront/wire"
)

// stored is the verifier of user mallard, password s3cret.
func stored(t testing.TB) scram.StoredCredentials {
	t.Helper()
	client, err := scram.SHA256.NewClient("mallard", "s3cret", "")
	if err != nil {
		t.Fatal(err)
	}
	return client.GetStoredCredentials(scram.KeyFactors{Salt: "0123456789abcdef", Iters: 4096})
}

// scramClient answers the server's SCRAM exchange on conn as a client
// with password and mechanism does, until the exchange or conn ends.
func scramClient(conn net.Conn, password, mechanism string) {
	fe := pgproto3.NewFrontend(conn, conn)
	client, err := scram.SHA256.NewClient("mallard", password, "")
	if err != nil {
		return
	}
	conv := client.NewConversation()
	if _, err := fe.Receive(); err != nil { // AuthenticationSASL
		return
	}
	first, _ := conv.Step("")
	fe.Send(&pgproto3.SASLInitialResponse{AuthMechanism: mechanism, Data: []byte(first)})
	if fe.Flush() != nil {
		return
	}
	msg, err := fe.Receive()
	cont, ok := msg.(*pgproto3.AuthenticationSASLContinue)
	if err != nil || !ok {
		return
	}
	final, _ := conv.Step(string(cont.Data))
	fe.Send(&pgproto3.SASLResponse{Data: []byte(final)})
	fe.Flush()
}

func TestAuthenticateSCRAM(t *testing.T) {
	tests := []struct {
		name, password, mechanism string
		userOK                    bool
		want, wantErr             bool
	}{
		{"the password", "s3cret", "SCRAM-SHA-256", true, true, false},
		{"a wrong password", "secret", "SCRAM-SHA-256", true, false, false},
		{"the password of a wrong user", "s3cret", "SCRAM-SHA-256", false, false, false},
		{"another mechanism", "s3cret", "SCRAM-SHA-256-PLUS", true, false, true},
	}
	creds := stored(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server, client := net.Pipe()
			var wg sync.WaitGroup
			wg.Go(func() { scramClient(client, tt.password, tt.mechanism) })
			ok, err := wire.AuthenticateSCRAM(pgproto3.NewBackend(server, server), creds, tt.userOK)
			server.Close()
			wg.Wait()
			if ok != tt.want || (err != nil) != tt.wantErr {
				t.Fatalf("AuthenticateSCRAM = %v, %v; want %v, error %v", ok, err, tt.want, tt.wantErr)
			}
		})
	}
}

// frames encodes client messages as a client sends them.
func frames(t testing.TB, msgs ...pgproto3.FrontendMessage) []byte {
	var b []byte
	for _, m := range msgs {
		var err error
		if b, err = m.Encode(b); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// FuzzSCRAM reads the fuzzed bytes as a client's answers to the server's
// SCRAM-SHA-256 exchange (SASLInitialResponse, then SASLResponse). Whatever
// they hold, AuthenticateSCRAM returns, without panicking, and does not
// accept the client: the bytes cannot hold a proof for the server's
// nonce, which is new for every exchange. sqlfront's FuzzAuth sends such
// bytes to a running server.
func FuzzSCRAM(f *testing.F) {
	creds := stored(f)
	initial := func(mech, data string) *pgproto3.SASLInitialResponse {
		return &pgproto3.SASLInitialResponse{AuthMechanism: mech, Data: []byte(data)}
	}
	for _, seed := range [][]byte{
		frames(f, initial("SCRAM-SHA-256", "n,,n=,r=rOprNGfwEbeRWgbNEkqO"),
			&pgproto3.SASLResponse{Data: []byte("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")}),
		frames(f, initial("SCRAM-SHA-256", "y,,n=mallard,r=abc"), &pgproto3.SASLResponse{Data: []byte("c=eSws,r=abc,p=AAAA")}),
		frames(f, initial("SCRAM-SHA-256-PLUS", "p=tls-server-end-point,,n=,r=abc")),
		frames(f, initial("SCRAM-SHA-256", "")),
		frames(f, initial("", "\xff\x00")),
		frames(f, &pgproto3.Query{String: "SELECT 1"}),
		{'p', 0, 0, 0, 5, 0},
		{'p', 0, 0, 0, 200},
		frames(f, &pgproto3.Terminate{}),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		be := pgproto3.NewBackend(bytes.NewReader(data), io.Discard)
		be.SetMaxBodyLen(1 << 16) // as sqlfront's FuzzAuth configures its server: pgproto3 allocates a message's declared length
		if ok, err := wire.AuthenticateSCRAM(be, creds, true); ok {
			t.Fatalf("accepted a client without the password (error %v)", err)
		}
	})
}
