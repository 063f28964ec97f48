#!/usr/bin/env bash
# Regenerates cmd/jsec/default.pgo, the CPU profile Go's profile-guided
# optimisation builds jsec with (go build picks it up by itself): scans of
# Debian's curl, git, redis (C) and protobuf (C++) sources, in-process
# (BenchmarkScan, for enough samples) and through the binary (start-up and
# reports). Usage: scripts/pgo.sh [corpus dir] (default $JSEC_BENCH_CORPUS;
# scripts/bench.sh fetches the packages there).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-${JSEC_BENCH_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/jsec-bench}}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
dirs=()
for p in curl git redis protobuf; do
	d=$(find "$CORPUS" -maxdepth 1 -type d -name "$p-[0-9]*" | sort | tail -1)
	[ -n "$d" ] || { echo "pgo: no $p under $CORPUS (run scripts/bench.sh $p first)" >&2; exit 1; }
	dirs+=("$d")
done
# The C packages together, without quilt's .pc copies, as one tree.
mkdir -p "$out/c"
cp -a "${dirs[@]:0:3}" "$out/c/"
find "$out/c" -name .pc -prune -exec rm -rf {} +
JSEC_BENCH_DIR="$out/c" go test ./checkers -run '^$' -bench BenchmarkScan -benchtime 12x -pgo=off -cpuprofile "$out/c.pprof" >/dev/null
mkdir -p "$out/cpp" && cp -a "${dirs[3]}" "$out/cpp/" && find "$out/cpp" -name .pc -prune -exec rm -rf {} +
JSEC_BENCH_DIR="$out/cpp" go test ./checkers -run '^$' -bench BenchmarkScan -benchtime 6x -pgo=off -cpuprofile "$out/cpp.pprof" >/dev/null
go build -pgo=off -o "$out/jsec" ./cmd/jsec
for d in "${dirs[@]}"; do
	JSEC_CPUPROFILE="$out/bin-$(basename "$d").pprof" "$out/jsec" scan --no-ignore --no-default-excludes --exclude .pc/ -q --fail-on never --out "$out/o" "$d"
done
go tool pprof -proto "$out"/*.pprof > cmd/jsec/default.pgo
echo "pgo: wrote cmd/jsec/default.pgo ($(wc -c < cmd/jsec/default.pgo) bytes)"
