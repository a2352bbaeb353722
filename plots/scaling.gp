# plots/scaling.gp: per-task bandwidth versus node count at the largest
# message size, one curve per mode and communicator size.
# gnuplot -c scaling.gp DATA OUT FORMAT TITLE SUBTITLE "INDEX:MODE:COMMSIZE:BYTES:SHADE:LABEL ..."
data = ARG1
out = ARG2
fmt = ARG3
sets = ARG6
dir = system("dirname '" . ARG0 . "'") . "/"
load dir . "common.gp"
set title ARG4 . "\n" . ARG5 noenhanced
set xlabel "nodes (log_2)"
set ylabel "per-task bandwidth, GiB/s (in + out)"
set logscale x 2
set logscale y 10
set format x "%.0f"
set format y "%g"
set offsets graph 0.05, graph 0.05, 0, 0
n = words(sets)
f(k, i) = field(word(sets, k), i)
plot for [k = 1:n] data index int(f(k, 1)) using 1:11 with linespoints lw 2 \
	pt (k % 7 + 4) ps 0.9 lc rgb shade(f(k, 2), int(f(k, 5))) \
	title sprintf("%s, commsize %s, %s per peer", f(k, 2), f(k, 3), human(int(f(k, 4)))) . label(f(k, 6))
