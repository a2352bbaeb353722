#!/usr/bin/env bash
# campaigns/status.sh CAMPAIGN=name [RESULTS=dir]: one row per point of the
# campaign's manifest: its key, job, Slurm state and exit code, elapsed
# time, node list, attempts, and its output's state, with how each earlier
# attempt of its job ended. Slurm is asked once (one sacct where
# accounting exists, one scontrol); collect --status makes the table (its
# rules: collect/read/status.h): a job whose name is not the one submitted
# (its id was reused) is 'unknown', one pending for a reason that will not
# clear 'stuck (reason)', one Slurm has no record of (cluster down,
# accounting purged) as its output says it ended, 'complete (output)',
# 'failed (output)' or 'incomplete (output)', and a point of a running job
# whose output has no end yet 'running'. With --tsv first, the same rows
# tab-separated (for the report).
# Exit status: 0 when every point is complete, 1 otherwise, 2 for an
# invalid setting or unknown campaign.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/lib.sh"
# shellcheck source=campaigns/manifest.sh
. "$here/manifest.sh"
script_options aller-status "usage: aller-status [--tsv] CAMPAIGN=name [RESULTS=dir]   (man aller-campaign)" "$@"
TOOL=campaign   # its errors are the campaign's, as make campaign's
tsv=()
[ "${1:-}" != --tsv ] || { tsv=(--tsv); shift; }

READS_ONLY=1 locate_campaign "$@"
for k in "${!given[@]}"; do
	[[ $k == CAMPAIGN || $k == RESULTS || $k == CONF ]] ||
		die "status reads the campaign's manifest: give CAMPAIGN (and RESULTS), not $k"
done
manifest=$DIR/manifest
[ -f "$manifest" ] || die "no campaign '$CAMPAIGN' in $RESULTS (no $manifest)"
manifest_format "$manifest"
# each point's last job (manifest_read's M_POINT_JOB, without its work per point)
ids=$(awk '$1 == "point" { j[$3] = substr($4, 5) } END { for (k in j) print j[k] }' "$manifest" | sort -u)
# sacct 4,096 jobs at a time: one argument holds 128 KiB at most
exec "$(find_tool collect)" --status "${tsv[@]}" "$manifest" "$DIR/raw" \
	<([ -z "$ids" ] || xargs -n 4096 <<<"$ids" | tr ' ' , | while read -r j; do
		sacct -X -n -P -j "$j" -o JobID,JobName%200,State,ExitCode,Elapsed,NodeList,Reason; done 2>/dev/null) \
	<([ -z "$ids" ] || scontrol -o show job 2>/dev/null)
