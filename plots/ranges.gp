# plots/ranges.gp: loaded by a plot script before it plots, with n (its data
# sets), idx(k) (their gnuplot index), x and y (column numbers) defined, and
# yscale when the plot shows y scaled (seconds as microseconds), local_col
# when rows whose column local_col is 1 (commsize 1: a local copy) are drawn
# apart and set no scale.
# Axes fit the data (autoscale to it, padded by common.gp's offsets, no
# empty decades); a single x or y value gets a range around it (a factor of
# 2 each way on log axes), so gnuplot has no empty range to warn of. A data
# set with no valid point stops the script (stats fails): plot.sh skips it.
# Then the canvas, taller for a key of many rows (common.gp's canvas):
# key_rows where the script knows them, else its data sets in two columns.
set autoscale fix
xmin = 1e300; xmax = -1e300; ymin = 1e300; ymax = -1e300
do for [k = 1:n] {
	if (exists("local_col")) {
		stats data index idx(k) using (column(local_col) == 1 ? NaN : column(x)) nooutput
	} else {
		stats data index idx(k) using x nooutput
	}
	xmin = STATS_min < xmin ? STATS_min : xmin
	xmax = STATS_max > xmax ? STATS_max : xmax
	if (exists("local_col")) {
		stats data index idx(k) using (column(local_col) == 1 ? NaN : column(y)) nooutput
	} else {
		stats data index idx(k) using y nooutput
	}
	ymin = STATS_min < ymin ? STATS_min : ymin
	ymax = STATS_max > ymax ? STATS_max : ymax
}
if (xmin == xmax) { set xrange [xmin / 2.0:xmax * 2.0] }
ys = exists("yscale") ? yscale : 1
if (ymin == ymax) { set yrange [ys * ymin / 2.0:ys * ymax * 2.0] }
eval canvas(exists("key_rows") ? key_rows : (n + 1) / 2)
