#!/usr/bin/env bats
# aller --reveal under mpirun: what the MPI_T counters say inside each call.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# One strided run at 4 ranks, its matrices in a directory it makes two deep:
# the matrices, their heatmaps and the checker's refusals read it.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	mpirun_n 4 "$ALLER" --reveal --reveal-dir=rv/deep s 1 16 >s16.out
}

@test "--reveal at 4 ranks: count x 8 x (g-1) bytes per rank, pairwise, no cross traffic" {
	mpirun_n 4 "$ALLER" --reveal --reveal-dir=rv c 2 64 >out
	grep -q '^# reveal: pml; ' out
	perl "$ROOT/tests/lib/check-aller.pl" 4 64 2 contiguous out
	perl "$ROOT/tests/lib/check-traffic.pl" pairwise/linear out
	[ "$(grep -c '^# traffic: ' out)" = 18 ]
}

@test "--reveal at 8 strided ranks: the concurrent communicators stay apart" {
	mpirun_n 8 "$ALLER" --reveal=pml --reveal-dir=rv s 1 64 >out
	perl "$ROOT/tests/lib/check-aller.pl" 8 64 1 strided out
	perl "$ROOT/tests/lib/check-traffic.pl" pairwise/linear out
	grep -q '^# traffic: count=2 tier=pml msgs=1 .* cross_bytes=0$' out
}

@test "--reveal with every algorithm: pairwise reads as pairwise, put as the fences' extra traffic" {
	for a in ialltoall persistent alltoallv pairwise; do
		mpirun_n 4 "$ALLER" --reveal --reveal-dir=rv --algo=$a c 1 64 >out
		perl "$ROOT/tests/lib/check-aller.pl" 4 64 1 contiguous out
		perl "$ROOT/tests/lib/check-traffic.pl" pairwise/linear out
	done
	# put (osc pt2pt): the puts and the fences' messages, more bytes than the payload
	OMPI_MCA_osc=pt2pt mpirun_n 4 "$ALLER" --reveal --reveal-dir=rv --algo=put c 1 64 >out
	perl "$ROOT/tests/lib/check-aller.pl" 4 64 1 contiguous out
	grep -q '^# traffic: count=16 tier=pml msgs=[0-9.]* .* logical=384 amplification=[0-9.]* fingerprint=other cross_bytes=0$' out
	awk '/^# traffic: count=16 / { split($0, f, /[ =]/); for (i = 1; i in f; i++) if (f[i] == "amplification") a = f[i + 1] }
		END { exit !(a > 1) }' out
}

@test "forcing Bruck changes the fingerprint and the amplification" {
	OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_alltoall_algorithm=3 \
		mpirun_n 8 "$ALLER" --reveal --reveal-dir=rv c 1 64 >out
	perl "$ROOT/tests/lib/check-traffic.pl" bruck-like out
	# 8 ranks, 8 longs per peer: 3 messages of 4 blocks (256 B) against 7 x 64 B
	grep -q '^# traffic: count=8 tier=pml msgs=3 .* bytes=768 .* logical=448 amplification=1.7143 fingerprint=bruck-like cross_bytes=0$' out
}

# (16 ranks on this machine's cores: the volume)
# bats test_tags=slow
@test "at 16 ranks and 8 B per peer Open MPI picks a Bruck variant: amplification 32/15" {
	mpirun_n 16 "$ALLER" --reveal --reveal-dir=rv c 1 16 >out
	grep -q '^# traffic: count=1 tier=pml msgs=4 .* bytes=256 .* logical=120 amplification=2.1333 fingerprint=bruck-like cross_bytes=0$' out
}

@test "the checker itself rejects traffic that does not fit" {
	out=$BATS_FILE_TMPDIR/s16.out
	perl "$ROOT/tests/lib/check-traffic.pl" pairwise/linear "$out"
	sed 's/cross_bytes=0/cross_bytes=8/' "$out" >cross
	run -1 perl "$ROOT/tests/lib/check-traffic.pl" pairwise/linear cross
	[[ $output == *"cross_bytes 8, expected 0"* ]]
	run -1 perl "$ROOT/tests/lib/check-traffic.pl" bruck-like "$out"
	[[ $output == *"fingerprint pairwise/linear, expected bruck-like"* ]]
}

@test "a traffic matrix per level and count, in world ranks" {
	cd "$BATS_FILE_TMPDIR"
	grep -qx '# reveal_dir: rv/deep' s16.out
	grep -qx '# matrix: rv/deep/matrix-L1-c8.dat' s16.out
	[ "$(find rv/deep -name 'matrix-*.dat' | wc -l)" = 12 ]
	# strided level 1: {0,2} and {1,3}, 8 longs = 64 bytes per peer and call
	grep -qx '0 2 64 1' rv/deep/matrix-L1-c8.dat
	grep -qx '0 1 0 0' rv/deep/matrix-L1-c8.dat
	[ "$(grep -c '^[0-9]' rv/deep/matrix-L1-c8.dat)" = 16 ]
	[ -z "$(find rv/deep -name '*.tmp')" ]
}

@test "without monitoring: one 'unavailable' line, the normal output, exit 0" {
	OMPI_MCA_pml_monitoring_enable=0 run --separate-stderr -0 mpirun_n 4 "$ALLER" --reveal --reveal-dir=rv c 2 32
	[ "$(printf '%s\n' "$output" | grep -c '^# reveal: ')" = 1 ]
	[[ $output == *"# reveal: unavailable (Open MPI's monitoring is off (OMPI_MCA_pml_monitoring_enable=0;"* ]]
	[[ $output != *"# traffic:"* ]]
	printf '%s\n' "$output" >out
	perl "$ROOT/tests/lib/check-aller.pl" 4 32 2 contiguous out
	[ ! -e rv ]
	[ -z "$stderr" ]
}

# bats test_tags=openmpi
@test "a PML list without the monitoring component (--mca pml ucx, as sites set it): the line says what to add, and added it reveals" {
	[ "$TEST_MPI" = openmpi ] || skip "Open MPI's PML list"
	OMPI_MCA_pml=ob1 run --separate-stderr -0 mpirun_n 2 "$ALLER" --reveal --reveal-dir=rv c 1 32
	[[ $output == *"# reveal: unavailable (Open MPI's PML list leaves out its monitoring component (OMPI_MCA_pml=ob1): add it, --mca pml ob1,monitoring or OMPI_MCA_pml=ob1,monitoring)"* ]]
	OMPI_MCA_pml=ob1,monitoring run --separate-stderr -0 mpirun_n 2 "$ALLER" --reveal --reveal-dir=rv c 1 32
	[[ $output == *"# reveal: pml; "* && $output == *"# traffic: "* ]]
}

@test "the generic tier lists counter deltas after every data line" {
	mpirun_n 4 "$ALLER" --reveal=generic c 1 16 >out
	grep -q '^# reveal: generic; ' out
	[ "$(grep -c '^# counters: count=' out)" = "$(grep -c '^[0-9]' out)" ]
	perl "$ROOT/tests/lib/check-aller.pl" 4 16 1 contiguous out
	# bound to each level's communicator: per call, summed over the 4 ranks, one
	# call each and count x 8 x (commsize - 1) bytes (zero deltas are not listed)
	awk '/^[0-9]/ { g = $2; c = $3; getline
		want = "# counters: count=" c " coll_monitoring_a2a_count=4"
		if (g > 1) want = want " coll_monitoring_a2a_size=" 4 * c * 8 * (g - 1)
		if ($0 != want) { print "got  " $0; print "want " want; bad = 1 } }
		END { exit bad }' out
}

@test "a reveal directory that cannot be made: one error line, exit 3" {
	touch file
	run --separate-stderr -3 mpirun_n 2 "$ALLER" --reveal --reveal-dir=file/rv c 1 8
	[ "$(printf '%s\n' "$stderr" | grep -c '^aller: error: ')" = 1 ]
	[[ $stderr == *"cannot create the reveal directory 'file/rv': Not a directory"* ]]
	[[ $output != *"# Done"* ]]
}

@test "the collector keeps revealed timings apart from clean ones" {
	mkdir raw
	mpirun_n 2 "$ALLER" c 1 8 >raw/clean.out
	mpirun_n 2 "$ALLER" --reveal --reveal-dir=rv c 1 8 >raw/revealed.out
	run -0 "$COLLECT" -q -o merged raw
	# two points, one marked instrumented; as many rows each, apart
	[ "$(grep -c ',no,' merged/points-index.csv)" = 1 ]
	[ "$(grep -c ',yes,' merged/points-index.csv)" = 1 ]
	[ "$(grep -c '^0,' merged/points.csv)" = "$(grep -c '^1,' merged/points.csv)" ]
	[ "$(grep -c '^bandwidth.dat	' merged/sets.tsv)" = 4 ]
}

@test "the traffic matrices render as heatmaps with the other plots" {
	cd "$BATS_FILE_TMPDIR"
	res=$BATS_TEST_TMPDIR/res
	run -0 bash "$ROOT/plots/plot.sh" --file s16.out --out-dir "$res"
	# per level the largest and the smallest count: 4+1, 8+1, 16+1
	[ "$(grep -c '/matrix-L[0-9]*-c[0-9]*\.png$' <<<"$output")" = 6 ]
	for f in "$res"/plots/matrix-*.png; do
		[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	done
	[ -s "$res/plots/matrix-L1-c8.png" ]
}
