# plots/ratio.gp: NEW/BASE average time per call versus message size, one
# curve per communicator size, the tolerance band shaded around 1 (below:
# NEW is faster); one (nodes, mode) per plot, from collect --compare's
# compare.dat.
# gnuplot -c ratio.gp DATA OUT FORMAT TITLE SUBTITLE MODE SETS
# SETS: a file of data sets by name (common.gp): index commsize
data = ARG1
out = ARG2
fmt = ARG3
mode = ARG6
sets = ARG7
wanted = "bytes_per_peer ratio band_low band_high"
# the directory of this script (ARG0), without a shell
here(p) = strstrt(p, "/") ? p[1:strstrt(p, "/")] . here(p[strstrt(p, "/") + 1:]) : ""
load here(ARG0) . "common.gp"
set title ARG4 . "\n" . ARG5 noenhanced
set xlabel "bytes per peer (log_2)"
set ylabel "tavg NEW / BASE (band: tolerance)"
set logscale x 2
set logscale y 2
set format y "%g"
do for [e = 0:40:2] { set xtics add (bytes_label(e) 2**e) }
set xtics rotate by -35 font ",9"
n = sets_n(sets); S_index = sets_col(sets, "index"); S_commsize = sets_col(sets, "commsize")
idx(k) = int(word(S_index, k))
x = col("bytes_per_peer"); y = col("ratio"); bl = col("band_low"); bh = col("band_high")
load here(ARG0) . "ranges.gp"
plot data index idx(1) using x:bl:bh with filledcurves fc rgb "#e5e5e5" fs solid 1.0 \
		title "tolerance", \
	1 with lines lc rgb "#888888" dt 3 notitle, \
	for [k = 1:n] data index idx(k) using x:y with linespoints lw 1.8 pt 7 ps 0.6 \
		lc rgb shade(mode, k) title sprintf("commsize %s", word(S_commsize, k))
