# campaigns/pairs.sh: reading aller --pairs output (the node-pair matrix:
# rows "src dst srchost dsthost GB/s ..."), for undrain.sh and isolate.sh.
# Sourced.
# shellcheck shell=bash

# pairs_slowest NODE: from --pairs output on stdin, NODE's slowest link's
# GB/s, the median of the links NODE is not an end of, and that link's
# hosts ("0.0024 0.11 n4 -> n1"); nothing, and status 1, without both.
pairs_slowest() {
	local rows worst median
	rows=$(awk '!/^#/ && NF == 7 && $5 != "NaN"')
	worst=$(awk -v n="$1" '$3 == n || $4 == n' <<<"$rows" | sort -g -k5,5 | head -n 1)
	median=$(awk -v n="$1" '$3 != n && $4 != n { print $5 }' <<<"$rows" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
	[ -n "$worst" ] && [ -n "$median" ] || return 1
	awk -v m="$median" '{ print $5, m, $3 " -> " $4 }' <<<"$worst"
}

# pairs_is_slow WORST MEDIAN: whether a node's slowest link carries under
# half of what the others' links carry (their median).
pairs_is_slow() {
	awk -v w="$1" -v m="$2" 'BEGIN { exit !(w < 0.5 * m) }'
}
