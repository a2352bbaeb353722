# plots/bandwidth.gp: per-task bandwidth versus message size, one curve per
# communicator size: each point the median call's, its bar the median's 95%
# interval (tmed_lo..tmed_hi; an output without them: the mean and
# min..max), and under it, dashed and thin in its colour, what the fabric
# allows it (collect's bound_s: where the point's fabric is known); one
# (nodes, mode) per plot.
# The commsize-1 level (a local copy) is dashed and does not set the scale.
# Several labels (algorithms, splits, series, placements): a commsize keeps
# its shade, each label its own dash pattern (the first solid).
# gnuplot -c bandwidth.gp DATA OUT FORMAT TITLE SUBTITLE MODE SETS LOCAL
# SETS, LOCAL: files of data sets by name (common.gp): index commsize label
# (label: what the legend names, or "-")
data = ARG1
out = ARG2
fmt = ARG3
mode = ARG6
sets = ARG7
local = ARG8
wanted = "bytes_per_peer bwavg_GiBs bwmin_GiBs bwmax_GiBs tavg_s tmed_s tmed_lo_s tmed_hi_s bound_s"
# the directory of this script (ARG0), without a shell
here(p) = strstrt(p, "/") ? p[1:strstrt(p, "/")] . here(p[strstrt(p, "/") + 1:]) : ""
load here(ARG0) . "common.gp"
set title ARG4 . "\n" . ARG5 noenhanced
set xlabel "bytes per peer (log_2)"
set ylabel "per-task bandwidth, GiB/s (in + out; the median call, bars: its 95% interval)"
set logscale x 2
set logscale y 10
set format y "%g"
do for [e = 0:40:2] { set xtics add (bytes_label(e) 2**e) }
set xtics rotate by -35 font ",9"
n = sets_n(sets); S_index = sets_col(sets, "index"); S_commsize = sets_col(sets, "commsize")
S_label = sets_col(sets, "label")
nl = sets_n(local); L_index = sets_col(local, "index"); L_label = sets_col(local, "label")
# (gnuplot evaluates an index even for an empty iteration)
idxl(k) = nl > 0 ? int(word(L_index, k)) : 0
idx(k) = int(word(S_index, k))
# each set's label's place among the labels (lr), and its own among its label's sets (cr)
lr = ""; cr = ""; nlab = 0
do for [k = 1:n] {
	r = -1; c = 0
	do for [j = 1:k - 1] {
		if (word(S_label, j) eq word(S_label, k)) { c = c + 1; if (r < 0) { r = int(word(lr, j)) } }
	}
	if (r < 0) { r = nlab; nlab = nlab + 1 }
	lr = lr . " " . r; cr = cr . " " . c
}
dash(k) = int(word(lr, k)) % 5 + 1
tone(k) = int(word(cr, k)) + 1
x = col("bytes_per_peer"); y = col("bwavg_GiBs"); lo = col("bwmin_GiBs"); hi = col("bwmax_GiBs")
T = col("tavg_s"); M = col("tmed_s"); ML = col("tmed_lo_s"); MH = col("tmed_hi_s"); BD = col("bound_s")
# a time as the row's bandwidth (bwavg is its bytes / tavg); NaN where unknown
ok(c) = valid(c) && column(c) > 0   # (a NaN column referenced makes the point missing: valid first)
bw_at(c) = ok(c) && ok(T) ? column(y) * column(T) / column(c) : NaN
ymed(d) = ok(M) ? bw_at(M) : column(y)
ylo(d) = ok(M) && ok(MH) ? bw_at(MH) : column(lo)
yhi(d) = ok(M) && ok(ML) ? bw_at(ML) : column(hi)
# the gnuplot indices of the data sets with a bound (a set without one would warn)
bounded = system(sprintf("awk '/^$/ { b++; next } { if (b >= 2) i++; b = 0 } !/^#/ && $%d + 0 > 0 { ok[i] = 1 } \
	END { for (k in ok) printf \"%%d \", k }' ", BD) . shpath(data))
has_bound(k) = strstrt(" " . bounded, sprintf(" %d ", idx(k))) > 0
bk = ""
do for [k = 1:n] { if (has_bound(k)) { bk = bk . sprintf(" %d", k) } }
bkk(j) = int(word(bk, j))
# (a macro: gnuplot plots an empty iteration's first data set all the same)
bounds = words(bk) == 0 ? "" : ", for [j = 1:words(bk)] data index idx(bkk(j)) using x:(bw_at(BD)) " . \
	"with lines lw 0.9 dt (6, 4) lc rgb shade(mode, tone(bkk(j))) " . \
	"title (j == 1 ? \"dashed: what the fabric allows it\" : \"\")"
load here(ARG0) . "ranges.gp"
plot for [k = 1:n] data index idx(k) \
	using x:(ymed(0)):(ylo(0)):(yhi(0)) with yerrorlines lw 1.6 dt dash(k) pt 7 ps 0.6 \
	lc rgb shade(mode, tone(k)) \
	title sprintf("commsize %s", word(S_commsize, k)) . label(spaces(word(S_label, k))), \
	for [k = 1:nl] data index idxl(k) using x:y noautoscale \
	with linespoints dt 2 lw 1.2 pt 6 ps 0.6 lc rgb "#888888" \
	title "commsize 1, local copy (off scale)" . label(spaces(word(L_label, k))) @bounds
