# plots/expected.gp: a measured campaign's bandwidth beside what its fabric
# should give (a simulated campaign of the same settings, aller-simulate's):
# per-task GiB/s (in + out: 2 x bytes per peer x commsize over the average
# call) versus message size, a curve per communicator size, the measured
# solid, the expected (simulated) dashed in the same shade; one (nodes,
# mode) per plot, from collect --compare's compare.dat (BASE simulated,
# NEW measured).
# gnuplot -c expected.gp DATA OUT FORMAT TITLE SUBTITLE MODE SETS
# SETS: a file of data sets by name (common.gp): index commsize
mode = ARG6
sets = ARG7
wanted = "bytes_per_peer tavg_base tavg_new"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "bytes per peer (log_2)"
set ylabel "per-task bandwidth, GiB/s (in + out)\nsolid: measured; dashed: expected (simulated)"
set logscale x 2
set logscale y 10
set format y "%g"
set xtics ()   # (only the labels below: an automatic tic would read "2.09715x10^6")
do for [e = 0:40:2] { set xtics add (bytes_label(e) 2**e) }
set xtics rotate by -35 font small
n = sets_n(sets); S_index = sets_col(sets, "index"); S_commsize = sets_col(sets, "commsize")
idx(k) = int(word(S_index, k))
cs(k) = word(S_commsize, k) + 0
bx = col("bytes_per_peer"); tb = col("tavg_base"); tn = col("tavg_new")
gibs(b, c, t) = 2.0 * b * c / t / 2**30
plot for [k = 1:n] data index idx(k) using bx:(gibs(column(bx), cs(k), column(tn))) with linespoints \
		lw 1.8 pt 7 ps 0.6 lc rgb shade(mode, k) title sprintf("commsize %s, measured", word(S_commsize, k)), \
	for [k = 1:n] data index idx(k) using bx:(gibs(column(bx), cs(k), column(tb))) with lines \
		lw 1.4 dt 2 lc rgb shade(mode, k) title sprintf("commsize %s, expected (simulated)", word(S_commsize, k))
