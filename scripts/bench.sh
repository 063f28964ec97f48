#!/usr/bin/env bash
# Throughput of `jsec scan` against ripgrep (a 30-API regex set) and
# flawfinder on the same real C code: Debian source packages fetched with
# `apt-get source` into $JSEC_BENCH_CORPUS. Prints MB/s, ratios and jsec's
# peak RSS. Usage: scripts/bench.sh [package...]   (default: curl git redis)
set -euo pipefail
cd "$(dirname "$0")/.."

CORPUS=${JSEC_BENCH_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/jsec-bench}
PKGS=("$@")
[ ${#PKGS[@]} -gt 0 ] || PKGS=(curl git redis)
RUNS=${JSEC_BENCH_RUNS:-3}
# flawfinder is timed as often as jsec (best of the runs), so that the
# ratio compares best with best; JSEC_BENCH_FLAWFINDER_RUNS=1 saves time.
FF_RUNS=${JSEC_BENCH_FLAWFINDER_RUNS:-$RUNS}

need() { command -v "$1" >/dev/null 2>&1; }
apt_install() {
	need apt-get || { echo "bench: $* missing and apt-get unavailable; skipping" >&2; return 1; }
	SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get install -y -q "$@" >/dev/null || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q "$@" >/dev/null; }
}
need rg || apt_install ripgrep || true
need flawfinder || apt_install flawfinder || true
[ -x /usr/bin/time ] || apt_install time || true
need dpkg-source || apt_install dpkg-dev || true

mkdir -p "$CORPUS"
dirs=()
for p in "${PKGS[@]}"; do
	d=$(find "$CORPUS" -maxdepth 1 -type d -name "$p-[0-9]*" | sort | tail -1)
	if [ -z "$d" ]; then
		echo "bench: fetching Debian source of $p into $CORPUS" >&2
		(cd "$CORPUS" && apt-get source -q "$p" >/dev/null 2>&1) || {
			echo "bench: apt-get source $p failed (add a deb-src line to your APT sources)" >&2; continue; }
		d=$(find "$CORPUS" -maxdepth 1 -type d -name "$p-[0-9]*" | sort | tail -1)
	fi
	[ -n "$d" ] && dirs+=("$d")
done
[ ${#dirs[@]} -gt 0 ] || { echo "bench: no corpus; nothing to measure" >&2; exit 0; }

make -s build
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The file set every tool sees: C/C++ sources, quilt's .pc copies excluded.
find "${dirs[@]}" -name .pc -prune -o -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.hh' -o -name '*.hpp' \) -print0 > "$out/files"
bytes=$(xargs -0 cat < "$out/files" | wc -c)
mb=$(awk "BEGIN{print $bytes/1e6}")
nfiles=$(tr -cd '\0' < "$out/files" | wc -c)
echo "corpus: ${PKGS[*]} — $nfiles C/C++ files, $mb MB, $(nproc) cores"

# once() reads the clock from bash's $EPOCHREALTIME (bash 5; with a comma
# where the locale writes one), else from date(1): its interval then holds
# only the command. With date, the reading after the command was a fork
# and exec of its own, which added about 2 ms to every run timed (0.0034 s
# for /bin/true against 0.0015 s), three times over for the three jsec
# processes against once for flawfinder.
once() { # wall time of one run of a command, in seconds
	local s e
	s=${EPOCHREALTIME:-}
	[ -n "$s" ] || s=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || true
	e=${EPOCHREALTIME:-}
	[ -n "$e" ] || e=$(date +%s.%N)
	awk "BEGIN{printf \"%.3f\", ${e/,/.} - ${s/,/.}}"
}
best() { # best wall time of $RUNS runs of a command, in seconds
	local b=999999 t
	for _ in $(seq "$RUNS"); do
		t=$(once "$@")
		b=$(awk "BEGIN{print ($t < $b) ? $t : $b}")
	done
	echo "$b"
}
rate() { awk "BEGIN{ if ($2 > 0) printf \"%.1f\", $1/$2; else print \"inf\" }"; }

jsec_cmd=(bin/jsec scan --no-ignore --no-default-excludes --exclude .pc/ --lang c,cpp --fail-on never -q --out "$out/jsec")
ff_cmd=(flawfinder --quiet --dataonly "${dirs[@]}")
# The same packages in one scan, as one repository holding them all
# would be (one process start, one set of reports, as flawfinder's one
# run over all of them): hard links to them under one directory (a copy
# across file systems).
if [ ${#dirs[@]} -gt 1 ]; then
	mkdir -p "$out/one"
	cp -al "${dirs[@]}" "$out/one/" 2>/dev/null || cp -r "${dirs[@]}" "$out/one/"
fi
# jsec takes one root: time each package and add up, best of $RUNS per
# package, and the one-root scan. The runs go in rounds, each round every
# package once, the one root once and then (for the first $FF_RUNS
# rounds) flawfinder once, so that each round gives ratios of times taken
# moments apart: on a shared host whose speed drifts, the median of those
# ratios says more than best against best.
declare -A bestpkg
tf=999999
t1=999999
ratios=()
ratios1=()
for r in $(seq "$RUNS"); do
	tround=0
	for d in "${dirs[@]}"; do
		t=$(once "${jsec_cmd[@]}" "$d")
		bestpkg[$d]=$(awk "BEGIN{b=\"${bestpkg[$d]:-999999}\"; print ($t < b) ? $t : b}")
		tround=$(awk "BEGIN{print $tround + $t}")
	done
	tone=""
	if [ ${#dirs[@]} -gt 1 ]; then
		tone=$(once "${jsec_cmd[@]}" "$out/one")
		t1=$(awk "BEGIN{print ($tone < $t1) ? $tone : $t1}")
	fi
	if need flawfinder && [ "$r" -le "$FF_RUNS" ]; then
		t=$(once "${ff_cmd[@]}")
		tf=$(awk "BEGIN{print ($t < $tf) ? $t : $tf}")
		ratios+=("$(awk "BEGIN{printf \"%.1f\", $t / $tround}")")
		[ -z "$tone" ] || ratios1+=("$(awk "BEGIN{printf \"%.1f\", $t / $tone}")")
	fi
done
[ ${#dirs[@]} -gt 1 ] || t1=""
median() { sort -n | awk '{a[NR]=$1} END{printf "%.1f", (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
tj=0
for d in "${dirs[@]}"; do
	tj=$(awk "BEGIN{print $tj + ${bestpkg[$d]}}")
done
/usr/bin/time -f %M -o "$out/rss" "${jsec_cmd[@]}" "${dirs[0]}" >/dev/null 2>&1 || true
rss=$(tail -1 "$out/rss")
printf '%-34s %8s s %9s MB/s\n' "jsec scan (all rules)" "$tj" "$(rate "$mb" "$tj")"
# What each of those processes spends before scanning anything (runtime
# and package initialisation, no files): the fixed cost of a run.
tv=$(best bin/jsec version)
printf '%-34s %8s s   (x %d processes above)\n' "  of which start-up, jsec version" "$tv" "${#dirs[@]}"
[ -z "$t1" ] || printf '%-34s %8s s %9s MB/s\n' "jsec scan, one root for all" "$t1" "$(rate "$mb" "$t1")"

if need rg; then
	apis='\b(strcpy|strcat|gets|sprintf|vsprintf|memcpy|memmove|strncpy|strncat|printf|fprintf|snprintf|syslog|scanf|sscanf|fscanf|realloc|malloc|free|system|popen|execl|execvp|tmpnam|mktemp|atoi|rand|strtok|alloca|getenv)\s*\('
	tr=$(best rg -uu -c -g '!.pc' -t c -t cpp -e "$apis" "${dirs[@]}")
	printf '%-34s %8s s %9s MB/s   jsec/rg time ratio %s\n' "ripgrep (30-API regex)" "$tr" "$(rate "$mb" "$tr")" "$(rate "$tj" "$tr")"
fi
if need flawfinder; then
	printf '%-34s %8s s %9s MB/s   flawfinder/jsec speedup %sx\n' "flawfinder" "$tf" "$(rate "$mb" "$tf")" "$(rate "$tf" "$tj")"
	[ -z "$t1" ] || printf '%-34s %8s   %9s        flawfinder/jsec speedup %sx (jsec with one root)\n' "" "" "" "$(rate "$tf" "$t1")"
	[ ${#ratios[@]} -eq 0 ] || { sorted=$(printf '%s\n' "${ratios[@]}" | sort -n)
	printf '%-34s %8s   %9s        flawfinder/jsec speedup %sx median of %d rounds (%sx-%sx), each flawfinder run against the jsec runs just before it\n' "" "" "" \
		"$(echo "$sorted" | median)" "${#ratios[@]}" "$(echo "$sorted" | head -1)" "$(echo "$sorted" | tail -1)"; }
	[ ${#ratios1[@]} -eq 0 ] || { sorted=$(printf '%s\n' "${ratios1[@]}" | sort -n)
	printf '%-34s %8s   %9s        flawfinder/jsec speedup %sx median of %d rounds (%sx-%sx) with one root, the like-for-like one: one process each\n' "" "" "" \
		"$(echo "$sorted" | median)" "${#ratios1[@]}" "$(echo "$sorted" | head -1)" "$(echo "$sorted" | tail -1)"; }
fi
echo "jsec peak RSS on ${dirs[0]##*/}: $((rss / 1024)) MB"
