# plots/page.sh: the report page's pieces (report.sh): HTML escaping, tables,
# the findings, embedded SVG plots made small. After
# sh/toolkit.sh (table_select).
# shellcheck shell=bash

esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'; }

# table CLASS HEADER...: rows from stdin, tab-separated, as an HTML table.
table() {
	local class=$1 h
	shift
	printf '<table class="%s"><thead><tr>' "$class"
	for h in "$@"; do printf '<th>%s</th>' "$h"; done
	printf '</tr></thead><tbody>\n'
	esc | awk -F'\t' '{ printf "<tr>"; for (i = 1; i <= NF; i++) printf "<td>%s</td>", $i; print "</tr>" }'
	printf '</tbody></table>\n'
}

# svg_slim SVG: gnuplot's SVG at half its size: coordinates to whole pixels
# (at 1100 x 680, invisibly), colours as #rrggbb, empty groups, default and
# inherited attributes gone; then escaped for a data: URL (% # " newlines).
svg_slim() {
	perl -0777 -pe '
		s{(\b(?:d|points)=\x27[^\x27]*\x27)}{ (my $a = $1) =~ s/(\d)\.\d+/$1/g; $a =~ s/\s+/ /g; $a }ge;
		s{\b(x|y|cx|cy)=\x27(-?\d+)\.\d+\x27}{$1=\x27$2\x27}g;
		s{translate\((-?\d+)\.\d+,(-?\d+)\.\d+\)}{translate($1,$2)}g;
		1 while s{<g [^>]*>\s*</g>}{}g;
		s/ stroke-linecap="butt" stroke-linejoin="miter"//g;
		s{rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)}{sprintf("#%02x%02x%02x", $1, $2, $3)}ge;
		s{<tspan font-family="Sans" >}{<tspan>}g; s{<(title|desc)>[^<]*</\1>}{}g;
		s/\n\s+/\n/g; s/\n+/\n/g;
		s/%/%25/g; s/#/%23/g; s/"/%22/g; s/\n/%0A/g' "$1"
}

# figure SVG|PNG: the plot embedded, its file name as caption.
figure() {
	local name
	name=$(basename "$1" | esc)   # a file name is data: escaped where HTML is written
	case $1 in
	*.svg) printf '<figure><img alt="%s" src="data:image/svg+xml;charset=utf-8,%s">' "$name" "$(svg_slim "$1")" ;;
	*) printf '<figure><img alt="%s" src="data:image/png;base64,%s">' "$name" "$(base64 -w0 "$1")" ;;
	esac
	printf '<figcaption>%s</figcaption></figure>\n' "${name%.*}"
}

# findings_items: each finding on stdin (its severity, kind and text, as
# table_select gives findings.tsv's columns) as a list item.
findings_items() {
	local sev text
	while IFS=$'\t' read -r sev _ text _; do
		printf '<li class="%s"><span class="sev">%s</span> %s</li>\n' "$sev" "$sev" "$(esc <<<"$text")"
	done
}

# findings TSV [EXTRA]: the verdict (its first row) as a box, then EXTRA
# (list items: the comparison's, the stragglers'), then the findings the
# collector ranks first as sentences (findings.tsv's rank and shown: the
# rule is collect/judge/findings_rank.c's), the rest a table one click away.
findings() {
	local sev text ranked rest
	[ -s "$1" ] || { printf '<p>No findings (merged/findings.tsv is missing).</p>\n'; return; }
	IFS=$'\t' read -r sev text < <(table_select "$1" severity text | head -n 1)
	printf '<p class="verdict %s">%s</p>\n' "$sev" "$(esc <<<"$text")"
	ranked=$(table_select "$1" rank shown severity kind text points | sed 1d | sort -n | cut -f2-)
	printf '<ul class="findings">\n%s' "${2:-}"
	sed -n 's/^sentence\t//p' <<<"$ranked" | findings_items
	printf '</ul>\n'
	rest=$(sed -n 's/^table\t//p' <<<"$ranked")
	[ -n "$rest" ] || return 0
	printf '<details id="more-findings"><summary>%d more findings</summary>\n' "$(wc -l <<<"$rest")"
	table findings severity kind finding points <<<"$rest"
	printf '</details>\n'
}

# stragglers SAMPLESDIR...: per point's --samples directory (SAMPLES=1), one
# finding (collect --samples --finding): its slow calls, the late tasks'
# most frequent host (a notice when it is a straggling host of the point's calls).
stragglers() {
	local d
	for d in "$@"; do "$(find_tool collect)" --samples --finding "$d" 2>/dev/null || true; done | findings_items
}
