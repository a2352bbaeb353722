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

# pairs_ran: whether the --pairs output on stdin judged its links.
pairs_ran() { grep -q '^# slow_links: '; }

# pairs_slow NODE: from --pairs output on stdin, the slowest link that is slow
# for NODE: its GB/s, its reference and its hosts ("0.0024 0.11 n4 -> n1");
# nothing, and status 1, where none is.
pairs_slow() {
	awk -v n="$1" '$1 == "#" && $2 == "slow_link:" {
		s = $4; d = $7; gsub(/[():]/, "", s); gsub(/[():]/, "", d)
		for (i = 18; i <= NF; i++) if ($i == n) { print $8, $14 + 0, s " -> " d; found = 1; exit }
	} END { exit !found }'
}
