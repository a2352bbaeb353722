# plots/interference.gp: how much concurrent communicators slow each other
# (aller --isolate): communicator 0's time with all running over its time
# alone, versus the number of communicators, per mode at a few sizes. 1 is
# no interference; the dashed line marks it.
# gnuplot -c interference.gp DATA OUT FORMAT TITLE SUBTITLE "INDEX:MODE:SIZE:SHADE ..."
data = ARG1
out = ARG2
fmt = ARG3
sets = ARG6
wanted = "comms interference"
load system("dirname '" . ARG0 . "'") . "/common.gp"
set title ARG4 . "\n" . ARG5 noenhanced
set xlabel "concurrent communicators (log_2)"
set ylabel "interference: tavg together / tavg alone (communicator 0)"
set logscale x 2
set format x "%.0f"
set format y "%g"
n = words(sets)
idx(k) = int(field(word(sets, k), 1))
x = col("comms"); y = col("interference")
load system("dirname '" . ARG0 . "'") . "/ranges.gp"
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "#888888"
plot for [k = 1:n] data index idx(k) using x:y with linespoints lw 2 pt 7 ps 0.8 \
	lc rgb shade(field(word(sets, k), 2), int(field(word(sets, k), 4))) \
	title sprintf("%s, %s per peer", field(word(sets, k), 2), field(word(sets, k), 3))
