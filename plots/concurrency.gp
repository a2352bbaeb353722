# plots/concurrency.gp: bandwidth versus the number of concurrent
# communicators at one message size, per task (solid) and aggregate (dashed),
# contiguous and strided together.
# gnuplot -c concurrency.gp DATA OUT FORMAT TITLE SUBTITLE SETS
# SETS: a file of data sets by name (common.gp): index mode label
data = ARG1
out = ARG2
fmt = ARG3
sets = ARG6
wanted = "comms bwavg_GiBs aggbw_GiBs"
# the directory of this script (ARG0), without a shell
here(p) = strstrt(p, "/") ? p[1:strstrt(p, "/")] . here(p[strstrt(p, "/") + 1:]) : ""
load here(ARG0) . "common.gp"
set title ARG4 . "\n" . ARG5 noenhanced
set xlabel "concurrent communicators (log_2)"
set ylabel "bandwidth, GiB/s (in + out)"
set logscale x 2
set logscale y 10
set format x "%.0f"
set format y "%g"
n = sets_n(sets); S_index = sets_col(sets, "index"); S_mode = sets_col(sets, "mode")
S_label = sets_col(sets, "label")
idx(k) = int(word(S_index, k))
md(k) = word(S_mode, k)
lb(k) = label(spaces(word(S_label, k)))
x = col("comms"); task = col("bwavg_GiBs"); agg = col("aggbw_GiBs")
y = task
load here(ARG0) . "ranges.gp"
plot for [k = 1:n] data index idx(k) using x:task with linespoints lw 2 pt 7 ps 0.7 \
		lc rgb mode_color(md(k)) title sprintf("%s, per task", md(k)) . lb(k), \
	for [k = 1:n] data index idx(k) using x:agg with linespoints lw 2 dt 2 pt 6 ps 0.7 \
		lc rgb mode_color(md(k)) title sprintf("%s, aggregate", md(k)) . lb(k)
