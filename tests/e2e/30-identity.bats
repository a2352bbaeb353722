#!/usr/bin/env bats
# A campaign is what its manifest says: identity, parameter space, retries,
# all-or-nothing submission, settings that need no environment.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers
load ../lib/cluster

setup_file() {
	campaign_results test-results-id
}

setup() {
	# shellcheck source=/dev/null
	. "$CLUSTER_DIR/env.sh"
}

queued() { squeue -h | wc -l; }

@test "status lists exactly the manifest's points and exits 0 when they are complete" {
	final=$(submit CAMPAIGN=n13 NODES="1 3" MODES=contiguous LONGS=64 ITERS=1)
	wait_job "$final" 300
	run -0 status CAMPAIGN=n13
	[ "${#lines[@]}" = 3 ]
	[[ ${lines[1]} == "n1-contiguous-t2-L64-default-s1 "*" complete" ]]
	[[ ${lines[2]} == "n3-contiguous-t2-L64-default-s1 "*" complete" ]]
	# a re-run without CONF keeps the manifest's settings (not smoke.conf's NODES or LONGS)
	run -0 submit CAMPAIGN=n13
	[[ $output == *"nothing to submit, all 2 points complete or queued"* ]]
	# adding a node count adds a point of the same series
	run -0 submit CAMPAIGN=n13 NODES=2 DRYRUN=1
	[[ $output == *"# job 0: n2-contiguous-t2-L64-default-s1"* ]]
	[[ $output != *"n1-contiguous"* ]]
	# status takes no measurement settings
	run -2 status CAMPAIGN=n13 NODES=4
	[[ $output == *"status reads the campaign's manifest: give CAMPAIGN (and RESULTS), not NODES"* ]]
}

@test "a changed setting is refused with nothing submitted; FORCE=1 makes a second series" {
	final=$(submit CAMPAIGN=chg NODES=1 MODES=contiguous LONGS=64 ITERS=1)
	wait_job "$final" 300
	before=$(wc -l <"$RES/chg/manifest")
	run -2 submit CAMPAIGN=chg LONGS=128
	[ "$output" = "campaign: error: campaign 'chg' was made with LONGS=64, not 128: use a new CAMPAIGN, or FORCE=1 to add these points as a second series" ]
	run -2 submit CAMPAIGN=chg TASKS_PER_NODE=1
	[[ $output == *"was made with TASKS_PER_NODE=2, not 1"* ]] || { printf '%s\n' "$output"; false; }
	[ "$(wc -l <"$RES/chg/manifest")" = "$before" ]
	final=$(submit CAMPAIGN=chg LONGS=128 FORCE=1)
	wait_job "$final" 300
	run -0 status CAMPAIGN=chg
	[[ $output == *"n1-contiguous-t2-L64-default-s1 "*" complete"* ]]
	[[ $output == *"n1-contiguous-t2-L128-default-s2 "*" complete"* ]]
	grep -qx 'series 2 LONGS=128' "$RES/chg/manifest"
	# two identities, two groups: neither supersedes the other
	grep -q ',t2-L64-default-s1,' "$RES/chg/merged/points-index.csv"
	grep -q ',t2-L128-default-s2,' "$RES/chg/merged/points-index.csv"
	run ! grep -q 're-run of the point' "$RES/chg/merged/summary.txt"
}

@test "two variants and a list of LONGS give separate groups, in points.csv and plot legends" {
	final=$(submit CAMPAIGN=var NODES=2 MODES=contiguous LONGS="64 256" ITERS=1 FORMAT=svg \
		VARIANTS="default linear:OMPI_MCA_coll_tuned_use_dynamic_rules=1,OMPI_MCA_coll_tuned_alltoall_algorithm=1")
	wait_job "$final" 300
	run -0 status CAMPAIGN=var
	[ "$(printf '%s\n' "$output" | grep -c ' complete$')" = 4 ]
	f=$(latest "$RES"/var/raw/var-n2-contiguous-t2-L64-linear-s1-*.out)
	grep -qx '# variant: linear' "$f"
	grep -qx '# env: OMPI_MCA_coll_tuned_alltoall_algorithm=1' "$f"
	f=$(latest "$RES"/var/raw/var-n2-contiguous-t2-L64-default-s1-*.out)
	run ! grep -q 'alltoall_algorithm' "$f"
	for s in t2-L64-default-s1 t2-L64-linear-s1 t2-L256-default-s1 t2-L256-linear-s1; do
		# its series, variant, placement (none), and the key and base the job wrote
		grep -q ",$s,[a-z]*,,n2-contiguous-$s,$s\$" "$RES/var/merged/points-index.csv"
		grep -q "commsize 4, $s" "$RES/var/plots/bandwidth-contiguous-n2.svg"
	done
}

@test "a SPLITS campaign: a data set per split, kept apart to the splits plot; SPLITS is identity" {
	final=$(submit CAMPAIGN=splits NODES=2 MODES=contiguous LONGS=256 ITERS=2 FORMAT=svg \
		SPLITS="uniform zipf:1.2 hot:1:0.5")
	wait_job "$final" 300
	run -0 status CAMPAIGN=splits
	printf '%s\n' "$output"   # shown when the test fails
	f=$(latest "$RES"/splits/raw/splits-n2-contiguous-t2-L256-default-s1-*.out)
	grep -qx '# splits: uniform zipf:1.2:1 hot:1:0.5' "$f"
	grep -qx '# algos: alltoallv' "$f"
	[ "$(awk -F'\t' 'NR > 1 && $3 == "bandwidth" { print $17 }' "$RES/splits/merged/sets.tsv" | sort -u | paste -sd' ')" = "hot:1:0.5 uniform zipf:1.2:1" ]
	[ -s "$RES/splits/plots/splits-contiguous-n2-c4.svg" ]
	grep -q 'zipf:1.2:1' "$RES/splits/plots/splits-contiguous-n2-c4.svg"
	# SPLITS is a point's identity: another list is refused (FORCE=1 would make a series)
	run -2 submit CAMPAIGN=splits SPLITS="uniform idle:0.5"
	[[ $output == *"was made with SPLITS=uniform zipf:1.2 hot:1:0.5, not uniform idle:0.5"* ]]
	run -2 submit CAMPAIGN=refuse NODES=1 SPLITS="zipf:1.2" ALGOS=alltoall
	[[ $output == *"--split=zipf:1.2 sends uneven blocks, which alltoall cannot"* ]]
}

@test "TIMING, COLD_CACHE, TIME_PER_SIZE are identity; SAMPLES=1 keeps every call, the report classifies" {
	final=$(submit CAMPAIGN=modes NODES=2 MODES=contiguous LONGS=1024 ITERS=50 TIMING=osu \
		COLD_CACHE=256K TIME_PER_SIZE=0.02 SAMPLES=1 TIME=)
	wait_job "$final" 300
	run -0 status CAMPAIGN=modes
	printf '%s\n' "$output"   # shown when the test fails
	f=$(latest "$RES"/modes/raw/modes-n2-contiguous-t2-L1024-default-s1-*.out)
	grep -qx '# timing: osu' "$f"
	grep -q '^# cache: cold: .*32768 longs per buffer' "$f"
	grep -q '^# budget: 0.02 s of timed calls per (level, count)' "$f"
	# without TIME, a job's limit comes from its points' budget
	run -0 submit CAMPAIGN=modes-dry NODES=2 LONGS=1024 TIME_PER_SIZE=10 TIME= DRYRUN=1
	[[ $output == *"sbatch --parsable --job-name=aller-modes-dry-n2-t2-s1 "*" --time="*" --signal=B:USR1@60 "* ]]
	# each point's samples, per node, and the report's section of slow calls
	ls "$RES"/modes/samples/modes-n2-contiguous-t2-L1024-default-s1-*/samples-*.txt
	run -0 make -s -C "$ROOT" report CAMPAIGN=modes RESULTS="$RES"
	grep -q '<h2 id="samples">Slow calls (SAMPLES=1)</h2>' "$RES/modes/report.html"
	# and each point's slow calls as a finding, among the others
	grep -q '<li class="[a-z]*"><span class="sev">[a-z]*</span> Slow calls in modes-n[0-9]*-[a-z]*-.* (SAMPLES=1): [0-9]* among [0-9]* counts, [0-9]* of them stragglers' "$RES/modes/report.html"
	grep -q 'first_over_rest' "$RES/modes/report.html"
	# another timing is another measurement
	run -2 submit CAMPAIGN=modes TIMING=loop
	[[ $output == *"was made with TIMING=osu, not loop"* ]]
}

@test "a node count the partition cannot give is refused before anything is queued" {
	before=$(queued)
	run -3 submit CAMPAIGN=big NODES="1 9" MODES=contiguous LONGS=64
	[[ $output == *"campaign: error: sbatch refuses the job of 9 nodes, 2 tasks per node (n9-contiguous-t2-L64-default-s1): "*"not available"* ]]
	[[ $output == *"campaign: error: nothing was submitted"* ]]
	[ "$(queued)" = "$before" ]
	run ! grep -q '^point ' "$RES/big/manifest"
}

@test "a step killed in its first attempt is tried again in the allocation and completes" {
	# RETRIES=2: a second attempt that a launch failure of the local cluster's
	# MPI takes (a rare segfault in MPI_Init under load) has a third
	final=$(ALLER_TEST_DIE=0:1 submit CAMPAIGN=retry NODES=2 MODES=strided LONGS=64 ITERS=1 RETRIES=2)
	wait_job "$final" 300
	run -0 status CAMPAIGN=retry
	printf "%s\n" "$output"
	[[ $output == *"n2-strided-t2-L64-default-s1 "*"COMPLETED"*" "[23]"     complete"* ]]
	files=("$RES"/retry/raw/*.out)
	n=${#files[@]} last=${files[-1]}
	[ "$n" -ge 2 ]
	[ "$n" -le 3 ]
	[[ ${files[0]} == *-a01.out ]]
	[[ $last == *-a0$n.out ]]
	run ! grep -qx '# Done' "${files[0]}"
	grep -qx '# Done' "$last"
	grep -qx "# attempt: $n" "$last"
	# collect takes the complete attempt
	grep -q "${last##*/}" "$RES/retry/merged/points-index.csv"
	run ! grep -q "a01.out" "$RES/retry/merged/points-index.csv"
}

@test "a campaign runs with SBATCH_EXPORT=NONE: the job needs nothing from the shell" {
	final=$(SBATCH_EXPORT=NONE OMPI_MCA_aller_test_marker=1 submit CAMPAIGN=noexport NODES=1 LONGS=64 ITERS=1)
	wait_job "$final" 300
	run -0 status CAMPAIGN=noexport
	f=$(latest "$RES"/noexport/raw/*.out)
	grep -qx '# Done' "$f"
	# the submitting shell's variable did not reach the job
	run ! grep -q 'aller_test_marker' "$f"
	grep -qx 'sbatch_env .* SBATCH_EXPORT=NONE' "$RES/noexport/manifest"
}

@test "MODULES with SBATCH_EXPORT=NONE: the job finds aller only through its module; a missing one fails the point once" {
	# the installed toolkit's modulefile, where the nodes see it (not /tmp)
	make -s -C "$ROOT" install PREFIX="$RES/inst" >/dev/null
	# not on any PATH the job has, but the module's (env.sh put the tree's build/bin on this shell's)
	PATH=$(tr ':' '\n' <<<"$PATH" | grep -vxF "$ROOT/build/bin" | paste -sd:)
	run ! command -v aller
	final=$(SBATCH_EXPORT=NONE submit CAMPAIGN=modules NODES=1 LONGS=64 ITERS=1 \
		MODULE_USE="$RES/inst/share/modulefiles" MODULES=aller MODULES_PURGE=1)
	wait_job "$final" 300
	run -0 status CAMPAIGN=modules
	f=$(latest "$RES"/modules/raw/*.out)
	grep -qx '# Done' "$f"
	grep -Eq '^# modules: aller/[0-9.]+ \(asked: aller\)$' "$f"
	grep -qx 'ALLER_BIN=aller' "$RES"/modules/jobs/*
	# MODULES is identity
	run -2 submit CAMPAIGN=modules MODULES="aller other"
	[[ $output == *"was made with MODULES=aller, not aller other"* ]]
	# a module that does not load: the module system's message, one attempt, exit 2
	final=$(SBATCH_EXPORT=NONE submit CAMPAIGN=nomodule NODES=1 LONGS=64 ITERS=1 MODULES=nosuch/9.9)
	wait_job "$final" 300
	run -1 status CAMPAIGN=nomodule
	printf '%s\n' "$output"   # shown when the test fails
	[[ $output == *'failed (module load nosuch/9.9 failed: The following module(s) are unknown: "nosuch/9.9")'* ]]
	[ -z "$(find "$RES"/nomodule/raw -name '*-a02.out')" ]   # not tried again
	run -2 submit CAMPAIGN=badmodule MODULES='x;y'
	[[ $output == *"invalid MODULES 'x;y'"* ]]
}

@test "make campaign installs nothing and passes values byte for byte" {
	before=$(queued)
	# as root, make deps would try to install this package and fail
	# (an option that acts on its own: --reveal-dir alone would be refused as doing nothing)
	arg='--samples='"$RES"'/it'"'"'s$USER"dir"`id`;$(touch${IFS}'"$RES"'/ran)'
	run --separate-stderr -0 env DEPS_PACKAGES=aller-no-such-package make -C "$ROOT" \
		--no-print-directory campaign "RESULTS=$RES" CAMPAIGN=mk NODES=1 LONGS=64 ITERS=1 \
		"ALLER_ARGS=$arg"
	final=${lines[-1]}
	wait_job "$final" 300
	f=$(latest "$RES"/mk/raw/*-contiguous-*.out)
	# nothing was expanded or run on the way: the text is aller's argument as typed
	grep -qF "# command: $ROOT/build/bin/aller $arg --timeout=600 contiguous 1 64" "$f"
	[ ! -e "$RES/ran" ]
	run -2 make -C "$ROOT" --no-print-directory campaign "RESULTS=$RES" CAMPAIGN=mk2 'LONGS=64
128'
	[[ $output == *"campaign: error: invalid LONGS: its value has a newline; give it on one line"* ]]
}

@test "an MPICH series beside an Open MPI one: srun --mpi=pmi2, kept apart by the collector" {
	final=$(submit CAMPAIGN=libs NODES=2 MODES=contiguous LONGS=64 ITERS=1)
	wait_job "$final" 300
	run -2 submit CAMPAIGN=libs MPI=mpich "LAUNCHER=srun --mpi=pmi2"
	[[ $output == *"was made with MPI=openmpi, not mpich"* ]]
	final=$(submit CAMPAIGN=libs MPI=mpich "LAUNCHER=srun --mpi=pmi2" FORCE=1)
	wait_job "$final" 300
	run -0 status CAMPAIGN=libs
	[[ $output == *"n2-contiguous-t2-L64-default-s1 "*" complete"* ]]
	[[ $output == *"n2-contiguous-t2-L64-default-s2 "*" complete"* ]]
	grep -q '^# mpi: MPICH Version: 4' "$(latest "$RES"/libs/raw/libs-*-s2-*.out)"
	grep -q '^# mpi: Open MPI v4' "$(latest "$RES"/libs/raw/libs-*-s1-*.out)"
	grep -qx 'series 2 MPI=mpich' "$RES/libs/manifest"
	grep -q ',MPICH Version: 4.0.2,t2-L64-default-s2,default,,n2-contiguous-t2-L64-default-s2,t2-L64-default-s2$' "$RES/libs/merged/points-index.csv"
	grep -q ',Open MPI v4.1.4,t2-L64-default-s1,default,,n2-contiguous-t2-L64-default-s1,t2-L64-default-s1$' "$RES/libs/merged/points-index.csv"
	run ! grep -q 're-run of the point' "$RES/libs/merged/summary.txt"
}
