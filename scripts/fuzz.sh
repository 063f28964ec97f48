#!/usr/bin/env bash
# Runs every go-fuzz target for $FUZZTIME (default 30s) each, but
# FuzzTriageSound (checkers/c), which is run by hand: it finds contrived
# code within minutes (see its doc and the README).
set -euo pipefail
cd "$(dirname "$0")/.."
T=${FUZZTIME:-30s}
targets=(
	"./checkers FuzzAnalyze"
	"./checkers/c FuzzLex"
	"./checkers/c FuzzTriage"
	"./checkers/c FuzzDefineInt"
	"./checkers/rust FuzzLex"
	"./checkers/syntax FuzzParse -tags=tsassert"
	"./checkers/ignore FuzzParse"
	"./checkers/ignore FuzzPlainGlob"
	"./checkers/ignore FuzzIndexedMatch"
	"./rules/grep FuzzSearch"
	"./config FuzzLoad"
	"./rules/lit FuzzMatcher"
	"./report FuzzIndent"
	"./report/html FuzzBodyMatchesGoldmark"
	"./report/sarif FuzzEncodeMatchesJSON"
	"./report/html FuzzEscapeText"
	"./issue FuzzLineHashesAt"
	"./cmd/jsec FuzzParseDiff"
	"./agent FuzzTextCall"
	"./verify FuzzLoadJournal"
)
for t in "${targets[@]}"; do
	set -- $t
	echo "== $1 $2 ($T) ${3:-}"
	go test ${3:-} "$1" -run '^$' -fuzz "^$2\$" -fuzztime "$T"
done
