#!/usr/bin/env bash
# Instructions executed by `jsec scan` on each package, counted by
# valgrind's cachegrind: one worker (--jobs 1, GOMAXPROCS=1), so that the
# count repeats to within about 0.01% from run to run, where wall and CPU
# times on a shared machine move by 5-15%. For comparing two builds of
# jsec when the difference is a few percent:
#
#   scripts/instructions.sh OLD_BIN NEW_BIN [package...]   (default: curl git redis)
#
# The packages are the bench's (scripts/bench.sh): Debian sources under
# $JSEC_BENCH_CORPUS. Counts are of instructions, not time: code that
# waits on memory (tree-sitter's tree, page faults) is cheaper by count
# than by clock, so confirm a change's time with interleaved rounds too.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 2 ] || { echo "usage: $0 OLD_BIN NEW_BIN [package...]" >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
PKGS=("$@")
[ ${#PKGS[@]} -gt 0 ] || PKGS=(curl git redis)
CORPUS=${JSEC_BENCH_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/jsec-bench}

if ! command -v valgrind >/dev/null 2>&1; then
	SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get install -y -q valgrind >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q valgrind >/dev/null; } ||
		{ echo "instructions: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { # count BIN DIR: instructions of one scan
	GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
		"$1" scan --jobs 1 --no-ignore --no-default-excludes --exclude .pc/ --lang c,cpp -q --fail-on never --out "$out/r" "$2" 2>&1 |
		awk '/I +refs:/ {gsub(",", "", $NF); print $NF}'
}
printf '%-28s %16s %16s %8s\n' package old new change
told=0 tnew=0
for p in "${PKGS[@]}"; do
	dir=$(find "$CORPUS" -maxdepth 1 -type d -name "$p-*" | sort | tail -1)
	[ -n "$dir" ] || { echo "instructions: no $p-* under $CORPUS (see scripts/bench.sh)" >&2; exit 2; }
	o=$(count "$OLD" "$dir") n=$(count "$NEW" "$dir")
	[ -n "$o" ] && [ -n "$n" ] || { echo "instructions: valgrind gave no count for $dir" >&2; exit 1; }
	told=$((told + o)) tnew=$((tnew + n))
	printf '%-28s %16d %16d %+7.2f%%\n' "$(basename "$dir")" "$o" "$n" "$(awk -v o="$o" -v n="$n" 'BEGIN{print 100*(n-o)/o}')"
done
printf '%-28s %16d %16d %+7.2f%%\n' total "$told" "$tnew" "$(awk -v o="$told" -v n="$tnew" 'BEGIN{print 100*(n-o)/o}')"
