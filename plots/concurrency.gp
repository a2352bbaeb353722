# plots/concurrency.gp: bandwidth versus the number of concurrent
# communicators at one message size, per task (solid) and aggregate (dashed),
# contiguous and strided together. The last level, commsize 1 (a local
# copy, no network), is a grey point apart that sets no scale, as in
# sizes.gp. Each mode keeps its colour; a second line of a mode (another
# algorithm, split, series or placement) takes the next shade of it.
# gnuplot -c concurrency.gp DATA OUT FORMAT TITLE SUBTITLE SETS
# SETS: a file of data sets by name (common.gp): index mode label local
sets = ARG6
wanted = "comms commsize bwavg_GiBs aggbw_GiBs"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "concurrent communicators (log_2)"
set ylabel "bandwidth, GiB/s (in + out)"
set logscale x 2
set logscale y 10
set format x "%.0f"
set format y "%g"
n = sets_n(sets); S_index = sets_col(sets, "index"); S_mode = sets_col(sets, "mode")
S_label = sets_col(sets, "label"); S_local = sets_col(sets, "local")
# the sets with a commsize-1 row (sets.tsv's local), and their gnuplot index
locals = ""
do for [k = 1:n] { if (word(S_local, k) eq "yes") { locals = locals . " " . k } }
nl = words(locals)
idxl(j) = nl > 0 ? idx(int(word(locals, j))) : 0   # (evaluated even for no iteration)
idx(k) = int(word(S_index, k))
md(k) = word(S_mode, k)
lb(k) = label(spaces(word(S_label, k)))
x = col("comms"); task = col("bwavg_GiBs"); agg = col("aggbw_GiBs"); local_col = col("commsize")
y = task
key_rows = n + 1   # (two entries a data set and the local copy's, in two columns)
load "ranges.gp"
# a log axis over less than two decades labels one tic or none of its own:
# 1..9 of each decade within one, 1, 2 and 5 within two
if (ymax < 100 * ymin) {
	marks = ymax < 10 * ymin ? "1 2 3 4 5 6 7 8 9" : "1 2 5"
	do for [e = floor(log10(ymin)):ceil(log10(ymax))] {
		do for [m in marks] { set ytics add (sprintf("%g", real(m) * 10.0**e) real(m) * 10.0**e) }
	}
}
ranks = ""   # each set's place among the sets of its mode
do for [k = 1:n] { r = 0; do for [j = 1:k - 1] { if (md(j) eq md(k)) { r = r + 1 } }; ranks = ranks . " " . r }
rk(k) = int(word(ranks, k))
color(k) = rk(k) == 0 ? mode_color(md(k)) : shade(md(k), rk(k) + 1)
net(c) = column(local_col) > 1 ? column(c) : NaN   # communicators of two tasks or more
alone(c) = column(local_col) == 1 ? column(c) : NaN   # commsize 1
plot for [k = 1:n] data index idx(k) using x:(net(task)) with linespoints lw 2 pt 7 ps 0.7 \
		lc rgb color(k) title sprintf("%s, per task", md(k)) . lb(k), \
	for [k = 1:n] data index idx(k) using x:(net(agg)) with linespoints lw 2 dt 2 pt 6 ps 0.7 \
		lc rgb color(k) title sprintf("%s, aggregate", md(k)) . lb(k), \
	for [j = 1:nl] data index idxl(j) using x:(alone(task)) noautoscale with points pt 6 ps 0.9 \
		lc rgb "#888888" title (j == 1 ? "commsize 1, local copy (off scale)" : "")
