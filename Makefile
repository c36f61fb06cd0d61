# Mallard. `make run` starts the server; `make test` runs every test.
GO      ?= go
TAGS    := duckdb_arrow
GOFLAGS := -tags=$(TAGS)
BIN     := bin/mallard

.PHONY: all build run test test-go test-clients deps bench fuzz vet clean

all: build

build:
	$(GO) build $(GOFLAGS) -o $(BIN) ./cmd/mallard

run: build
	./$(BIN) serve

vet:
	$(GO) vet $(GOFLAGS) ./...

# test runs the Go tests and then the real-client tests against the real binary.
test: deps vet test-go test-clients

test-go:
	./scripts/with-postgres.sh $(GO) test $(GOFLAGS) -count=1 -timeout 20m ./...

test-clients: build
	./scripts/test-clients.sh

deps:
	./scripts/install-deps.sh

bench: build
	./scripts/bench.sh

fuzz:
	$(GO) test $(GOFLAGS) -run '^$$' -fuzz FuzzStartup -fuzztime 30s ./sqlfront/
	$(GO) test $(GOFLAGS) -run '^$$' -fuzz FuzzBind -fuzztime 30s ./sqlfront/

clean:
	rm -rf bin
