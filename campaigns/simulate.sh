#!/usr/bin/env bash
# campaigns/simulate.sh CAMPAIGN=name FABRIC=FILE HOSTS=LIST [NODES="counts"]
# [TASKS_PER_NODE=N] [MODES=...] [LONGS=...] [ALLER_ARGS=...] [FAULTS="fault;
# fault"] [SEED=N] [RESULTS=dir] (make simulate, aller-simulate): a campaign
# as make campaign writes it (results/<name>/manifest, raw/, merged/), its
# settings checked as a campaign's, each point's output drawn from the fabric
# model by build/bin/simulate (no MPI, no Slurm, no buffers), then
# merged and judged by collect; prints the campaign's directory. NODES
# defaults to all of HOSTS. docs/simulate.md. Exit status: 0 done (collect's
# warnings in DIR/collect.log), 1 another holds the campaign's lock, 2 bad
# input (a bad fault, a measured campaign in DIR), 3 a tool failed.
set -euo pipefail
# shellcheck source=campaigns/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
script_options aller-simulate "usage: aller-simulate CAMPAIGN=name FABRIC=FILE HOSTS=LIST [NODES=...] [TASKS_PER_NODE=N] [MODES=...] [LONGS=...] [ALLER_ARGS=...] [FAULTS=...] [SEED=N] [RESULTS=dir]" "$@"
tool_args --campaign "HOSTS FAULTS SEED" "$@"
locate_campaign "${REST_ARGS[@]}" && lock_campaign && resolve_settings existing && validate_settings
# NODES given (or in CONF) or none (every host); the lists, the fabric, the hosts and the faults are aller-simulate's to judge
"$(find_tool simulate)" --results="$DIR" --campaign="$CAMPAIGN" --fabric="$FABRIC" --hosts="$HOSTS" --nodes="${given[NODES]-${from_conf[NODES]-}}" --modes="$MODES" --tasks-per-node="$TASKS_PER_NODE" --longs="$LONGS" --seed="$SEED" --faults="$FAULTS" --aller-args="$ALLER_ARGS" --toolkit="$(toolkit_version)"
merge_campaign "$DIR" || [ $? -le 1 ] || die "the collector failed: $(tail -n 1 "$DIR/collect.log")" 3
printf '%s\n' "$DIR"
