# plots/scaling.gp: per-task bandwidth versus node count at the largest
# message size, one curve per mode and communicator size.
# gnuplot -c scaling.gp DATA OUT FORMAT TITLE SUBTITLE "INDEX:MODE:COMMSIZE:SIZE:SHADE:LABEL ..."
# (SIZE: bytes per peer as the index labels it, "~" for its space)
data = ARG1
out = ARG2
fmt = ARG3
sets = ARG6
wanted = "nodes bwavg_GiBs"
load system("dirname '" . ARG0 . "'") . "/common.gp"
set title ARG4 . "\n" . ARG5 noenhanced
set xlabel "nodes (log_2)"
set ylabel "per-task bandwidth, GiB/s (in + out)"
set logscale x 2
set logscale y 10
set format x "%.0f"
set format y "%g"
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
n = words(sets)
f(k, i) = field(word(sets, k), i)
x = col("nodes"); y = col("bwavg_GiBs")
idx(k) = int(f(k, 1))
load system("dirname '" . ARG0 . "'") . "/ranges.gp"
plot for [k = 1:n] data index int(f(k, 1)) using x:y with linespoints lw 2 \
	pt (k % 7 + 4) ps 0.9 lc rgb shade(f(k, 2), int(f(k, 5))) \
	title sprintf("%s, commsize %s, %s per peer", f(k, 2), f(k, 3), f(k, 4)) . label(f(k, 6))
