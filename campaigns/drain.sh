#!/usr/bin/env bash
# campaigns/drain.sh DIR MAX (the final job with DRAIN=1, or make drain):
# drains the suspect hosts of a merged campaign (DIR/merged/suspects.tsv,
# kind host, in its order), at most MAX of them, each only when a second
# measurement confirms it (pairs.sh's recheck: a short aller --pairs of it
# and two idle nodes in a reservation; a noisy campaign's finding alone
# drains nothing), with
#   scontrol update nodename=N state=drain reason="aller: confirmed by a re-check: ..."
# (a fixed prefix other tools can match; make undrain re-checks them). Never
# the last node of a partition that could still run jobs, never a node
# Slurm does not know or has down or drained already: each said in a line.
# Exit status: 0 done (also when nothing was suspect), 2 usage, 3 scontrol failed.
set -euo pipefail
# shellcheck source=sh/toolkit.sh
. "$(cd "$(dirname "$0")" && pwd)/../sh/toolkit.sh"
# shellcheck source=campaigns/pairs.sh
. "$(cd "$(dirname "$0")" && pwd)/pairs.sh"
TOOL=drain
recheck_traps
{ [ $# -eq 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]]; } || die "usage: drain.sh CAMPAIGN_DIR MAX (MAX 1 or more)"
tsv=$1/merged/suspects.tsv
[ -s "$tsv" ] || { echo "drain: no suspects.tsv in $1/merged: nothing drained"; exit 0; }
REASON_PREFIX="aller: "

drained=0
while IFS=$'\t' read -r kind name evidence; do
	[ "$kind" = host ] || continue
	# one node, as Slurm names it: a host list ("n[1-4]", "n7,n8") would drain several
	if ! is_node "$name"; then
		echo "drain: '$name': not one node's name (Slurm would read it as a host list): left alone"
		continue
	fi
	[ "$drained" -lt "$2" ] || { echo "drain: $name: left in service (DRAIN_MAX=$2 reached): $evidence"; continue; }
	state=$(slurm_nodes all -n "$name" | cut -f2)
	case $state in
	"") echo "drain: $name: not a node Slurm knows: left alone"; continue ;;
	drain* | down* | fail*) echo "drain: $name: already $state"; continue ;;
	esac
	last=""
	for p in $(slurm_nodes partitions -n "$name"); do
		slurm_nodes usable -p "$p" | grep -qvx "$name" || last=$p   # another node of p could run a job
	done
	[ -z "$last" ] || { echo "drain: $name: left in service: the last node of partition $last that can run jobs"; continue; }
	r=0
	recheck "$name" || r=$?
	[ "$r" != 0 ] || { echo "drain: $name: left in service: $WHY, against the finding: $evidence"; continue; }
	[ "$r" != 3 ] || { echo "drain: $name: left in service: $WHY (the finding: $evidence)"; continue; }
	reason="${REASON_PREFIX}confirmed by a re-check: ${WHY:0:150}; the finding: ${evidence:0:120}"
	scontrol update nodename="$name" state=drain reason="$reason" ||
		die "scontrol could not drain $name" 3
	echo "drain: $name: drained ($reason)"
	drained=$((drained + 1))
done < <(table_select "$tsv" kind name evidence)
