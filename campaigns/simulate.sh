#!/usr/bin/env bash
# campaigns/simulate.sh CAMPAIGN=name FABRIC=FILE HOSTS=LIST [NODES="counts"]
# [TASKS_PER_NODE=N] [MODES=...] [LONGS=...] [ALLER_ARGS=...] [FAULTS="fault;
# fault"] [SEED=N] [RESULTS=dir] (make simulate, aller-simulate): a campaign
# as make campaign writes it (results/<name>/manifest, raw/, merged/), each
# point's output drawn from the fabric model by build/bin/aller-simulate (no
# MPI, no Slurm, no buffers), then merged and judged by collect. NODES
# defaults to all of HOSTS (names and ranges, space- or comma-separated).
# docs/simulate.md. Exit status: 0 done, 1 merged with warnings, 2 bad
# input (a bad fault, an existing measured campaign), 3 a tool failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/lib.sh"
# shellcheck source=campaigns/manifest.sh
. "$here/manifest.sh"
script_options aller-simulate "usage: aller-simulate CAMPAIGN=name FABRIC=FILE HOSTS=LIST [NODES=...] [TASKS_PER_NODE=N] [MODES=...] [LONGS=...] [ALLER_ARGS=...] [FAULTS=...] [SEED=N]" "$@"

tool_args --campaign "HOSTS FAULTS SEED" "$@"
locate_campaign "${REST_ARGS[@]}"
resolve_settings existing
validate_settings
[ -n "$FABRIC" ] || die "give FABRIC=FILE: the site's fabric file (docs/fabric.md)"
[ -n "$HOSTS" ] || die "give HOSTS=LIST: the fabric's nodes to simulate, e.g. HOSTS='n[1-128]'"
sim=$(find_tool aller-simulate)
hosts=${HOSTS// /,}
common=(--fabric="$FABRIC" --hosts="$hosts" --seed="$SEED" --faults="$FAULTS" --aller-args="$ALLER_ARGS")
all=$("$sim" "${common[@]}" --count-hosts) || exit $?
[ -n "${given[NODES]+set}" ] || NODES=$all
manifest=$DIR/manifest
[ ! -e "$manifest" ] || grep -q '^simulated ' "$manifest" ||
	die "campaign '$CAMPAIGN' in $RESULTS is measured: simulate into another CAMPAIGN"
rm -rf "$DIR/raw" "$DIR/merged" "$manifest"
mkdir -p "$DIR/raw" || die "cannot create '$DIR/raw'" 3
sub=$(date -u +%Y%m%dT%H%M%SZ)-$$ start=$(date -u +%FT%TZ)
{
	printf 'manifest %s\ncampaign %s\n' "$MANIFEST_FORMAT" "$CAMPAIGN"
	printf 'simulated FABRIC=%s HOSTS=%s SEED=%s FAULTS=%s\n' "$FABRIC" "$hosts" "$SEED" "${FAULTS//$'\n'/ }"
	for v in NODES MODES TASKS_PER_NODE LONGS ALLER_ARGS; do echo "setting $v=${!v}"; done
	echo "submission $sub time=$start toolkit=$(toolkit_version | tr ' ' _) conf=simulated"
} >"$manifest" || die "cannot write the manifest '$manifest' (a full disk?)" 3
for n in $NODES; do
	for mode in $MODES; do
		for tpn in $TASKS_PER_NODE; do
			for longs in $LONGS; do
				point_key "$n" "$mode" "$tpn" "$longs" default 1
				# shellcheck disable=SC2059 # the format is manifest.sh's one definition
				printf -v raw "$RAW_NAME_FORMAT" "$CAMPAIGN" "$KEY" "$sub" 1 "" 1
				"$sim" "${common[@]}" --nodes="$n" --tasks-per-node="$tpn" --mode="$mode" --longs="$longs" \
					--campaign="$CAMPAIGN" --point="$KEY" --series="${KEY#n*-"$mode"-}" --start="$start" \
					>"$DIR/raw/$raw" || exit $?
				printf 'plan %s %s\npoint %s %s job=1 name=%s\n' "$sub" "$KEY" "$sub" "$KEY" "$raw" >>"$manifest"
			done
		done
	done
done
rc=0
merge_campaign "$DIR" || rc=$?
[ "$rc" -le 1 ] || die "the collector failed (exit $rc): $(tail -n 1 "$DIR/collect.log")" "$rc"
printf '%s\n' "$DIR"
exit "$rc"
