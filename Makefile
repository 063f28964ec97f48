GO ?= go
BIN := bin/jsec
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)

.PHONY: build test bench bench-compare vet fmt fuzz pgo clean

build:
	CGO_ENABLED=1 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/jsec

test:
	CGO_ENABLED=1 $(GO) test -pgo=off -count=1 ./...

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; echo 'gofmt: files above need formatting'; exit 1)

bench:
	CGO_ENABLED=1 $(GO) test -pgo=off -run '^$$' -bench . -benchmem ./...
	@./scripts/bench.sh

fuzz:
	./scripts/fuzz.sh

# Regenerates cmd/jsec/default.pgo (profile-guided optimisation) from scans
# of the bench corpus.
pgo:
	./scripts/pgo.sh

clean:
	rm -rf bin jsec-out
