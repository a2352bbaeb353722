# plots/latency.gp: average time per call versus message size, log-log, one
# curve per communicator size with the min..max range; one (nodes, mode) per
# plot, as OSU users read small messages. The commsize-1 level (a local
# copy) is dashed and does not set the scale.
# gnuplot -c latency.gp DATA OUT FORMAT TITLE SUBTITLE MODE SETS LOCAL
# SETS, LOCAL: files of data sets by name (common.gp): index commsize label
data = ARG1
out = ARG2
fmt = ARG3
mode = ARG6
sets = ARG7
local = ARG8
wanted = "bytes_per_peer tavg_s tmin_s tmax_s"
# the directory of this script (ARG0), without a shell
here(p) = strstrt(p, "/") ? p[1:strstrt(p, "/")] . here(p[strstrt(p, "/") + 1:]) : ""
load here(ARG0) . "common.gp"
set title ARG4 . "\n" . ARG5 noenhanced
set xlabel "bytes per peer (log_2)"
set ylabel "time per call, us (average; bars: min..max)"
set logscale x 2
set logscale y 10
set format y "%g"
do for [e = 0:40:2] { set xtics add (bytes_label(e) 2**e) }
set xtics rotate by -35 font ",9"
n = sets_n(sets); S_index = sets_col(sets, "index"); S_commsize = sets_col(sets, "commsize")
S_label = sets_col(sets, "label")
nl = sets_n(local); L_index = sets_col(local, "index"); L_label = sets_col(local, "label")
# (gnuplot evaluates an index even for an empty iteration)
idxl(k) = nl > 0 ? int(word(L_index, k)) : 0
idx(k) = int(word(S_index, k))
x = col("bytes_per_peer"); t = col("tavg_s"); lo = col("tmin_s"); hi = col("tmax_s")
yscale = 1e6
us(c) = yscale * column(c)
y = t
load here(ARG0) . "ranges.gp"
plot for [k = 1:n] data index idx(k) \
	using x:(us(t)):(us(lo)):(us(hi)) with yerrorlines lw 1.6 pt 7 ps 0.6 lc rgb shade(mode, k) \
	title sprintf("commsize %s", word(S_commsize, k)) . label(spaces(word(S_label, k))), \
	for [k = 1:nl] data index idxl(k) using x:(us(t)) noautoscale \
	with linespoints dt 2 lw 1.2 pt 6 ps 0.6 lc rgb "#888888" \
	title "commsize 1, local copy (off scale)" . label(spaces(word(L_label, k)))
