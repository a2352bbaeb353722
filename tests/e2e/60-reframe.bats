#!/usr/bin/env bats
# aller's ReFrame checks (reframe/aller.py) on the local cluster, with the
# vendored ReFrame 4.9.3 run by Debian's python3 (reframe/run.sh).
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers
load ../lib/cluster

setup_file() {
	cluster_up
}

setup() {
	# the vendored tarball beside this tree or the one it was cloned from
	REFRAME_TARBALL=$(bash "$ROOT/reframe/run.sh" --where 2>&1) || skip "$REFRAME_TARBALL"
	export REFRAME_TARBALL
	# where the nodes see it (each has its own /tmp)
	export REFRAME_PREFIX=$ROOT/build/reframe/test-$BATS_TEST_NUMBER
	rm -rf "$REFRAME_PREFIX"
}

# perflog_matches_json: every perflog line of aller_alltoall against the
# aller.json its run kept (report.json names the output directory): the
# world level's largest row's busbw, tmed and eff, and the largest
# interference of each level's largest count; prints a line per check.
perflog_matches_json() {
	/usr/bin/python3 - "$REFRAME_PREFIX" <<'PY'
import glob, json, math, os, sys
prefix = sys.argv[1]
report = json.load(open(os.path.join(prefix, 'report.json')))
out = {tc['display_name']: tc['outputdir'] for run in report['runs']
       for tc in run['testcases'] if tc['result'] == 'pass'}
log = glob.glob(os.path.join(prefix, 'perflogs', '*', '*', 'aller_alltoall.log'))[0]
for line in open(log):
    f = line.rstrip('\n').split('|')
    if f[0] == 'job_completion_time' or f[2] != 'pass':
        continue   # the header ReFrame writes first; a failed attempt's line (its retry passed)
    name, values = f[1], {}
    for i, word in enumerate(f):
        if '=' in word and i > 2:
            k, v = word.split('=', 1)
            values[k] = float(v)
    recs = [json.loads(l) for l in open(os.path.join(out[name], 'aller.json'))]
    rows = [r for r in recs if r['record'] == 'row']
    world = max((r for r in rows if r['level'] == 0), key=lambda r: r['count'])
    top = {}
    for r in rows:
        if r['level'] not in top or r['count'] > top[r['level']]['count']:
            top[r['level']] = r
    want = {'busbw': world['busbw_GBs'], 'tmed': world['tmed_s'], 'eff': world['eff'],
            'interference': max(r['interference'] for r in top.values()
                                if r['interference'] is not None)}
    for k, v in want.items():
        if not math.isclose(values[k], v, rel_tol=1e-12):
            sys.exit(f'{name}: {k} {values[k]} in the perflog, {v} in aller.json')
    print(f'{name}: {sorted(values)}')
PY
}

@test "the checks pass on 1, 2 and 4 nodes, contiguous and strided; the perflog holds the JSON's numbers" {
	# 2 minutes a job, not 10: a step that hangs in Open MPI's TCP connection
	# set-up (once in a CI run: "failed to TCP connect to a peer") is retried
	# sooner; a check takes seconds here. A case that passed on its retry
	# counts as not completed in the first pass: "Ran 5/6 ... (0 failure(s)" (4/6
	# with two). bats shows what is echoed here only when the test fails.
	run bash "$ROOT/reframe/run.sh" -x aller_alltoall_build -S time_limit=2m
	printf '%s\n' "$output" | grep -v '^\[ *\(OK\|RUN\) *\]' | tail -n 40
	[ "$status" = 0 ]
	[[ $output =~ Ran\ [1-6]/6\ test\ case\(s\)\ from\ 6\ check\(s\)\ \(0\ failure\(s\) ]]
	run perflog_matches_json
	printf '%s\n' "$output"   # (shown when the test fails: which check, which number)
	[ "$status" = 0 ]
	[ "$(grep -c "^aller_alltoall %nodes=[124] %mode=.* %placement=block: \['busbw', 'eff', 'interference', 'tmed'\]$" <<<"$output")" = 6 ]
}

@test "an impossible reference fails the check with ReFrame's message, a failing floor with aller's" {
	run -1 bash "$ROOT/reframe/run.sh" -n 'aller_alltoall%nodes=1%mode=contiguous' -S busbw_ref=1e9 --max-retries=0
	[[ $output == *"Failing phase: performance"* ]]
	[[ $output == *"failed to meet reference(s): busbw="*"expected 1000000000.0"* ]]
	run -1 bash "$ROOT/reframe/run.sh" -n 'aller_alltoall%nodes=2%mode=strided' -S min_busbw=999999 --max-retries=0
	[[ $output == *"sanity error: aller exited with 1: aller: floor failed: level 0 "*"below --min-busbw=999999"* ]]
}

@test "the build variant makes aller from the source tree and runs it" {
	run -0 bash "$ROOT/reframe/run.sh" -n 'aller_alltoall_build%nodes=1%mode=contiguous'
	[[ $output == *"aller_make "*"OK"* ]]
	[[ $output == *"Ran 2/2 test case(s) from 2 check(s) (0 failure(s)"* ]]
}

@test "reframe/run.sh refuses what it cannot run, in one line" {
	REFRAME_TARBALL=/nonexistent run --separate-stderr -2 bash "$ROOT/reframe/run.sh"
	[ "$stderr" = "reframe: error: REFRAME_TARBALL '/nonexistent': no such file (ReFrame 4.9.3's release with archspec, or REFRAME=COMMAND)" ]
	REFRAME='no-such-reframe -v' run --separate-stderr -2 bash "$ROOT/reframe/run.sh"
	[ "$stderr" = "reframe: error: REFRAME 'no-such-reframe -v': no such command" ]
}
