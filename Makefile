# Mallard. `make run` starts the server; `make test` runs every test.
GO      ?= go
TAGS    := duckdb_arrow
GOFLAGS := -tags=$(TAGS)
BIN     := bin/mallard

.PHONY: all build build-mpi run movielens test test-go test-nocgo test-mpi bench-mpi test-clients examples deps bench fuzz vet clean

all: build

build:
	$(GO) build $(GOFLAGS) -o $(BIN) ./cmd/mallard

# build-mpi builds mallard with train-worker over MPI (needs libopenmpi-dev).
build-mpi:
	$(GO) build -tags=$(TAGS),mpi -o $(BIN)-mpi ./cmd/mallard

run: build
	@$(MAKE) -s movielens || echo "note: the MovieLens part of examples.sql needs make movielens (R with Debian's r-cran-dslabs)" >&2
	./$(BIN) serve

# movielens writes MovieLens small, which the tests and examples.sql read,
# from the movielens data set of Debian's r-cran-dslabs (scripts/movielens.R).
# It is not committed: GroupLens' terms forbid commercial use without
# permission.
MOVIELENS := examples/data/movielens-small/ratings.csv examples/data/movielens-small/movies.csv
movielens: $(MOVIELENS)
$(MOVIELENS) &: scripts/movielens.R
	Rscript scripts/movielens.R examples/data/movielens-small

vet:
	$(GO) vet $(GOFLAGS) ./...

# test runs the Go tests, the cgo-free packages' tests without cgo, every fuzz
# target for FUZZTIME (scripts/fuzz.sh), and then the real-client tests against
# the real binary.
test: deps vet test-go test-nocgo test-mpi fuzz test-clients

test-go: movielens
	./scripts/with-postgres.sh $(GO) test $(GOFLAGS) -count=1 -timeout 20m ./...

# test-nocgo keeps the wire free of DuckDB and the SQL parser: sqlfront
# (which sees them only through its Engine and Planner interfaces), its
# decoders (value codecs, startup packets and SCRAM, COPY data), the
# statements the planner hands it (planner/plan) and the types they read
# build, vet and pass their tests without cgo. The wire fuzzers FuzzStartup,
# FuzzMessages and FuzzAuth run their seed corpora there on
# sqlfront/internal/memengine, and TestWireScripts the wire-only scripts of
# sqlfront/testdata/wire; with DuckDB (test-go) they run on the real
# engine, the scripts with those of testdata/wire/engine. pgcodec compares
# its encodings with PostgreSQL 15, hence with-postgres.sh.
NOCGO := ./sqltype/... ./planner/plan/... ./sqlfront/...
test-nocgo:
	CGO_ENABLED=0 $(GO) vet $(NOCGO)
	CGO_ENABLED=0 ./scripts/with-postgres.sh $(GO) test -count=1 $(NOCGO)

# test-mpi runs the packages that use MPI with it: ranks under mpirun
# (needs libopenmpi-dev and openmpi-bin).
test-mpi:
	$(GO) vet -tags=$(TAGS),mpi ./mlops/parallel/ ./mlops/job/ ./cmd/mallard/ ./functions/
	$(GO) test -tags=$(TAGS),mpi -count=1 -timeout 10m ./mlops/parallel/ ./mlops/job/
	$(GO) test -tags=$(TAGS),mpi -count=1 -timeout 10m -run 'TestRanks' ./functions/
	$(GO) test -tags=$(TAGS),mpi -count=1 -timeout 10m -run 'TestKilledDuringMPITraining' ./cmd/mallard/

test-clients: build movielens
	./scripts/test-clients.sh

# examples rewrites what the tours print: examples.out, testdata/psql/*.out and
# the walk-throughs of README.md and docs/ (read the diff before committing).
# make test fails when any of them is stale.
examples: build movielens
	UPDATE=1 CLIENTS=psql ./scripts/test-clients.sh

deps:
	./scripts/install-deps.sh

bench: build
	./scripts/bench.sh

bench-mpi: build-mpi
	./scripts/mpi-bench.sh
	./scripts/allreduce-bench.sh

fuzz:
	GO=$(GO) ./scripts/fuzz.sh

clean:
	rm -rf bin
