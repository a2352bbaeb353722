# plots/algorithms.gp: the algorithms side by side: per-task bandwidth versus
# message size, one curve per algorithm, at one (mode, nodes, commsize).
# gnuplot -c algorithms.gp DATA OUT FORMAT TITLE SUBTITLE SETS
# SETS: a file of data sets by name (common.gp): index algo label algo_index
sets = ARG6
wanted = "bytes_per_peer bwavg_GiBs bwmin_GiBs bwmax_GiBs"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "bytes per peer (log_2)"
set ylabel "per-task bandwidth, GiB/s (in + out; bars: min..max)"
set logscale x 2
set logscale y 10
set format y "%g"
set xtics ()   # (only the labels below: an automatic tic would read "2.09715x10^6")
do for [e = 0:40:2] { set xtics add (bytes_label(e) 2**e) }
set xtics rotate by -35 font small
n = sets_n(sets); S_index = sets_col(sets, "index"); S_algo = sets_col(sets, "algo")
S_ai = sets_col(sets, "algo_index")
S_label = sets_col(sets, "label")
idx(k) = int(word(S_index, k))
# the legend: the label (which names the algorithm, and campaign or series when several)
lb(k) = word(S_label, k) eq "-" ? word(S_algo, k) : spaces(word(S_label, k))
x = col("bytes_per_peer"); y = col("bwavg_GiBs"); lo = col("bwmin_GiBs"); hi = col("bwmax_GiBs")
load "ranges.gp"
plot for [k = 1:n] data index idx(k) \
	using x:y:lo:hi with yerrorlines lw 1.6 pt 7 ps 0.6 lc rgb algo_color(word(S_ai, k)) \
	title lb(k)
