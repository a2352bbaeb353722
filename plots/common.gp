# plots/common.gp: the one prologue of every plot: its arguments, terminal,
# styles, labels and column names. A script is run as
#   gnuplot -c SCRIPT DATA OUT FORMAT TITLE SUBTITLE [ITS OWN ...]
# from the plots directory (plots/lib.sh, gnuplot_render: so `call
# "common.gp"` is this file, never one in the caller's directory); it sets
# wanted (the names of the columns it uses), then runs this file first:
#   call "common.gp" ARG1 ARG2 ARG3 ARG4 ARG5
# (call: a loaded file sees no ARGn; what this file defines is global).
data = ARG1
out = ARG2
fmt = ARG3
# The canvas: 1100 x 680, and 22 px taller for each row of the key past 4
# (canvas(ROWS), which ranges.gp runs again before the plot with its key's
# rows), so a tall key never squeezes the plot under its axis labels. The report
# shows an SVG at its own size in a 1400 px window (report-head.html): its
# fonts, 13 and the tics' 12 (small), are the pixels a reader sees.
small = fmt eq "svg" ? ",12" : ",10"
canvas(rows) = sprintf(fmt eq "svg" ? \
	"set terminal svg size 1100,%d dynamic enhanced font \"Sans,13\" background \"white\"" : fmt eq "pdf" ? \
	"set terminal pdfcairo size 11in,%gin enhanced font \"Sans,11\"" : \
	"set terminal pngcairo size 1100,%d enhanced font \"Sans,11\" background \"white\"", \
	fmt eq "pdf" ? 6.8 + 0.22 * (rows > 4 ? rows - 4 : 0) : 680 + 22 * (rows > 4 ? rows - 4 : 0))
eval canvas(0)
set output out
set title ARG4 . "\n" . ARG5 noenhanced
set grid xtics ytics lc rgb "#dddddd"
set border lc rgb "#444444"
# the legend under the plot, in columns: the plot keeps the width (a long
# series label at the right would squeeze it into half the picture)
set key outside below center horizontal Left reverse noenhanced samplen 2.5 spacing 1.1 maxcols 3 width 2
set datafile missing "NaN"
set datafile commentschars "#"
# keep points off the frame
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05

# A file name as one word of a shell command, passed as data: in single
# quotes, each ' as '\'', "./" before a relative name (never an option, nor
# an awk assignment). Only file names reach system() below, and only so.
unquote(s) = strstrt(s, "'") ? s[1:strstrt(s, "'") - 1] . "'\\''" . unquote(s[strstrt(s, "'") + 1:]) : s
shpath(s) = "'" . (s[1:1] eq "/" ? "" : "./") . unquote(s) . "'"

# Columns by name, from the data file's "# columns:" line (common/merged.c
# writes it), never by number: a column the file lacks stops the plot with a
# message and exit status 3.
columns = system("sed -n '/^# columns: /{s///p;q}' " . shpath(data))
col(name) = sum [i = 1:words(columns)] (word(columns, i) eq name ? i : 0)
do for [name in wanted] {
	if (col(name) == 0) {
		print sprintf("'%s' has no column '%s' (its columns: %s)", data, name, columns)
		exit status 3
	}
}

# A mode keeps its colour in every plot: contiguous blue, strided orange;
# communicator sizes are shades of it, alternating dark and light.
contiguous_shades = "#08306b #6baed6 #2171b5 #9ecae1 #08519c #4292c6 #3182bd #c6dbef"
strided_shades = "#7f2704 #fdae6b #d94801 #fd8d3c #a63603 #f16913 #e6550d #fdd0a2"
mode_color(m) = m eq "strided" ? "#d94801" : "#2171b5"
shade(m, i) = word(m eq "strided" ? strided_shades : contiguous_shades, (i - 1) % 8 + 1)

# An algorithm keeps its colour in every plot: by its place in format.h's
# list (sets.tsv's algo_index), cycling should the list outgrow the palette.
algo_palette = "#2171b5 #6a51a3 #238b45 #d94801 #cb181d #525252 #8c6d31 #17becf"
algo_color(i) = word(algo_palette, int(i) % words(algo_palette) + 1)

# Binary-prefix labels for an axis in bytes: 1 B, 4 B, ..., 1 KiB, ...
bytes_label(e) = e < 10 ? sprintf("%d B", 2**e) : e < 20 ? sprintf("%d KiB", 2**(e - 10)) : \
	e < 30 ? sprintf("%d MiB", 2**(e - 20)) : e < 40 ? sprintf("%d GiB", 2**(e - 30)) : \
	sprintf("%d TiB", 2**(e - 40))

# The plot's data sets, by name: a file (collect --plots' plotsets/) of one
# data set per line, tab-separated, its first line naming the columns.
# sets_n(f): how many; sets_col(f, name): that column's values, one word
# each (word(.., k) is data set k's), an empty value "-", a space "~"
# (spaces() gives it back: "64~KiB"); nth(c, k): how many of words 1..k of c
# equal word k (a mode's k-th set takes its k-th shade).
sets_n(f) = int(system("awk 'END { print NR ? NR - 1 : 0 }' " . shpath(f)))
sets_col(f, name) = system(sprintf("awk -F'\t' -v n='%s' 'NR == 1 { for (i = 1; i <= NF; i++) \
	if ($i == n) c = i; next } { v = c ? $c : \"\"; gsub(/ /, \"~\", v); \
	printf \"%%s%%s\", (NR > 2 ? \" \" : \"\"), (v == \"\" ? \"-\" : v) }' ", name) . shpath(f))
spaces(s) = strstrt(s, "~") ? s[1:strstrt(s, "~") - 1] . " " . spaces(s[strstrt(s, "~") + 1:]) : s
nth(c, k) = sum [j = 1:k] (word(c, j) eq word(c, k) ? 1 : 0)
# A legend's series label: ", t2-L8192-bruck-s1", or nothing for "-".
label(l) = l eq "-" || l eq "" ? "" : ", " . l
