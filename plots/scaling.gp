# plots/scaling.gp: per-task bandwidth versus node count at the largest
# message size, one curve per mode and communicator size.
# gnuplot -c scaling.gp DATA OUT FORMAT TITLE SUBTITLE SETS
# SETS: a file of data sets by name (common.gp): index mode commsize size label
sets = ARG6
wanted = "nodes bwavg_GiBs"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "nodes (log_2)"
set ylabel "per-task bandwidth, GiB/s (in + out)"
set logscale x 2
set logscale y 10
set format x "%.0f"
set format y "%g"
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
n = sets_n(sets); S_index = sets_col(sets, "index"); S_mode = sets_col(sets, "mode")
S_commsize = sets_col(sets, "commsize"); S_size = sets_col(sets, "size")
S_label = sets_col(sets, "label")
x = col("nodes"); y = col("bwavg_GiBs")
idx(k) = int(word(S_index, k))
load "ranges.gp"
plot for [k = 1:n] data index idx(k) using x:y with linespoints lw 2 \
	pt (k % 7 + 4) ps 0.9 lc rgb shade(word(S_mode, k), nth(S_mode, k)) \
	title sprintf("%s, commsize %s, %s per peer", word(S_mode, k), word(S_commsize, k), \
		spaces(word(S_size, k))) . label(spaces(word(S_label, k)))
