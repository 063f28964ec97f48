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

# GOAMD64 is the x86-64 level the Go code is compiled for: v3 (AVX2,
# BMI2, FMA, MOVBE) when this machine runs v3 code (the Go runtime's own
# check: a trivial v3 program starts), which took 2-4% less CPU on the
# bench (curl, git and redis: 1,450 -> 1,389 ms median of 12 interleaved
# rounds); otherwise Go's default, v1. A v3 executable runs only on
# x86-64 processors of that level (about 2013 on); GOAMD64=v1 make build
# makes one that runs on any. The C code (tree-sitter) is left at gcc's
# default: -march=x86-64-v3 did not change its speed.
ifeq ($(origin GOAMD64),undefined)
GOAMD64 := $(shell [ "$$($(GO) env GOARCH 2>/dev/null)" = amd64 ] && d=$$(mktemp -d) && printf 'package main\n\nfunc main() {}\n' > $$d/m.go && GOAMD64=v3 $(GO) run $$d/m.go >/dev/null 2>&1 && echo v3; rm -rf $${d:-/nonexistent})
endif
ifneq ($(GOAMD64),)
export GOAMD64
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
