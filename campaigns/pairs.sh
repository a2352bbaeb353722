# campaigns/pairs.sh: reading aller --pairs output for undrain.sh and
# isolate.sh: the links aller judged slow and the nodes they are slow for
# (its '# slow_link:' lines: the one rule of a slow link, in
# aller/modes/linkmap.h). Sourced.
# shellcheck shell=bash

# The re-checks' --slow-below: a node is slow when a link of it carries under
# half of its reference (the median of the links that avoid it). A campaign's
# --pairs names links below aller's 0.8; a re-check that takes a node out of
# service, or puts it back, asks for more than the noise.
# shellcheck disable=SC2034 # the scripts that source this use it
PAIRS_SLOW_BELOW=0.5

# pairs_read OUT DIR: aller's --pairs output OUT read by collect, the one
# reader of aller's outputs, into DIR (its facts.tsv: the slow_link and
# slow_links lines), which pairs_ran and pairs_slow read.
pairs_read() { "$(find_tool collect)" -q -o "$2" "$1" >/dev/null 2>&1 || true; }

# pairs_ran DIR: whether the --pairs output read into DIR judged its links.
pairs_ran() { table_select "$1/facts.tsv" key | grep -qx slow_links; }

# pairs_slow NODE DIR: of the --pairs output read into DIR, the slowest link
# that is slow for NODE: its GB/s, its reference and its hosts ("0.0024 0.11
# n4 -> n1"); nothing, and status 1, where none is. A slow_link fact reads
# "0 (n4) -> 1 (n1): 0.0024 GB/s, 0.02 of the median 0.11 GB/s; slow for: n4".
pairs_slow() {
	table_select "$2/facts.tsv" key value | awk -F'\t' -v n="$1" '$1 == "slow_link" {
		k = split($2, w, " "); s = w[2]; d = w[5]; gsub(/[():]/, "", s); gsub(/[():]/, "", d)
		for (i = 16; i <= k; i++) if (w[i] == n) { print w[6], w[12] + 0, s " -> " d; found = 1; exit }
	} END { exit !found }'
}
