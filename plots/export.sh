#!/usr/bin/env bash
# plots/export.sh CAMPAIGN=name TEXTFILE_DIR=dir [RESULTS=dir] (make export):
# the campaign's measurements as Prometheus' text exposition format (collect
# --openmetrics over its merged tables, merged anew when missing or older
# than its outputs) into TEXTFILE_DIR/aller-<campaign>.prom, written beside
# and renamed (sh/write.sh), as node_exporter's textfile collector wants. Prints the path.
# Exit status: 0 written, 2 bad input (unknown campaign, no TEXTFILE_DIR, a
# simulated campaign),
# 3 a tool failed (collect, or the directory cannot be written).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/../campaigns/lib.sh"
script_options aller-export "usage: aller-export CAMPAIGN=name TEXTFILE_DIR=dir [RESULTS=dir]" "$@"

tool_args --campaign TEXTFILE_DIR "$@"
textfile=$TEXTFILE_DIR
locate_campaign "${REST_ARGS[@]}"
[ -d "$DIR/raw" ] || die "no campaign '$CAMPAIGN' in $RESULTS (no $DIR/raw)"
[ -n "$textfile" ] || die "give TEXTFILE_DIR=dir: node_exporter's --collector.textfile.directory"
collect=$(find_tool collect)
merged=$DIR/merged
merge_campaign "$DIR" || [ $? -le 1 ] || die "the collector failed: $(tail -n 1 "$DIR/collect.log")" 3
! grep -q $'^[0-9]*\tsimulated\t' "$merged/facts.tsv" || die "campaign '$CAMPAIGN' is simulated (aller-simulate, docs/simulate.md): no measurement to export"
out=$textfile/aller-$CAMPAIGN.prom
write_file "$out" "$collect" --openmetrics "$merged"   # beside it (no .prom name), renamed
printf '%s\n' "$out"
