# plots/bandwidth.gp: per-task bandwidth versus message size, one curve per
# communicator size, with the min..max range; one (nodes, mode) per plot.
# gnuplot -c bandwidth.gp DATA OUT FORMAT TITLE SUBTITLE MODE "INDEX:COMMSIZE:LABEL ..."
# (LABEL: the set's series, or "-" when the data has only one)
data = ARG1
out = ARG2
fmt = ARG3
mode = ARG6
sets = ARG7
wanted = "bytes_per_peer bwavg_GiBs bwmin_GiBs bwmax_GiBs"
load system("dirname '" . ARG0 . "'") . "/common.gp"
set title ARG4 . "\n" . ARG5 noenhanced
set xlabel "bytes per peer (log_2)"
set ylabel "per-task bandwidth, GiB/s (in + out; bars: min..max)"
set logscale x 2
set logscale y 10
set format y "%g"
do for [e = 0:40:2] { set xtics add (bytes_label(e) 2**e) }
set xtics rotate by -35 font ",9"
n = words(sets)
x = col("bytes_per_peer"); y = col("bwavg_GiBs"); lo = col("bwmin_GiBs"); hi = col("bwmax_GiBs")
plot for [k = 1:n] data index int(field(word(sets, k), 1)) \
	using x:y:lo:hi with yerrorlines lw 1.6 pt 7 ps 0.6 lc rgb shade(mode, k) \
	title sprintf("commsize %s", field(word(sets, k), 2)) . label(field(word(sets, k), 3))
