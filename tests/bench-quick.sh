#!/usr/bin/env bash
# tests/bench-quick.sh: make bench-test-quick. Runs make test-quick twice,
# quiet and then beside `stress-ng --cpu 2` (both cores busy, as another
# user's build keeps them; make deps installs stress-ng), and prints each
# run's wall time and exit, and its slowest files (prove --timer's figures).
# The lane's promise (docs/development.md): under 3 minutes quiet, under 5
# beside stress-ng, on 2 cores. Exit 0 when both runs passed, 1 when one
# failed (the times are figures, not a verdict), 3 without stress-ng.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v stress-ng >/dev/null ||
	{ echo "bench-test-quick: error: stress-ng is missing: run 'make deps'" >&2; exit 3; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-quick.XXXXXX")
load=""
stop_load() { [ -z "$load" ] || { kill "$load" 2>/dev/null; wait "$load" 2>/dev/null || true; load=""; }; }
trap stop_load EXIT

# lane NAME: make test-quick, its log in $dir/NAME.log; its wall time, exit and slowest files
lane() {
	local start=$SECONDS rc=0
	make --no-print-directory test-quick >"$dir/$1.log" 2>&1 || rc=$?
	printf 'bench-test-quick: %s: %d s, exit %d (%s)\n' "$1" $((SECONDS - start)) "$rc" "$dir/$1.log"
	sed -n 's/^\[[0-9:]*\] \([^ ]*\) \.* [^0-9]* \([0-9][0-9]*\) ms (.*/\2 \1/p' "$dir/$1.log" |
		sort -rn | head -n 8 | awk '{ printf "  %6.1f s  %s\n", $1 / 1000, $2 }'
	return "$rc"
}

rc=0
lane quiet || rc=1
stress-ng --cpu 2 --timeout 0 --quiet &
load=$!
lane beside-stress-ng || rc=1
stop_load
exit "$rc"
