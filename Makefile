GO ?= go
BIN := bin/jsec
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)

# bin/jsec is a static executable where the C library allows one (glibc
# with its libc.a, as Debian's libc6-dev installs it): it needs no shared
# library at run time (a CI image of another distribution can run it) and
# no dynamic loader at start-up (jsec version 1-2 ms
# sooner on the bench machine in the last measurements, up to 8 ms in an
# earlier, slower state of its host). netgo and osusergo keep host and
# user lookups in Go, which a static glibc cannot do (Go's resolver reads
# /etc/hosts and DNS, not NSS modules). STATIC=0 builds the usual dynamic
# executable.
STATIC ?= $(shell printf 'int main(void){return 0;}\n' | $${CC:-cc} -x c -static -o /dev/null - >/dev/null 2>&1 && echo 1 || echo 0)
ifeq ($(STATIC),1)
BUILDTAGS := -tags netgo,osusergo
LINKFLAGS := -linkmode external -extldflags "-static"
endif

.PHONY: build test bench bench-compare vet fmt fuzz pgo clean

build:
	CGO_ENABLED=1 $(GO) build -trimpath $(BUILDTAGS) -ldflags '$(LDFLAGS) $(LINKFLAGS)' -o $(BIN) ./cmd/jsec

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
