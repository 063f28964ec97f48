#!/usr/bin/env bash
# Builds the C side of jsec's parser with gcc's profile-guided
# optimisation: the tree-sitter runtime (checkers/syntax/runtime.c), jsec's
# tree flattening (flatten.c) and the C grammar (internal/grammars/
# c_parser.c, maps.c) go into one static archive, OUTDIR/libjsecparse.a,
# which `make build` links instead of having cgo compile those files (the
# jsec_cpgo build tag; see checkers/syntax/cpgo.go).
#
#   1. compile them instrumented (-fprofile-generate);
#   2. parse the repository's C fixtures with them (scripts/cpgo/train.c,
#      through jsec_parse as the Go code calls it), which writes the
#      counts next to the objects (OUTDIR/*.gcda);
#   3. compile them again with the counts (-fprofile-use) and archive them.
#
# Usage: scripts/cpgo.sh OUTDIR. Does nothing when OUTDIR holds an archive
# of the same sources, compiler and flags (OUTDIR/key). Exits non-zero,
# saying which step failed, when any does: `make build` then builds
# without it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/cpgo.sh OUTDIR}
CC=${CC:-gcc}
S=checkers/syntax
G=$S/internal/grammars
# The flags cgo compiles these files with (syntax.go, ndebug.go,
# grammars.go: -O2, -DNDEBUG, position-independent code), but -O3: with
# the profile it took a parse 13% fewer instructions than -O2 did (and
# about 10% less CPU); without one, -O3 had not helped. And
# -fno-semantic-interposition: position-independent code otherwise lets
# another shared object replace any global function, so gcc inlines none
# of the runtime's (jsec_ts_subtree_*, jsec_ts_stack_*, ...) into the
# parse loop of the same file; jsec links them statically, where nothing
# can. Without it a parse took 19% more instructions (1,500 M against
# 1,261 M on 2.1 MB of git's C files).
common=(-O3 -fPIC -fno-semantic-interposition -pthread -w)
rt=("${common[@]}" -DNDEBUG -I"$S" -I"$S/tsrt")
gr=("${common[@]}" -I"$G" -I"$S/tsrt")

key=$({ "$CC" --version; echo "${rt[*]} ${gr[*]}"; cat "$S"/runtime.c "$S"/flatten.c "$S"/*.h "$S"/tsrt/* \
	"$G"/c_parser.c "$G"/maps.c "$G"/*.h scripts/cpgo/train.c "$0"; } | sha256sum | cut -c1-16)
if [ -f "$out/libjsecparse.a" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
mkdir -p "$out"
rm -f "$out"/*.o "$out"/*.gcda "$out/libjsecparse.a" "$out/key"

# compile FLAGS...: the four objects, two at a time (the grammar takes
# longest).
compile() {
	"$CC" "${gr[@]}" "$@" -c "$G/c_parser.c" -o "$out/c_parser.o" &
	local grammar=$!
	"$CC" "${rt[@]}" "$@" -c "$S/runtime.c" -o "$out/runtime.o" &&
		"$CC" "${rt[@]}" "$@" -c "$S/flatten.c" -o "$out/flatten.o" &&
		"$CC" "${gr[@]}" "$@" -c "$G/maps.c" -o "$out/maps.o" || { wait $grammar || true; return 1; }
	wait $grammar
}

echo "cpgo: compiling the parser's C code instrumented ($CC)" >&2
compile -fprofile-generate || { echo "cpgo: the instrumented compile failed" >&2; exit 1; }
{ "$CC" -O2 -I"$S" -I"$S/tsrt" -c scripts/cpgo/train.c -o "$out/train.o" &&
	"$CC" -fprofile-generate "$out"/train.o "$out"/runtime.o "$out"/flatten.o "$out"/c_parser.o "$out"/maps.o \
		-o "$out/train" -lpthread; } || { echo "cpgo: building the training run failed" >&2; exit 1; }
find checkers cmd -path '*testdata*' -type f \( -name '*.c' -o -name '*.h' \) | sort > "$out/train.list"
"$out/train" "$out/train.list" 20 >&2 || { echo "cpgo: the training run failed" >&2; exit 1; }
echo "cpgo: compiling it again with the profile" >&2
compile -fprofile-use -Wno-missing-profile || { echo "cpgo: the compile with the profile failed" >&2; exit 1; }
rm -f "$out/libjsecparse.a.tmp"
ar rcs "$out/libjsecparse.a.tmp" "$out"/runtime.o "$out"/flatten.o "$out"/c_parser.o "$out"/maps.o
mv "$out/libjsecparse.a.tmp" "$out/libjsecparse.a"
echo "$key" > "$out/key"
