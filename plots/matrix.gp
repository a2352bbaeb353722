# plots/matrix.gp: a traffic-matrix heatmap from aller --reveal: bytes per
# call from each source (y) to each destination (x) world rank.
# gnuplot -c matrix.gp MATRIX OUT FORMAT TITLE SUBTITLE
wanted = "src dst bytes_per_call"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
unset grid
set offsets 0, 0, 0, 0
set xlabel "destination world rank"
set ylabel "source world rank"
set cblabel "bytes per call"
set size ratio -1
set palette defined (0 "#ffffff", 1 "#c6dbef", 2 "#4292c6", 3 "#08306b")
b = col("bytes_per_call"); src = col("src"); dst = col("dst")
stats data using b nooutput
# a level of single-rank communicators sends nothing
if (STATS_max > 0) { set cbrange [0:STATS_max] } else { set cbrange [0:1] }
set format cb "%g"
# pixels are one rank wide (ranks of communicator 0 are evenly spaced too)
stats data using dst nooutput
half = STATS_records > 1 ? 0.5 * (STATS_max - STATS_min) / (sqrt(STATS_records) - 1) : 0.5
set xrange [STATS_min - half:STATS_max + half]
set yrange [STATS_max + half:STATS_min - half]
plot data using dst:src:b with image notitle
