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
TAGS := netgo,osusergo
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

# CPGO=1 (the default) compiles the C side of the parser (the tree-sitter
# runtime, jsec's tree flattening and the C grammar) with gcc's
# profile-guided optimisation at -O3: scripts/cpgo.sh compiles it
# instrumented, parses the repository's C fixtures with it, compiles it
# again with the counts into build/cpgo/libjsecparse.a (15 s on the bench
# machine, redone only when those sources, the flags or the compiler
# change), and the binary links that archive instead of cgo's compile of
# the same files (-tags jsec_cpgo). A parse takes 27% fewer instructions
# than cgo's compile, the bench's three scans about 10% fewer. Where the
# script fails (another compiler, no gcov runtime) or GOOS/GOARCH name
# another platform, the build goes on without it, as with CPGO=0; go
# build and go test never use it. jsec version says which it is ("C
# parser").
CPGO ?= 1

.PHONY: build test bench bench-compare vet fmt fuzz pgo clean

build:
	@tags='$(TAGS)'; xldflags=''; \
	if [ '$(CPGO)' = 1 ] && [ "$$($(GO) env GOOS GOARCH)" != "$$($(GO) env GOHOSTOS GOHOSTARCH)" ]; then \
		echo 'make build: cross-compiling, so without the profile-guided C parser (built for this host)' >&2; \
	elif [ '$(CPGO)' = 1 ]; then \
		if CC='$(or $(CC),gcc)' scripts/cpgo.sh build/cpgo; then \
			tags="$${tags:+$$tags,}jsec_cpgo"; xldflags="-X github.com/jsec/jsec/checkers/syntax.cpgoKey=$$(cat build/cpgo/key)"; \
		else \
			echo 'make build: building without the profile-guided C parser (scripts/cpgo.sh failed; CPGO=0 skips it)' >&2; \
		fi; \
	fi; \
	set -x; CGO_ENABLED=1 $(GO) build -trimpath -tags "$$tags" -ldflags '$(LDFLAGS) '"$$xldflags"' $(LINKFLAGS)' -o $(BIN) ./cmd/jsec

# After make build, the parser's tests run again against the C code the
# binary links (scripts/cpgo.sh's archive, brought up to date first), as
# that code is compiled apart.
test:
	CGO_ENABLED=1 $(GO) test -pgo=off -count=1 ./...
	@if [ -f build/cpgo/libjsecparse.a ] && CC='$(or $(CC),gcc)' scripts/cpgo.sh build/cpgo; then \
		set -x; CGO_ENABLED=1 $(GO) test -pgo=off -count=1 -tags jsec_cpgo ./checkers/syntax/... ./checkers/c; fi

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
	rm -rf bin jsec-out build
