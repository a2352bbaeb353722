# plots/ratio.gp: NEW/BASE average time per call versus message size, one
# curve per communicator size, the tolerance band shaded around 1 (below:
# NEW is faster); one (nodes, mode) per plot, from collect --compare's
# compare.dat.
# gnuplot -c ratio.gp DATA OUT FORMAT TITLE SUBTITLE MODE SETS
# SETS: a file of data sets by name (common.gp): index commsize
mode = ARG6
sets = ARG7
wanted = "bytes_per_peer ratio band_low band_high"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "bytes per peer (log_2)"
set ylabel "tavg NEW / BASE (band: tolerance)"
set logscale x 2
set logscale y 2
set format y "%g"
set xtics ()   # (only the labels below: an automatic tic would read "2.09715x10^6")
do for [e = 0:40:2] { set xtics add (bytes_label(e) 2**e) }
set xtics rotate by -35 font small
n = sets_n(sets); S_index = sets_col(sets, "index"); S_commsize = sets_col(sets, "commsize")
idx(k) = int(word(S_index, k))
x = col("bytes_per_peer"); y = col("ratio"); bl = col("band_low"); bh = col("band_high")
load "ranges.gp"
plot data index idx(1) using x:bl:bh with filledcurves fc rgb "#e5e5e5" fs solid 1.0 \
		title "tolerance", \
	1 with lines lc rgb "#888888" dt 3 notitle, \
	for [k = 1:n] data index idx(k) using x:y with linespoints lw 1.8 pt 7 ps 0.6 \
		lc rgb shade(mode, k) title sprintf("commsize %s", word(S_commsize, k))
