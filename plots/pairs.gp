# plots/pairs.gp: the node-pair bandwidth matrix of aller --pairs: GB/s from
# each sender (y) to each receiver (x), host names on the axes. Colours are
# relative to the median link: light blue the median, red below 0.8 of it
# (slow), dark blue twice it or more; the diagonal (none) white.
# gnuplot -c pairs.gp FILE OUT FORMAT TITLE SUBTITLE TICS INDEX
# FILE: the merge's pairs.dat, INDEX the point's data set there (pairs.tsv).
# TICS: "0 n1 1 n2 ...", each task's rank and host (words: data, never code).
set_index = int(ARG7)
wanted = "src dst bw_GBs"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
unset grid
# the diagonal's NaN stays a pixel (drawn blank), so the grid stays whole
set datafile missing ""
set offsets 0, 0, 0, 0
set xlabel "receiver"
set ylabel "sender"
set size ratio -1
set palette defined (0 "#67000d", 0.4 "#ef3b2c", 0.5 "#c6dbef", 1 "#08306b")
b = col("bw_GBs"); src = col("src"); dst = col("dst")
stats data index set_index using b nooutput
median = STATS_median > 0 ? STATS_median : 1
set cbrange [0:2 * median]
set cblabel sprintf("GB/s, best of the exchanges (median %.3g)", median)
set format cb "%g"
stats data index set_index using dst nooutput
set xrange [STATS_min - 0.5:STATS_max + 0.5]
set yrange [STATS_max + 0.5:STATS_min - 0.5]
if (STATS_max < 40) {
	set xtics () rotate by 45 right noenhanced
	set ytics () noenhanced
	do for [k = 1:words(ARG6) / 2] {
		set xtics add (word(ARG6, 2 * k) int(word(ARG6, 2 * k - 1)))
		set ytics add (word(ARG6, 2 * k) int(word(ARG6, 2 * k - 1)))
	}
}
set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb "white" fs solid
plot data index set_index using dst:src:b with image notitle
