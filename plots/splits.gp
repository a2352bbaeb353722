# plots/splits.gp: time per call versus the split (aller --split) at one
# message size: the splits on the x axis in the order they were run, one
# curve per algorithm (mean, bars min..max), and each point's imbalance (the
# busiest task's bytes / the mean task's) on the right axis.
# gnuplot -c splits.gp DATA OUT FORMAT TITLE SUBTITLE SETS BYTES ORDER
# SETS: a file of data sets by name (common.gp): index algo split label algo_index;
# BYTES: the bytes per peer of the row each data set contributes;
# ORDER: the splits, space-separated, in the order of the x axis.
sets = ARG6
bytes = int(ARG7)
order = ARG8
wanted = "bytes_per_peer tavg_s tmin_s tmax_s imbalance"
call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
set xlabel "split (--split), in the order run"
set ylabel "time per call, seconds (mean; bars: min..max over tasks and calls)"
set y2label "imbalance: busiest task's bytes / the mean task's"
set logscale y 10
set format y "%g"
set ytics nomirror
set y2tics
set y2range [0:*]
set xrange [0.5:words(order) + 0.5]
set offsets 0, 0, graph 0.05, graph 0.05
set xtics (word(order, 1) 1)
do for [i = 2:words(order)] { set xtics add (word(order, i) i) }
set xtics rotate by -25 font small noenhanced
n = sets_n(sets); S_index = sets_col(sets, "index"); S_algo = sets_col(sets, "algo")
S_ai = sets_col(sets, "algo_index")
S_split = sets_col(sets, "split")
idx(k) = int(word(S_index, k))
# the split's place on the x axis; algorithms side by side around it
place(k) = sum [i = 1:words(order)] (word(order, i) eq word(S_split, k) ? i : 0)
algos = ""
do for [k = 1:n] { if (!strstrt(" " . algos . " ", " " . word(S_algo, k) . " ")) { algos = algos . (algos eq "" ? "" : " ") . word(S_algo, k) } }
shift(k) = (sum [a = 1:words(algos)] (word(algos, a) eq word(S_algo, k) ? a : 0) - (words(algos) + 1) / 2.0) * 0.12
# (not x: in a using expression it is the dummy variable)
c_b = col("bytes_per_peer"); c_t = col("tavg_s"); c_lo = col("tmin_s"); c_hi = col("tmax_s")
c_im = col("imbalance")
at(v) = column(c_b) == bytes ? v : NaN
# one legend entry per algorithm: its first data set
first(k) = (sum [j = 1:k] (word(S_algo, j) eq word(S_algo, k) ? 1 : 0)) == 1
plot for [k = 1:n] data index idx(k) \
	using (place(k) + shift(k)):(at(column(c_t))):(at(column(c_lo))):(at(column(c_hi))) \
	with yerrorbars pt 7 ps 1.2 lw 1.6 lc rgb algo_color(word(S_ai, k)) \
	title (first(k) ? word(S_algo, k) . ": time" : ""), \
     for [k = 1:n] data index idx(k) \
	using (place(k) + shift(k)):(at(column(c_im))) axes x1y2 \
	with points pt 6 ps 1.6 lw 1.4 lc rgb algo_color(word(S_ai, k)) \
	title (first(k) ? word(S_algo, k) . ": imbalance" : "")
