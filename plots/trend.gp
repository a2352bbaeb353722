# plots/trend.gp: busbw over a campaign history, one curve per (mode, nodes,
# commsize, algorithm, split) at its largest size (the world level and its
# halves), x the runs in date order labelled by date.
# gnuplot -c trend.gp DATA OUT FORMAT TITLE SUBTITLE N
# DATA: a "# columns: run busbw_GBs date" line, then N blocks (two blank
# lines apart), each a header line naming the curve (quoted), then its rows.
n = int(ARG6)
wanted = "run busbw_GBs date"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "run (its date)"
set ylabel "busbw, GB/s (decimal; nccl-tests' definition)"
set logscale y 10
set format y "%g"
set xtics rotate by -30
set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05
set key outside right top noenhanced
# a flat history (every run alike) has no range to draw on a log axis: a decade around it
stats data using 2 nooutput
if (STATS_min == STATS_max) { set yrange [STATS_min / 3.0 : STATS_max * 3.0] }
plot for [k = 0:n - 1] data index k using 1:2:xtic(3) with linespoints lw 2 pt (k % 7 + 4) \
	ps 0.9 title columnheader(1)
