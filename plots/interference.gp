# plots/interference.gp: how much concurrent communicators slow each other
# (aller --isolate): communicator 0's time with all running over its time
# alone, versus the number of communicators, per mode at a few sizes. 1 is
# no interference; the dashed line marks it.
# gnuplot -c interference.gp DATA OUT FORMAT TITLE SUBTITLE SETS
# SETS: a file of data sets by name (common.gp): index mode size
sets = ARG6
wanted = "comms interference"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "concurrent communicators (log_2)"
set ylabel "interference: tavg together / tavg alone (communicator 0)"
set logscale x 2
set format x "%.0f"
set format y "%g"
n = sets_n(sets); S_index = sets_col(sets, "index"); S_mode = sets_col(sets, "mode")
S_size = sets_col(sets, "size")
idx(k) = int(word(S_index, k))
x = col("comms"); y = col("interference")
load "ranges.gp"
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "#888888"
plot for [k = 1:n] data index idx(k) using x:y with linespoints lw 2 pt 7 ps 0.8 \
	lc rgb shade(word(S_mode, k), nth(S_mode, k)) \
	title sprintf("%s, %s per peer", word(S_mode, k), spaces(word(S_size, k)))
