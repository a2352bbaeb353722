#!/usr/bin/env bats
# Campaign variables are one table (campaigns/vars): a variable added there
# in a copy of the tree is known, validated, recorded and delivered to the
# job with no other change; the job's keys agree with jobs/aller.sbatch.
# shellcheck disable=SC2154,SC2031 # bats sets output and stderr; setup sets t

load ../lib/helpers

# A copy of the campaign layer with WIDGET (identity, default 3, 0..9, the job's
# ALLER_WIDGET) added as one row, the build shared; stand-in sbatch and squeue.
setup() {
	t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t" "$BATS_TEST_TMPDIR/bin"
	cp -r "$ROOT/campaigns" "$ROOT/jobs" "$ROOT/sh" "$ROOT/Makefile" "$t/"
	ln -s "$ROOT/build" "$t/build"
	printf 'WIDGET\t3\tidentity\t-\tALLER_WIDGET\t-\tmatch\t^[0-9]$\tallowed are 0..9\n' >>"$t/campaigns/vars"
	printf '#!/bin/sh\ncase " $* " in *" --test-only "*) exit 0 ;; esac\necho 4242\n' >"$BATS_TEST_TMPDIR/bin/sbatch"
	printf '#!/bin/sh\nexit 0\n' >"$BATS_TEST_TMPDIR/bin/squeue"
	chmod +x "$BATS_TEST_TMPDIR/bin/sbatch" "$BATS_TEST_TMPDIR/bin/squeue"
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH
	res=$t/results
}

@test "a variable added as one row of campaigns/vars is validated, recorded and delivered to the job" {
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=w "RESULTS=$res" WIDGET=x
	[ "$stderr" = "campaign: error: invalid WIDGET 'x': allowed are 0..9" ]
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=w "RESULTS=$res" DRYRUN=1
	[[ $output == *"#   WIDGET=3"$'\n'* ]]
	[[ $output == *"#   ALLER_WIDGET=3"$'\n'* ]]
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=w "RESULTS=$res" WIDGET=5 NODES=1 MODES=contiguous
	grep -qx 'series 1 WIDGET=5' "$res/w/manifest"
	grep -qx 'ALLER_WIDGET=5' "$res"/w/jobs/*-0.conf
	# recorded as what the points measure: another value is another series
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=w "RESULTS=$res" WIDGET=6
	[[ $stderr == *"campaign 'w' was made with WIDGET=5, not 6"* ]]
	# make's command-line check knows it
	run -0 bash "$t/campaigns/make-vars.sh" campaign "" -- WIDGET
}

@test "every job key of campaigns/vars is one jobs/aller.sbatch documents and reads from the environment" {
	. "$ROOT/campaigns/lib.sh"
	n=0
	for v in "${CAMPAIGN_VARS[@]}"; do
		k=${VAR_JOB[$v]}
		[ -n "$k" ] || continue
		n=$((n + 1))
		grep -q "^#   $k " "$ROOT/jobs/aller.sbatch" || { echo "$k undocumented"; return 1; }
		grep -A3 '^	for v in ALLER_BIN' "$ROOT/jobs/aller.sbatch" | grep -qw "$k" ||
			{ echo "$k not read from the environment"; return 1; }
	done
	[ "$n" -ge 5 ]
}

@test "a job runs from a copy of aller.sbatch (as Slurm runs it) with the helpers its settings name; without them, one line, exit 2" {
	spool=$BATS_TEST_TMPDIR/spool
	mkdir -p "$spool"
	cp "$ROOT/jobs/aller.sbatch" "$spool/slurm_script"   # alone, as in slurmd's spool
	printf '%s\n' "ALLER_BIN=$ALLER" "ALLER_RAW=$BATS_TEST_TMPDIR/raw" ALLER_LAUNCHER=env \
		ALLER_CAMPAIGN=j ALLER_SUBMISSION=20261203T000000Z-1 'ALLER_ARGS=--commsizes=world' \
		'POINT=n1-contiguous-t1-L64-default-s1 contiguous 64 default' >"$BATS_TEST_TMPDIR/job.conf"
	run --separate-stderr -2 bash "$spool/slurm_script" "$BATS_TEST_TMPDIR/job.conf"
	[ "$stderr" = "aller.sbatch: error: cannot read its helpers '$spool/job-lib.sh' (the toolkit's jobs/job-lib.sh): give ALLER_JOB_LIB" ]
	echo "ALLER_JOB_LIB=$ROOT/jobs/job-lib.sh" >>"$BATS_TEST_TMPDIR/job.conf"
	run -0 bash "$spool/slurm_script" "$BATS_TEST_TMPDIR/job.conf"
	f=$BATS_TEST_TMPDIR/raw/j-n1-contiguous-t1-L64-default-s1-20261203T000000Z-1-j0-a01.out
	grep -qx '# point: n1-contiguous-t1-L64-default-s1' "$f"
	grep -qx '# Done' "$f"
	grep -qx '# exit: 0' "$f"
}

@test "CI reaches aller as --ci; a bad value is aller's one line naming the point, exit 2" {
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=ci "RESULTS=$res" CI=0.05:64 NODES=1 \
		MODES=contiguous DRYRUN=1
	[[ $output == *"--ci=0.05:64"* ]]
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=ci "RESULTS=$res" CI=tight
	[[ $stderr == "campaign: error: point n1-contiguous-t"*": invalid --ci precision 'tight': expected a fraction of the median, 0.01..1 (e.g. --ci=0.05 or --ci=0.05:200)" ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
}

@test "MIN_BUSBW reaches aller as --min-busbw; a bad value is aller's one line, exit 2" {
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=fl "RESULTS=$res" MIN_BUSBW=2.5@1M+ NODES=1 \
		MODES=contiguous DRYRUN=1
	[[ $output == *"--min-busbw=2.5@1M+"* ]]
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=fl "RESULTS=$res" MIN_BUSBW=fast
	[[ $stderr == "campaign: error: point "*": invalid --min-busbw 'fast': expected decimal GB/s above 0"* ]]
}

@test "MIN_EFF reaches aller as --min-eff; a bad value is aller's one line, exit 2" {
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=fe "RESULTS=$res" MIN_EFF=0.5@1M+ NODES=1 \
		MODES=contiguous DRYRUN=1
	[[ $output == *"--min-eff=0.5@1M+"* ]]
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=fe "RESULTS=$res" MIN_EFF=1.5
	[[ $stderr == "campaign: error: point "*": invalid --min-eff '1.5': expected a fraction of the limit above 0, at most 1"* ]]
}

@test "a variable that is an aller option is its row's OPTION: aller judges it (TIMING=nccl as aller says), the campaign only that it is one word" {
	# the styles are aller's: nccl-tests' needs the NCCL transport, which aller says
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=tn "RESULTS=$res" TIMING=nccl NODES=1 \
		MODES=contiguous DRYRUN=1
	[[ $stderr == "campaign: error: point n1-contiguous-t"*": '--timing' does nothing here: it acts only with --transport=nccl, whose stream --timing=nccl times" ]]
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=tl "RESULTS=$res" TIMING=loop ISOLATE=all COLD_CACHE=1 \
		MOE=0 BUFFERS=host NODES=1 MODES=contiguous DRYRUN=1
	[[ $output == *"ALLER_ARGS=--isolate=all --timing=loop --cold-cache --timeout=600"* ]]
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=tw "RESULTS=$res" TIMING="loop osu"
	[ "$stderr" = "campaign: error: invalid TIMING 'loop osu': one word, aller's --timing" ]
	# the options come from the table alone: no script names one
	run ! grep -n -e '--timing' -e '--cold-cache' -e '--isolate' -e '--min-busbw' "$ROOT/campaigns/series.sh" "$ROOT/campaigns/plan.sh"
}

@test "FABRIC reaches aller as --fabric, checked at submission; a relative path or a bad file is one line, exit 2" {
	printf 'switch leaf1 25gbit n[1-2]\n' >"$BATS_TEST_TMPDIR/site.fabric"
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=fa "RESULTS=$res" "FABRIC=$BATS_TEST_TMPDIR/site.fabric" \
		NODES=1 MODES=contiguous DRYRUN=1
	[[ $output == *"--fabric=$BATS_TEST_TMPDIR/site.fabric"* ]]
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=fa "RESULTS=$res" FABRIC=site.fabric
	[[ $stderr == "campaign: error: invalid FABRIC 'site.fabric': expected the fabric file's absolute path"* ]]
	printf 'switch leaf1 25gbit n[1-2]\nnic n1\n' >"$BATS_TEST_TMPDIR/site.fabric"
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=fa "RESULTS=$res" \
		"FABRIC=$BATS_TEST_TMPDIR/site.fabric" NODES=1 MODES=contiguous DRYRUN=1
	[[ $stderr == *"$BATS_TEST_TMPDIR/site.fabric:2: a NIC is 'nic NODE RATE'"* ]]
}

@test "arguments aller refuses at every node count: one line naming the first point, exit 2" {
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=us "RESULTS=$res" NODES="2 4" \
		MODES=contiguous ALGOS=alltoall SPLITS="uniform zipf:1.2" DRYRUN=1
	[ "$stderr" = "campaign: error: point n2-contiguous-t2-L524288-default-s1 (4 ranks): --split=zipf:1.2 sends uneven blocks, which alltoall cannot: allowed with it are --algo=alltoallv, pairwise and put, and --transport=nccl" ]
}

@test "PLACEMENTS: each placement its own points (key suffix, none for block), each given its --placement; bad lists one line, exit 2" {
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=pl "RESULTS=$res" NODES=2 MODES=contiguous \
		PLACEMENTS="block cyclic random:3 random" DRYRUN=1
	[[ $output == *"POINT=n2-contiguous-t2-L524288-default-s1 contiguous 524288 default --placement=block "* ]]
	[[ $output == *"POINT=n2-contiguous-t2-L524288-default-s1-cyclic contiguous 524288 default --placement=cyclic "* ]]
	[[ $output == *"POINT=n2-contiguous-t2-L524288-default-s1-random3 contiguous 524288 default --placement=random:3 "* ]]
	# plain random is aller's seed 1, named so in the key as aller's header names it
	[[ $output == *"POINT=n2-contiguous-t2-L524288-default-s1-random1 contiguous 524288 default --placement=random:1 "* ]]
	# block alone (the default): the keys and the jobs' aller as before
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=pl0 "RESULTS=$res" NODES=2 MODES=contiguous DRYRUN=1
	[[ $output == *"POINT=n2-contiguous-t2-L524288-default-s1 contiguous 524288 default - "* ]]
	[[ $output != *"--placement"* ]]
	# the manifest keeps the union, as of NODES and MODES
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=pu "RESULTS=$res" NODES=1 MODES=contiguous PLACEMENTS=cyclic
	run -0 bash "$t/campaigns/submit.sh" CAMPAIGN=pu "RESULTS=$res" NODES=1 MODES=contiguous PLACEMENTS=block
	grep -qx 'setting PLACEMENTS=cyclic block' "$res/pu/manifest"
	grep -qx 'plan .* n1-contiguous-t2-L524288-default-s1-cyclic' "$res/pu/manifest"
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=pb "RESULTS=$res" PLACEMENTS="block ring"
	[ "$stderr" = "campaign: error: invalid placement 'ring' in PLACEMENTS: allowed are block, cyclic and random[:SEED] (aller's --placement; a SEED without leading zeros)" ]
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=pb "RESULTS=$res" PLACEMENTS="cyclic cyclic"
	[ "$stderr" = "campaign: error: placement 'cyclic' appears twice in PLACEMENTS" ]
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=pb "RESULTS=$res" PLACEMENTS="block cyclic" \
		ALLER_ARGS=--placement=random
	[ "$stderr" = "campaign: error: ALLER_ARGS has --placement, and PLACEMENTS='block cyclic' gives each point its own: use PLACEMENTS alone" ]
	# what aller refuses with a placement names the point
	run --separate-stderr -2 bash "$t/campaigns/submit.sh" CAMPAIGN=pb "RESULTS=$res" NODES=2 MODES=contiguous \
		PLACEMENTS="block cyclic" ALLER_ARGS=--reveal DRYRUN=1
	[[ $stderr == "campaign: error: point n2-contiguous-t2-L524288-default-s1 (4 ranks): "*placement* ]]
}

@test "a tool's variables are rows of campaigns/vars (scope tool), read by tool_args alone: make's line reaches it, its row checks it" {
	# make passes a tool variable as the campaign's are, byte for byte; its row's check and default apply
	res=$BATS_TEST_TMPDIR/r
	run --separate-stderr -2 make -C "$ROOT" --no-print-directory compare BASE=.. NEW=b "RESULTS=$res"
	[ "${stderr%%$'\n'*}" = "compare: error: invalid BASE '..': allowed are letters, digits, '.', '_' and '-', the first a letter or digit" ]
	run --separate-stderr -2 make -C "$ROOT" --no-print-directory trend 'CAMPAIGNS=a b' NAME=x/y "RESULTS=$res"
	[ "${stderr%%$'\n'*}" = "trend: error: invalid NAME 'x/y': allowed are letters, digits, '.', '_' and '-', the first a letter or digit" ]
	run --separate-stderr -2 bash "$ROOT/campaigns/isolate.sh" NODES=n1 SLOW_BELOW=1
	[ "$stderr" = "isolate: error: invalid SLOW_BELOW '1': expected a fraction between 0 and 1, e.g. 0.7" ]
	run --separate-stderr -2 bash "$ROOT/plots/report.sh" TOL=5% NODES=1 X=1
	[[ $stderr == "report: error: unknown argument 'X=1': allowed are BASE EXPECTED TOL and the campaign's (VAR=value)" ]]
	# a tool's variable is not a campaign's: make campaign does not record it
	. "$ROOT/campaigns/lib.sh"
	[[ " ${TOOL_VARS[*]} " == *" TOL "* && " ${CAMPAIGN_VARS[*]} " != *" TOL "* ]]
	# each is documented, and no script reads make's CAMPAIGN_ARG_ values by hand but lib.sh and tool_args
	for v in "${TOOL_VARS[@]}"; do
		cat "$ROOT"/docs/*.md | grep -q "\\b$v=" || { echo "docs/ lacks $v="; false; }
	done
	# shellcheck disable=SC2016 # a pattern
	run -0 grep -l 'CAMPAIGN_ARG_\$k\|CAMPAIGN_ARG_[A-Z]' "$ROOT"/campaigns/*.sh "$ROOT"/plots/*.sh "$ROOT"/sh/*.sh
	[ "$(printf '%s\n' "${lines[@]##*/}" | sort | paste -sd' ')" = "check.sh lib.sh schedule.sh" ]
}
