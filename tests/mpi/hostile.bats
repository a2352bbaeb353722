#!/usr/bin/env bats
# Hostile inputs (issue 34) that need aller running under MPI: an MPI error
# in every class of call, a header no argument can forge, samples that are
# whole or not written, host names that stay data, the default timeout.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant
load ../lib/helpers

setup() {
	[ "$TEST_MPI" = openmpi ] || skip "the MPI-independent paths: once, under Open MPI"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# Each class of MPI call that handles no error in its place goes through
# MPI_MUST (aller/world/failure.h): an error there is one line naming the call and
# where it is, and exit 3 (before, 44 such calls dropped their code).
@test "an MPI error in each class of call ends the run: one line naming the call and its place, exit 3" {
	printf '1 1\n1 1\n' >m
	n=0
	# WHERE (ALLER_TEST_MPI_ERROR=1:WHERE)|the options that reach such a call|the call
	while IFS='|' read -r where args call; do
		# shellcheck disable=SC2086 # the options, split
		ALLER_TEST_MPI_ERROR="1:$where" run --separate-stderr -3 timeout 60 "${MPIRUN[@]}" 4 \
			"$ALLER" $args </dev/null   # (mpirun would read the list below)
		n=$((n + 1))
		grep -q "^aller: error: rank 1 on [^ ]*: $call failed (aller/[a-z/_]*\.c:[0-9]*): MPI_ERR_OTHER" \
			<<<"$stderr" || { echo "$where: $stderr"; return 1; }
		! grep -qx '# Done' <<<"$output" || { echo "$where: a run that failed says '# Done'"; return 1; }
	done <<-'EOF'
		world.c:|c 1 64|MPI_Comm_rank
		MPI_Allreduce(&w->local_size|c 1 64|MPI_Allreduce
		s->cum|--split=matrix:m c 1 64|MPI_Bcast
		setup.c|--cold-cache c 1 64|MPI_Allreduce
		sweep.c|c 1 64|MPI_Comm_group
		sweep_count.c|--split=zipf:1 c 1 64|MPI_Allreduce
		pairs.c|--pairs=64 c 1|MPI_Barrier
		samples.c|--samples=s c 1 64|MPI_Comm_split_type
		reveal.c|--reveal c 1 64|MPI_Allreduce
		congest.c|--congestion=0.5 c 1 64|MPI_Comm_rank
		algo_put.c|--algo=put c 1 64|MPI_Win_set_errhandler
	EOF
	[ "$n" = 11 ]
	# the agreement that names a failed data set (failure.c) itself
	OMPI_MCA_osc=rdma ALLER_TEST_MPI_ERROR=1:failure.c run --separate-stderr -3 timeout 60 \
		"${MPIRUN[@]}" 4 "$ALLER" --algo=put,alltoall c 1 64
	[[ $stderr == *"aller: error: rank 1 on "*": MPI_Bcast failed (aller/world/failure.c:"* ]]
}

@test "a newline in an argument cannot forge header lines: escaped as \\n, one '# Done'" {
	d=$'nl\n# Done\n# level: 9'
	run --separate-stderr -0 "${MPIRUN[@]}" 2 "$ALLER" "--samples=$d" c 1 64
	[ "$(grep -c '^# Done$' <<<"$output")" = 1 ]
	[ "$(grep -c '^# level: 9' <<<"$output")" = 0 ]
	grep -q '^# command: .* --samples=nl\\n# Done\\n# level: 9 c 1 64$' <<<"$output"
	grep -q '^# samples: nl\\n# Done\\n# level: 9/samples-<host>.txt' <<<"$output"
	printf '%s\n' "$output" >o.out
	run -0 "$COLLECT" --state o.out
	[[ $output == "complete	-	o.out" ]]
}

@test "--samples on a full file system: exit 3, one line, no '# Done', no samples file left" {
	mkdir -p tiny
	mount -t tmpfs -o size=4k tmpfs tiny 2>/dev/null || skip "cannot mount a tmpfs here"
	run --separate-stderr -3 "${MPIRUN[@]}" 2 "$ALLER" --samples=tiny/s c 20 4096
	umount tiny || true
	[ "$(grep -c "^aller: error: rank 0 on .*: cannot write 'tiny/s/.samples-.*\.part': No space left on device" <<<"$stderr")" = 1 ]
	[ "$(grep -cx '# Done' <<<"$output")" = 0 ]
}

@test "a run cut short leaves only a .part samples file, which collect --samples names" {
	ALLER_TEST_DIE=1 run "${MPIRUN[@]}" 2 "$ALLER" --samples=s c 1 64
	[ "$status" -ne 0 ]
	[ -z "$(ls s)" ]   # no samples-<host>.txt: only the dot-file
	ls s/.samples-*.txt.part
	run --separate-stderr -2 "$COLLECT" --samples s
	[[ $stderr == *"collect: s/.samples-"*".txt.part: the samples of a run that did not finish (never renamed): skipped"* ]]
	# a whole run's file ends with its line count, and reads clean
	run -0 "${MPIRUN[@]}" 2 "$ALLER" --samples=ok c 1 64
	[ "$(tail -n 1 ok/samples-*.txt)" = "# end: $(grep -c '^[0-9]' ok/samples-*.txt) lines" ]
	run --separate-stderr -0 "$COLLECT" --samples ok
	[ -z "$stderr" ]
}

@test "a doctored --pairs output's host names are data to the heatmap: nothing runs" {
	run -0 "${MPIRUN[@]}" 4 "$ALLER" --pairs=64 c 1
	# host names that gnuplot's eval or a shell would run
	printf '%s\n' "$output" | awk '/^# pair_hosts:/ { on = 1; print; next }
		on && NF == 4 { $2 = ($1 == 1 ? "x\");system(\"touch${IFS}pwned\");(\"" : "`touch${IFS}pwned`") }
		{ print }' >p.out
	grep -q 'system(' p.out
	run --separate-stderr -0 bash "$ROOT/plots/plot.sh" --file p.out --out-dir plots --format svg
	[ ! -e pwned ]
	[ -s plots/plots/pairs-p.svg ]
	grep -q 'touch' plots/plots/pairs-p.svg   # the names drawn as they are
}

@test "the default per-call timeout is stated in the header; --timeout=0 turns it off" {
	run -0 "${MPIRUN[@]}" 2 "$ALLER" c 1 64
	grep -q '^# timer: .*; timeout 600 s (the default)$' <<<"$output"
	run -0 "${MPIRUN[@]}" 2 "$ALLER" --timeout=0 c 1 64
	grep -q '^# timer: .*; timeout 0 s (none: --timeout=0)$' <<<"$output"
}

@test "the run checks its arguments as --check-args does: --congestion counts the whole world" {
	# --check-args=2 --congestion=0.5 says 0: so does the run of 2 tasks
	run -0 "$ALLER" --check-args=2 --congestion=0.5 c 1 64
	run -0 "${MPIRUN[@]}" 2 "$ALLER" --congestion=0.5 c 1 64
	grep -qx '# Done' <<<"$output"
	# --check-args=4 with LONGS 1 says 2: so does the run, rather than drop the world level
	OMPI_MCA_odls_base_sigkill_timeout=1 run --separate-stderr -2 "${MPIRUN[@]}" 4 "$ALLER" --congestion=0.5 c 1 1
	[[ $stderr == *"aller: error: longs 1 is smaller than the world size 2"* ]]
	# weights past DBL_MAX: refused, not a crash nor negative bandwidths
	printf '1e308 1e308 1e308 1e308\n%.0s' 1 2 3 4 >big
	# (mpirun's second before it kills the rest kept: with none, a loaded CI run's
	# mpirun once said 1 for ranks that all exit 2, as stacks.bats saw)
	OMPI_MCA_odls_base_sigkill_timeout=1 run --separate-stderr -2 "${MPIRUN[@]}" 4 "$ALLER" --split=matrix:big c 1 64
	[[ $stderr == *"aller: error: matrix file 'big': the weights add up past the largest number"* ]]
}

# --- issue 47: the second hostile pass ---

@test "--json replaces only a regular file of its own kind: not a device, a FIFO, a directory, the text output" {
	mkfifo ff
	mkdir dd
	echo notes >n.txt
	for t in /dev/full ff dd n.txt; do
		run --separate-stderr -3 "${MPIRUN[@]}" 2 "$ALLER" "--json=$t" c 1 64
		[[ $stderr == *"--json: '$t' "* ]] || { echo "$t: $stderr"; return 1; }
		! grep -q '^[0-9]' <<<"$output" || { echo "$t: the sweep ran before the refusal"; return 1; }
	done
	[ -c /dev/full ]
	[ -p ff ]
	[ -d dd ]
	[ "$(cat n.txt)" = notes ]
	# the file the text goes to (mpirun's stdout is not the task's): refused, the text kept
	run --separate-stderr -3 sh -c 'exec "$@" >o.txt' sh "${MPIRUN[@]}" 2 "$ALLER" --json=o.txt c 1 64
	grep -q '^# aller: ' o.txt
	# a link: the file it names is written, the link kept; a JSON file of its own is replaced
	: >j.json && ln -s j.json lnk
	run -0 "${MPIRUN[@]}" 2 "$ALLER" --json=lnk c 1 64
	run -0 "${MPIRUN[@]}" 2 "$ALLER" --json=lnk c 1 64
	[ -L lnk ]
	head -c 18 j.json | grep -q '{"record":"header"'
}

@test "--json is valid UTF-8 JSON, names splits whole and has --reveal's lines as facts; --reveal-dir cannot forge lines" {
	name=$(printf 'caf\351-%0200d.txt' 0)
	printf '0 1\n1 0\n' >"$name"
	run --separate-stderr -0 "${MPIRUN[@]}" 2 "$ALLER" --json=j.json "--split=matrix:$name" \
		--reveal --reveal-dir=$'r\n# Done\n# level: 9' c 1 64
	[ "$(grep -c '^# Done$' <<<"$output")" -eq 1 ]
	if grep -q '^# level: 9' <<<"$output"; then echo 'a forged level line'; return 1; fi
	python3 - j.json "$name" <<-'EOF'
		import json, sys
		recs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
		split = sys.argv[2].encode("utf-8", "surrogateescape").decode("utf-8", "replace")
		assert any(r.get("split") == "matrix:" + split for r in recs), "split not whole"
		facts = {r["key"] for r in recs if r["record"] == "fact"}
		assert "matrix" in facts or "traffic" in facts, facts
	EOF
}

@test "--reveal matrices that cannot be written are exit 3; --congestion of no aggressor is exit 2 as --check-args says" {
	run -0 "${MPIRUN[@]}" 2 "$ALLER" --reveal --reveal-dir=r c 1 64
	for m in r/matrix-*.dat; do rm "$m" && mkdir "$m"; done
	run --separate-stderr -3 "${MPIRUN[@]}" 2 "$ALLER" --reveal --reveal-dir=r c 1 64
	grep -q '^# matrix: not written (' <<<"$output"
	run --separate-stderr -2 "$ALLER" --check-args=2 --congestion=1e-9 c 1 64
	run --separate-stderr -2 "${MPIRUN[@]}" 2 "$ALLER" --congestion=1e-9 c 1 64
	[[ $stderr == *"makes no aggressor of a world of 2"* && $stderr != *MPI_Send* ]]
}

@test "under a launcher its MPI library does not speak: exit 3, one line, not three runs of one task each" {
	command -v mpiexec.mpich >/dev/null || skip "MPICH's mpiexec is missing: run 'make deps'"
	# the Open MPI build under MPICH's mpiexec: each task would be a world of one
	run --separate-stderr -3 timeout 60 mpiexec.mpich -n 3 "$ALLER" 0 2 4096
	[ "$stderr" = "aller: error: MPI_COMM_WORLD has 1 task, but the launcher started 3 (PMI_SIZE=3): this MPI library did not join the launcher's tasks (each runs alone as a world of one); launch it with a process manager its library speaks (MPICH under Slurm: srun --mpi=pmi2; Open MPI: srun --mpi=pmix or its mpirun); or, started by hand where PMI_SIZE is not its own (typed in srun -n 3 --pty bash, or a stale one), run it as one task: env -u PMI_SIZE aller ..." ]
	[ -z "$output" ]   # no header, no rows: nothing for a merge to take
}
