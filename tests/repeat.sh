#!/usr/bin/env bash
# tests/repeat.sh: the flake hunt. Runs test files (or the whole CI in fresh
# clones) N times and prints, per test, how often it passed.
#
#   tests/repeat.sh [--load] N FILE...   each test file N times, here (built tree)
#   tests/repeat.sh [--load] --clone N   N fresh clones of HEAD, each 'CI=true bash .ci/run'
#   tests/repeat.sh --table LOG...       the table of earlier rounds' logs
#
# --load keeps LOAD_CPUS cores (1) busy for the whole of each round
# (stress-ng --cpu N, or shell loops where stress-ng is missing), started
# and stopped here.
# Output: one line per round (its exit status and seconds), then a table
# "passes/runs<TAB>file<TAB>test", failures first; the rounds' logs stay in
# REPEAT_DIR (default: a new directory under /tmp, printed).
# Exit status: 0 when every test passed every time, 1 when any failed, 2 usage.
set -uo pipefail

usage() { echo "usage: tests/repeat.sh [--load] N FILE... | [--load] --clone N" >&2; exit 2; }
load=0 clone=0 table=0
while [ $# -gt 0 ]; do
	case $1 in
	--load) load=1 ;;
	--clone) clone=1 ;;
	--table) table=1 ;;
	-*) echo "repeat: error: unknown option '$1'; allowed: --load, --clone, --table" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
# prove -v: a file's name opens its lines ("[12:00:00] tests/x.bats .. "), then TAP.
tally() {
	awk '
	{ line = $0; sub(/^\[[0-9:]+\] /, "", line) }
	match(line, /^[^ ]+\.bats \.+ ?|^[^ ]*build\/[^ ]*tests\/[^ ]+ \.+ ?/) {
		file = substr(line, 1, RLENGTH); sub(/ \.+ ?$/, "", file); sub(/^.*build\//, "build/", file)
		line = substr(line, RLENGTH + 1)
	}
	file != "" && match(line, /^(not )?ok [0-9]+ (- )?/) {
		ok = line !~ /^not /
		name = substr(line, RLENGTH + 1); sub(/ # (skip|SKIP).*$/, "", name)
		key = file "\t" name
		if (!(key in runs)) order[++k] = key
		runs[key]++; passes[key] += ok
	}
	END {
		for (i = 1; i <= k; i++) {
			key = order[i]
			if (passes[key] < runs[key]) printf "%d/%d\t%s\n", passes[key], runs[key], key
		}
		for (i = 1; i <= k; i++) {
			key = order[i]
			if (passes[key] == runs[key]) printf "%d/%d\t%s\n", passes[key], runs[key], key
		}
	}' "$@"
}
if [ "$table" = 1 ]; then
	[ $# -gt 0 ] || usage
	tally "$@"
	exit 0
fi
[ $# -ge 1 ] || usage
n=$1
shift
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "repeat: error: N '$n' is not a positive number" >&2; exit 2; }
if [ "$clone" = 1 ] && [ $# -gt 0 ]; then
	echo "repeat: error: --clone runs the whole CI; give no files" >&2
	exit 2
fi
[ "$clone" = 1 ] || [ $# -gt 0 ] || usage
for f in "$@"; do
	[ -e "$f" ] || { echo "repeat: error: no test file '$f'" >&2; exit 2; }
done
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${REPEAT_DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d /tmp/aller-repeat.XXXXXX)
	# a clone in it must be readable by others, as CI's is: a test runs a script as nobody
	chmod 755 "$dir"
fi
mkdir -p "$dir"
echo "repeat: logs in $dir" >&2

busy=""
cpus=${LOAD_CPUS:-1}
[[ $cpus =~ ^[1-9][0-9]*$ ]] || { echo "repeat: error: LOAD_CPUS '$cpus' is not a positive number" >&2; exit 2; }
start_load() {
	[ "$load" = 1 ] || return 0
	if command -v stress-ng >/dev/null; then
		stress-ng --cpu "$cpus" --timeout 0 --quiet &
	else
		bash -c 'for ((i = 1; i < $1; i++)); do while :; do :; done & done; while :; do :; done' busy "$cpus" &
	fi
	busy=$!
}
stop_load() {
	[ -n "$busy" ] || return 0
	pkill -P "$busy" 2>/dev/null
	kill "$busy" 2>/dev/null
	wait "$busy" 2>/dev/null
	busy=""
}
trap 'stop_load' EXIT
trap 'exit 130' INT TERM

round() {
	local i=$1 log=$dir/round-$1.log started=$SECONDS rc=0
	shift   # the rest: the test files
	start_load
	if [ "$clone" = 1 ]; then
		local src=$dir/clone-$i
		rm -rf "$src"
		git clone -q "$root" "$src"
		(cd "$src" && CI=true PROVE='prove -v' bash .ci/run) >"$log" 2>&1 || rc=$?
		rm -rf "$src"
	else
		# one file at a time: no lane to yield to (tests/tap-run), the load's
		# equal; a test that runs make on this tree does so with the WERROR it
		# was built with (as make test-run has it), never rebuilding under a campaign
		(cd "$root" && TAP_RUN_NICE=0 WERROR=$(sed -n 's/.* WERROR=\([01]\) .*/\1/p' build/flags 2>/dev/null) \
			prove -v -e tests/tap-run "$@") >"$log" 2>&1 || rc=$?
	fi
	stop_load
	printf 'round %d%s: exit %d, %d s\n' "$i" "$([ "$load" = 1 ] && echo " (loaded: $cpus cores busy)")" "$rc" \
		$((SECONDS - started))
	return "$rc"
}

failed=0
for ((i = 1; i <= n; i++)); do
	round "$i" "$@" || failed=1
done

tally "$dir"/round-*.log
exit "$failed"
