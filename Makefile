# Mallard. `make run` starts the server; `make test` runs every test.
GO      ?= go
TAGS    := duckdb_arrow
GOFLAGS := -tags=$(TAGS)
BIN     := bin/mallard

.PHONY: all build run test test-go test-nocgo test-clients deps bench fuzz vet clean

all: build

build:
	$(GO) build $(GOFLAGS) -o $(BIN) ./cmd/mallard

run: build
	./$(BIN) serve

vet:
	$(GO) vet $(GOFLAGS) ./...

# test runs the Go tests, the cgo-free packages' tests without cgo, every fuzz
# target for FUZZTIME (scripts/fuzz.sh), and then the real-client tests against
# the real binary.
test: deps vet test-go test-nocgo fuzz test-clients

test-go:
	./scripts/with-postgres.sh $(GO) test $(GOFLAGS) -count=1 -timeout 20m ./...

# test-nocgo keeps the wire's decoders (value codecs, startup packets and
# SCRAM, COPY data) and the types they read free of DuckDB and the SQL
# parser: they, their tests and their fuzzers' seed corpora build and pass
# without cgo.
NOCGO := ./sqltype/... ./sqlfront/pgcodec/... ./sqlfront/wire/... ./sqlfront/copyin/...
test-nocgo:
	CGO_ENABLED=0 $(GO) test -count=1 $(NOCGO)

test-clients: build
	./scripts/test-clients.sh

deps:
	./scripts/install-deps.sh

bench: build
	./scripts/bench.sh

fuzz:
	GO=$(GO) ./scripts/fuzz.sh

clean:
	rm -rf bin
