# plots/phases.gp: aller --moe's round trip phase by phase versus message
# size, at one communicator size: each phase's share of the trip stacked
# (counts, dispatch, combine; left axis), and the trip's time per call (the
# phases' sum; right axis, log).
# gnuplot -c phases.gp DATA OUT FORMAT TITLE SUBTITLE SETS
# SETS: a file of one data set by name (common.gp): index commsize label
sets = ARG6
wanted = "bytes_per_peer tcounts_s tdispatch_s tcombine_s"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "bytes per peer (log_2)"
set ylabel "share of the round trip (stacked)"
set y2label "round trip, us per call (the phases' sum)"
set logscale x 2
set yrange [0:1]
set format y "%.0f%%"
set ytics ("0%%" 0, "25%%" 0.25, "50%%" 0.5, "75%%" 0.75, "100%%" 1) nomirror
set logscale y2 10
set format y2 "%g"
set y2tics
set xtics ()   # (only the labels below: an automatic tic would read "2.09715x10^6")
do for [e = 0:40:2] { set xtics add (bytes_label(e) 2**e) }
set xtics rotate by -35 font small
set key below horizontal
n = sets_n(sets); S_index = sets_col(sets, "index"); S_commsize = sets_col(sets, "commsize")
S_label = sets_col(sets, "label")
idx(k) = int(word(S_index, k))
x = col("bytes_per_peer"); c1 = col("tcounts_s"); c2 = col("tdispatch_s"); c3 = col("tcombine_s")
trip = "(column(c1) + column(c2) + column(c3))"
share(upto) = (upto >= 1 ? column(c1) : 0) + (upto >= 2 ? column(c2) : 0) + (upto >= 3 ? column(c3) : 0)
plot for [k = 1:n] data index idx(k) using x:(share(3) / @trip):(0) with filledcurves \
	fc rgb "#d95f02" fs solid 0.55 title (k == 1 ? "combine" : ""), \
     for [k = 1:n] data index idx(k) using x:(share(2) / @trip):(0) with filledcurves \
	fc rgb "#1b9e77" fs solid 0.55 title (k == 1 ? "dispatch" : ""), \
     for [k = 1:n] data index idx(k) using x:(share(1) / @trip):(0) with filledcurves \
	fc rgb "#7570b3" fs solid 0.7 title (k == 1 ? "counts" : ""), \
     for [k = 1:n] data index idx(k) using x:(1e6 * @trip) axes x1y2 with linespoints \
	lw 1.8 pt 7 ps 0.6 lc rgb "#333333" \
	title sprintf("trip, commsize %s", word(S_commsize, k)) . label(spaces(word(S_label, k)))
