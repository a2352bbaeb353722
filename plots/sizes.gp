# plots/sizes.gp: bandwidth or time per call versus message size (KIND), one
# curve per communicator size; one (nodes, mode) per plot. Each point is the
# median call's, its bar the median's 95% interval (tmed_lo..tmed_hi; an
# output without them: the mean and min..max), and under it, dashed and thin
# in its colour, what the fabric allows it (collect's bound_s, where the
# point's fabric is known): the most bandwidth, the least time; the key
# gives each curve's share of it at the largest size that has one.
# The commsize-1 level (a local copy) is dashed and does not set the scale.
# Several labels (algorithms, splits, series, placements): a commsize keeps
# its shade, each label its own dash pattern (the first solid).
# gnuplot -c sizes.gp DATA OUT FORMAT TITLE SUBTITLE MODE SETS LOCAL KIND
# SETS, LOCAL: files of data sets by name (common.gp): index commsize label
# (label: what the legend names, or "-"); KIND: bandwidth (per-task GiB/s,
# bwavg's bytes over the call's time) or latency (us per call).
mode = ARG6
sets = ARG7
local = ARG8
bw_kind = ARG9 ne "latency"
wanted = "bytes_per_peer tavg_s tmed_s tmed_lo_s tmed_hi_s bound_s " . \
	(bw_kind ? "bwavg_GiBs bwmin_GiBs bwmax_GiBs" : "tmin_s tmax_s")
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "bytes per peer (log_2)"
# (two short lines: one long line outgrew the plot's height and was cut)
set ylabel (bw_kind ? "per-task bandwidth, GiB/s (in + out)" : "time per call, us") . \
	"\nthe median call; bars: its 95% interval"
set logscale x 2
set logscale y 10
set format y "%g"
set xtics ()   # (only the labels below: an automatic tic would read "2.09715x10^6")
do for [e = 0:40:2] { set xtics add (bytes_label(e) 2**e) }
set xtics rotate by -35 font small
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
x = col("bytes_per_peer"); T = col("tavg_s"); M = col("tmed_s"); ML = col("tmed_lo_s"); MH = col("tmed_hi_s")
BD = col("bound_s")
# a time as the plot shows it: the row's bandwidth (bwavg is its bytes / tavg), or
# microseconds; NaN where unknown
ok(c) = valid(c) && column(c) > 0   # (a NaN column referenced makes the point missing: valid first)
# (val: a column of the plot's own unit as it is shown; the bars' ends: the
# interval's end that is the bar's low end, its high end; lo, hi the older
# outputs' range)
if (bw_kind) {
	y = col("bwavg_GiBs"); lo = col("bwmin_GiBs"); hi = col("bwmax_GiBs")
	shown(c) = ok(c) && ok(T) ? column(y) * column(T) / column(c) : NaN
	val(c) = column(c)
	low_end = MH; high_end = ML
} else {
	y = T; lo = col("tmin_s"); hi = col("tmax_s"); yscale = 1e6
	shown(c) = ok(c) ? yscale * column(c) : NaN
	val(c) = yscale * column(c)
	low_end = ML; high_end = MH
}
ymed(d) = ok(M) ? shown(M) : shown(T)
ylo(d) = ok(M) && ok(low_end) ? shown(low_end) : val(lo)
yhi(d) = ok(M) && ok(high_end) ? shown(high_end) : val(hi)
# the gnuplot indices of the data sets with a bound (a set without one would warn); i counts
# the data sets from 0 (awk's unset i is "", which no set's index "0" matches)
bounded = system(sprintf("awk 'BEGIN { i = 0 } /^$/ { b++; next } { if (b >= 2) i++; b = 0 } !/^#/ && $%d + 0 > 0 { ok[i] = 1 } \
	END { for (k in ok) printf \"%%d \", k }' ", BD) . shpath(data))
has_bound(k) = strstrt(" " . bounded, sprintf(" %d ", idx(k))) > 0
bk = ""
do for [k = 1:n] { if (has_bound(k)) { bk = bk . sprintf(" %d", k) } }
bkk(j) = int(word(bk, j))
# each data set's share of its bound at its largest size with one (bound_s / tmed_s, in %)
# and the link that sets it there (points.csv's bottleneck, beside DATA, of the set's row
# in sets.tsv: its point, algorithm, split, comms and commsize), as the key says it:
# "95% of its bound (the uplink of leaf1)", "5% of its bound (the memory of n1)"; "-" none.
# The data sets counted from 0, as gnuplot's index; a space is "~" (spaces()).
shares = system(sprintf("awk -v bd=%d -v m=%d -v x=%d 'BEGIN { i = 0; d = p = ARGV[1]; sub(\".*/\", \"\", d); \
	sub(\"[^/]*$\", \"\", p); if ((getline l < (p \"sets.tsv\")) > 0) { n = split(l, h, \"\\t\"); for (j = 1; j <= n; j++) c[h[j]] = j } \
	while ((getline l < (p \"sets.tsv\")) > 0) { split(l, f, \"\\t\"); if (f[c[\"file\"]] == d) k[f[c[\"index\"]]] = \
		f[c[\"point\"]] SUBSEP f[c[\"algo\"]] SUBSEP f[c[\"split\"]] SUBSEP f[c[\"comms\"]] SUBSEP f[c[\"commsize\"]] } \
	if ((getline l < (p \"points.csv\")) > 0) { n = split(l, h, \",\"); for (j = 1; j <= n; j++) q[h[j]] = j } \
	while (q[\"bottleneck\"] && (getline l < (p \"points.csv\")) > 0) { split(l, f, \",\"); by[f[q[\"point\"]], \
		f[q[\"algo\"]], f[q[\"split\"]], f[q[\"comms\"]], f[q[\"commsize\"]], f[q[\"bytes_per_peer\"]] + 0] = f[q[\"bottleneck\"]] } } \
	/^$/ { b++; next } { if (b >= 2) i++; b = 0 } \
	!/^#/ && $bd + 0 > 0 && $m + 0 > 0 && $x + 0 >= X[i] { X[i] = $x + 0; s[i] = $bd / $m; w[i] = by[k[i], $x + 0] } \
	END { for (j = 0; j <= i; j++) { t = w[j]; sub(\"[(].*\", \"\", t); l = t; sub(\":.*\", \"\", l); sub(\"^[^:]*:\", \"\", t); \
		l = l == \"copy\" ? \"the memory of \" : l == \"nic\" ? \"the NIC of \" : l == \"up\" ? \"the uplink of \" : \
			l == \"gpu\" ? \"the GPU links of \" : l \":\"; t = t == \"\" ? \"\" : \" (\" l t \")\"; \
		u = (j in s) ? sprintf(\"%%.0f%%%% of its bound%%s\", 100 * s[j], t) : \"-\"; gsub(\" \", \"~\", u); \
		printf \"%%s \", u } }' ", BD, M, x) . shpath(data))
share(k) = word(shares, idx(k) + 1) eq "-" || word(shares, idx(k) + 1) eq "" ? "" : \
	": " . spaces(word(shares, idx(k) + 1))
# (a macro: gnuplot plots an empty iteration's first data set all the same)
bounds = words(bk) == 0 ? "" : ", for [j = 1:words(bk)] data index idx(bkk(j)) using x:(shown(BD)) " . \
	"with lines lw 0.9 dt (6, 4) lc rgb shade(mode, tone(bkk(j))) " . \
	"title (j == 1 ? \"dashed: what the fabric allows it (%: the share reached at the largest size)\" : \"\")"
key_rows = n + nl + (words(bk) > 0)   # (its entries are long: a column)
load "ranges.gp"
plot for [k = 1:n] data index idx(k) \
	using x:(ymed(0)):(ylo(0)):(yhi(0)) with yerrorlines lw 1.6 dt dash(k) pt 7 ps 0.6 \
	lc rgb shade(mode, tone(k)) \
	title sprintf("commsize %s", word(S_commsize, k)) . label(spaces(word(S_label, k))) . share(k), \
	for [k = 1:nl] data index idxl(k) using x:(shown(T)) noautoscale \
	with linespoints dt 2 lw 1.2 pt 6 ps 0.6 lc rgb "#888888" \
	title "commsize 1, local copy (off scale)" . label(spaces(word(L_label, k))) @bounds
