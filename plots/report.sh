#!/usr/bin/env bash
# plots/report.sh CAMPAIGN=name [BASE=name] [TOL=5%] [RESULTS=dir] (make report):
# writes RESULTS/<campaign>/report.html, one static page that needs nothing
# else (no external resources, no JavaScript; the plots are embedded): the
# campaign's settings and provenance (MPI library, hosts, jobs), the status
# of every point, the collector's summary, every plot and, with BASE, the
# comparison with that campaign (table and ratio plots). Prints the page's path.
# Exit status: 0 written, 2 bad input (unknown campaign), 3 a tool failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/../campaigns/lib.sh"
# shellcheck source=campaigns/manifest.sh
. "$here/../campaigns/manifest.sh"
# shellcheck source=plots/lib.sh
. "$here/lib.sh"
script_options aller-report "usage: aller-report CAMPAIGN=name [BASE=name] [TOL=5%] [RESULTS=dir]" "$@"
die() { printf 'report: error: %s\n' "$1" >&2; exit "${2:-2}"; }

args=() base=${CAMPAIGN_ARG_BASE:-} tol=${CAMPAIGN_ARG_TOL:-5%}
for a in "$@"; do
	case $a in
	BASE=*) base=${a#BASE=} ;;
	TOL=*) tol=${a#TOL=} ;;
	*) args+=("$a") ;;
	esac
done
locate_campaign "${args[@]}"
[ -f "$DIR/manifest" ] || die "no campaign '$CAMPAIGN' in $RESULTS (no $DIR/manifest)"
[ -z "$base" ] || [ -d "$RESULTS/$base/raw" ] || die "no campaign '$base' in $RESULTS (no $RESULTS/$base/raw)"
manifest_read "$DIR/manifest"
facts=$DIR/merged/facts.tsv   # what the collector read of each point (MPI, hosts, links)

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
# figure PNG: the plot embedded, its file name as caption.
figure() {
	printf '<figure><img alt="%s" src="data:image/png;base64,%s"><figcaption>%s</figcaption></figure>\n' \
		"$(basename "$1")" "$(base64 -w0 "$1")" "$(basename "$1" .png)"
}

# The plots (PNG), the status of each point, the comparison.
plots=$(bash "$here/plot.sh" --campaign-dir "$DIR" --format png 2>"$DIR/plots.log") ||
	[ $? -eq 3 ] || die "the plots failed (see $DIR/plots.log)" 3
# (status.sh reads the campaign's manifest, not make's other settings)
status=$(unset "${!CAMPAIGN_ARG_@}"
	bash "$here/../campaigns/status.sh" --tsv "CAMPAIGN=$CAMPAIGN" "RESULTS=$RESULTS" 2>"$DIR/status.log") || true
cmpdir=""
if [ -n "$base" ]; then
	cmpdir=$RESULTS/compare-$base-vs-$CAMPAIGN
	rc=0
	bash "$here/compare.sh" "BASE=$base" "NEW=$CAMPAIGN" "TOL=$tol" "RESULTS=$RESULTS" FORMAT=png \
		>/dev/null 2>"$DIR/compare.log" || rc=$?
	[ "$rc" -le 1 ] || die "the comparison failed: $(tail -n 1 "$DIR/compare.log")" "$rc"
fi

page() {
	cat <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<style>
body { font-family: sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.9em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
th { background: #eef2f7; }
tr.complete td:last-child { color: #1a7f37; } tr.missing td:last-child, tr.failed td:last-child { color: #b42318; }
pre { background: #f6f8fa; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
figure { display: inline-block; margin: 0.5em; width: 48%; } figure img { width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.85em; color: #555; text-align: center; }
</style>
EOF
	printf '<title>aller report: %s</title></head><body>\n' "$(esc <<<"$CAMPAIGN")"
	printf '<h1>aller report: %s</h1>\n' "$(esc <<<"$CAMPAIGN")"
	printf '<p>Written %s by %s from %s.</p>\n' "$(date -u +%FT%TZ)" "$(toolkit_version | esc)" "$(esc <<<"$DIR")"

	printf '<h2 id="summary">Summary</h2>\n<pre>%s</pre>\n' "$(head -n 4 "$DIR/merged/summary.txt" 2>/dev/null | esc)"
	failed=$(grep -F ': data set failed, no rows: ' "$DIR/merged/summary.txt" 2>/dev/null || true)
	[ -z "$failed" ] || printf '<h2 id="failed">Failed data sets</h2>\n<pre>%s</pre>\n' "$(esc <<<"$failed")"
	printf '<h2 id="settings">Settings</h2>\n'
	{
		for k in "${!M_SETTING[@]}"; do printf '%s\t%s\n' "$k" "${M_SETTING[$k]}"; done
		# what the points measure with, per series ("LONGS (series 2)" from the second on)
		for k in "${!M_SERIES[@]}"; do
			s=${k%%,*}
			printf '%s%s\t%s\n' "${k#*,}" "$([ "$s" = 1 ] || echo " (series $s)")" "${M_SERIES[$k]}"
		done
	} | sort | table settings setting value
	printf '<h2 id="provenance">Provenance</h2>\n'
	{
		printf 'MPI library\t%s\n' "$(point_facts "$facts" "" mpi | sort -u | paste -sd';')"
		printf 'hosts\t%s\n' "$(point_facts "$facts" "" host | sed 's/ .*//' | sort -u | paste -sd' ')"
		# the hosts by their leaf switch, where Slurm knows the topology (the jobs' '# node_switch:')
		switches=$(point_facts "$facts" "" node_switch | sort -u -k2,2 -k1,1V |
			awk '$2 != sw { printf "%s%s:", (sw == "" ? "" : "; "), $2; sw = $2 } { printf " %s", $1 }')
		[ -z "$switches" ] || printf 'hosts by switch\t%s\n' "$switches"
		printf 'jobs\t%s\n' "$(printf '%s\n' "${M_POINT_JOB[@]}" | sort -un | paste -sd' ')"
		printf 'toolkit\t%s\n' "$(sed -n 's/^submission .* toolkit=//p' "$DIR/manifest" | sort -u | paste -sd';')"
	} | table provenance what value
	printf '<h2 id="status">Status</h2>\n'
	tail -n +2 <<<"$status" |
		table status point job state exit elapsed nodelist tries output |
		awk '/^<tr>/ { s = $0; sub(/.*<td>/, "", s); sub(/[ <].*/, "", s); sub(/^<tr>/, "<tr class=\"" s "\">") } { print }'
	[ ! -s "$DIR/status.log" ] || printf '<pre>%s</pre>\n' "$(esc <"$DIR/status.log")"
	# aller --pairs points: each one's slow links (merged/pairs.tsv names the points)
	if [ "$(wc -l <"$DIR/merged/pairs.tsv" 2>/dev/null || echo 0)" -gt 1 ]; then
		printf '<h2 id="links">Slow links (aller --pairs)</h2>\n'
		tail -n +2 "$DIR/merged/pairs.tsv" | while IFS=$'\t' read -r f nodes state point; do
			printf '<h3>%s (%s nodes, %s)</h3>\n<pre>%s</pre>\n' "$(basename "$f" | esc)" \
				"$nodes" "$state" "$(point_facts "$facts" "$point" slow_link slow_links | esc)"
		done
	fi
	# aller --samples (SAMPLES=1): each point's slow calls, classified by the collector
	if compgen -G "$DIR/samples/*/samples-*.txt" >/dev/null; then
		printf '<h2 id="samples">Slow calls (SAMPLES=1)</h2>\n'
		for d in "$DIR"/samples/*/; do
			printf '<h3>%s</h3>\n<pre>%s</pre>\n' "$(basename "$d" | esc)" \
				"$("$(find_tool collect)" --samples "$d" 2>&1 | esc)"
		done
	fi
	if [ -n "$cmpdir" ]; then
		printf '<h2 id="comparison">Comparison with %s</h2>\n' "$(esc <<<"$base")"
		printf '<pre>%s</pre>\n' "$(esc <"$cmpdir/compare.txt")"
		for p in "$cmpdir"/plots/ratio-*.png; do [ -e "$p" ] && figure "$p"; done
	fi
	printf '<h2 id="plots">Plots</h2>\n'
	while read -r p; do
		case $p in *.png) figure "$p" ;; esac
	done <<<"$plots"
	printf '</body></html>\n'
}

# whole or not at all: the page's last write fails on a full disk too
out=$DIR/report.html tmp=$DIR/report.html.tmp.$$
trap 'rm -f "$tmp"' EXIT
if ! page >"$tmp" || ! mv "$tmp" "$out"; then
	die "cannot write '$out' (a full disk?): the old page, if any, is left as it was" 3
fi
printf '%s\n' "$out"
