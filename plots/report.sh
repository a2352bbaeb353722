#!/usr/bin/env bash
# plots/report.sh CAMPAIGN=name [BASE=name | EXPECTED=simulated] [TOL=5%] [RESULTS=dir] (make report):
# writes RESULTS/<campaign>/report.html, one static page that needs nothing
# else (no external resources, no JavaScript; the plots are embedded SVG):
# first the verdict and the findings (the collector's merged/findings.tsv)
# and the plots they cite, then the status of every point, the comparison
# with BASE (table and ratio plots) or with what the fabric should give
# (EXPECTED: a simulated campaign of the same settings, its bandwidth dashed
# beside the measured, the rows that fall short), and, a click away, every other plot, the
# settings that were set (the defaults folded), the provenance (MPI library,
# hosts, jobs) and the collector's summary. Prints the page's path. Only the
# plots whose inputs changed are drawn again (plots/lib.sh's plot_rows), and
# the page is kept as it is while nothing it shows changes (.report.inputs).
# Exit status: 0 written, 2 bad input (unknown campaign; an EXPECTED that is
# not a simulated campaign beside a measured CAMPAIGN, or one with BASE), 3 a tool failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=campaigns/lib.sh
. "$here/../campaigns/lib.sh"
# shellcheck source=campaigns/manifest.sh
. "$here/../campaigns/manifest.sh"
# shellcheck source=plots/lib.sh
. "$here/lib.sh"
# shellcheck source=plots/page.sh
. "$here/page.sh"
script_options aller-report "usage: aller-report CAMPAIGN=name [BASE=name | EXPECTED=simulated] [TOL=5%] [RESULTS=dir]" "$@"

tool_args --campaign "BASE EXPECTED TOL" "$@"
# shellcheck disable=SC2153 # tool_args sets them
base=${EXPECTED:-$BASE} tol=$TOL
locate_campaign "${REST_ARGS[@]}"
[ -f "$DIR/manifest" ] || die "no campaign '$CAMPAIGN' in $RESULTS (no $DIR/manifest)"
[ -z "$base" ] || [ -d "$RESULTS/$base/raw" ] || die "no campaign '$base' in $RESULTS (no $RESULTS/$base/raw)"
# EXPECTED: what a measured CAMPAIGN's fabric should give, a simulated campaign (its manifest says so), never with BASE
[ -z "$EXPECTED" ] || { [ -z "$BASE" ] && [ -f "$RESULTS/$base/manifest" ] && grep -q '^simulated ' "$RESULTS/$base/manifest" && ! grep -q '^simulated ' "$DIR/manifest"; } ||
	die "invalid EXPECTED '$base' with CAMPAIGN '$CAMPAIGN'$([ -z "$BASE" ] || echo " and BASE '$BASE'"): allowed is a simulated campaign (make simulate, its manifest says so) beside a measured CAMPAIGN, and no BASE with it"
manifest_read "$DIR/manifest"
facts=$DIR/merged/facts.tsv   # what the collector read of each point (MPI, hosts, links)

# The plots (SVG), the status of each point, the comparison. Their messages
# go through TMPDIR (a full RESULTS still says why) into DIR's logs. No plot
# at all (every point failed, nothing merged) is said on the page.
err=$(mktemp) settings=$(mktemp) rc=0
trap 'rm -f "$err" "$settings"' EXIT
plots=$(bash "$here/plot.sh" --campaign-dir "$DIR" --format svg 2>"$err") || rc=$?
write_file "$DIR/plots.log" cat "$err"
[ "$rc" -le 3 ] || die "the plots failed: $(tail -n 1 "$err")" 3
[ "$rc" = 0 ] && noplots="" || noplots="No plot could be drawn: $(grep -m 1 'error: ' "$err" || tail -n 1 "$err")"
# (status.sh reads the campaign's manifest, not make's other settings)
status=$(unset "${!CAMPAIGN_ARG_@}"
	bash "$here/../campaigns/status.sh" --tsv "CAMPAIGN=$CAMPAIGN" "RESULTS=$RESULTS" 2>"$err") || true
write_file "$DIR/status.log" cat "$err"
cmpdir=${base:+$RESULTS/compare-$base-vs-$CAMPAIGN}
if [ -n "$base" ]; then
	rc=0
	bash "$here/compare.sh" "BASE=$base" "NEW=$CAMPAIGN" "TOL=$tol" "RESULTS=$RESULTS" FORMAT=svg \
		>/dev/null 2>"$err" || rc=$?
	write_file "$DIR/compare.log" cat "$err"
	[ "$rc" -le 1 ] || die "the comparison failed: $(tail -n 1 "$err")" "$rc"
fi

page() {
	cat "$here/report-head.html"   # the page's head and style, as they are
	printf '<title>aller report: %s</title></head><body>\n' "$(esc <<<"$CAMPAIGN")"
	printf '<h1>aller report: %s</h1>\n' "$(esc <<<"$CAMPAIGN")"
	printf '<p>Written %s by %s from %s.</p>\n' "$(date -u +%FT%TZ)" "$(toolkit_version | esc)" "$(esc <<<"$DIR")"
	printf '<h2 id="findings">Findings</h2>\n'
	findings "$DIR/merged/findings.tsv" "$([ ! -s "$cmpdir/findings.tsv" ] || table_select "$cmpdir/findings.tsv" severity kind text | findings_items)$(
		! compgen -G "$DIR/samples/*/samples-*.txt" >/dev/null || stragglers "$DIR"/samples/*/)"
	failed=$(grep -F ': data set failed, no rows: ' "$DIR/merged/summary.txt" 2>/dev/null || true)
	[ -z "$failed" ] || printf '<h2 id="failed">Failed data sets</h2>\n<pre>%s</pre>\n' "$(esc <<<"$failed")"
	printf '<h2 id="plots">Plots</h2>\n'
	[ -z "$noplots" ] || printf '<p>%s</p>\n' "$(esc <<<"$noplots")"
	sed -n 's/^lead //p' <<<"$ranked" | while read -r p; do figure "$p"; done
	printf '<h2 id="status">Status</h2>\n'
	tail -n +2 <<<"$status" |
		table status point job state exit elapsed nodelist tries output |
		awk '/^<tr>/ { s = $0; sub(/.*<td>/, "", s); sub(/[ <].*/, "", s); sub(/^<tr>/, "<tr class=\"" s "\">") } { print }'
	[ ! -s "$DIR/status.log" ] || printf '<pre>%s</pre>\n' "$(esc <"$DIR/status.log")"
	details
	if [ -n "$cmpdir" ]; then
		printf '<h2 id="comparison">%s %s</h2>\n' "$([ -n "$EXPECTED" ] && echo 'Expected (simulated):' || echo 'Comparison with')" "$(esc <<<"$base")"
		printf '<pre>%s</pre>\n' "$(esc <"$cmpdir/compare.txt")"
		for p in "$cmpdir"/plots/{expected,ratio}-*.svg; do [ -e "$p" ] && figure "$p"; done
	fi
	printf '<details id="more"><summary>%s more plots</summary>\n' "$(grep -c '^more ' <<<"$ranked" || true)"
	sed -n 's/^more //p' <<<"$ranked" | while read -r p; do figure "$p"; done
	printf '</details>\n</body></html>\n'
}

# The settings that were set (the rest folded), provenance, the collector's
# summary, slow links and slow calls.
details() {
	printf '<details id="settings"><summary>Settings</summary>\n'
	{
		for k in "${!M_SETTING[@]}"; do printf '%s\t%s\n' "$k" "${M_SETTING[$k]}"; done
		# what the points measure with, per series ("LONGS (series 2)" from the second on)
		for k in "${!M_SERIES[@]}"; do
			s=${k%%,*}
			printf '%s%s\t%s\n' "${k#*,}" "$([ "$s" = 1 ] || echo " (series $s)")" "${M_SERIES[$k]}"
		done
	} | sort >"$settings"
	awk -F'\t' '$2 != "" && $2 != "-"' "$settings" | table settings setting value
	printf '<p>At their defaults: %s.</p>\n' "$(awk -F'\t' '$2 == "" || $2 == "-" { print $1 }' "$settings" |
		paste -sd' ' | sed 's/ /, /g' | esc)"
	printf '</details>\n<details id="provenance"><summary>Provenance</summary>\n'
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
	printf '</details>\n<details id="summary" open><summary>Collected</summary>\n'
	head -n 4 "$DIR/merged/summary.txt" 2>/dev/null | sed 's/^collect: //; s/ /\t/' | table summary count what
	printf '</details>\n'
	# aller --pairs points: each one's slow links (merged/pairs.tsv names the points)
	if [ "$({ wc -l <"$DIR/merged/pairs.tsv"; } 2>/dev/null || echo 0)" -gt 1 ]; then
		printf '<h2 id="links">Slow links (aller --pairs)</h2>\n'
		table_select "$DIR/merged/pairs.tsv" file nodes state point | while IFS=$'\t' read -r f nodes state point; do
			f=$(printf '%b' "$f")   # the collector's escapes: a tab or newline in a name
			printf '<h3>%s (%s nodes, %s)</h3>\n<pre>%s</pre>\n' "$(basename "$f" | esc)" \
				"$(esc <<<"$nodes")" "$(esc <<<"$state")" "$(point_facts "$facts" "$point" slow_link slow_links | esc)"
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
}

# the plots the findings cite lead (collect --plots' lead column); the rest one click away
lead=" $( [ ! -s "$DIR/merged/plots.tsv" ] || table_select "$DIR/merged/plots.tsv" out lead | awk -F'\t' '$2 == 1 { print $1 ".svg" }' | paste -sd' ') "
ranked=$(grep -E '\.(svg|png)$' <<<"$plots" | while read -r p; do
	[[ $lead == *" ${p##*/} "* ]] && echo "lead $p" || echo "more $p"; done || true)
out=$DIR/report.html
# The page is written again only when what it shows changed: the md5 of its
# inputs (these scripts, the campaign's manifest, merged tables and plots'
# keys (plots/lib.sh's plot_rows), the comparison's, the status, the
# samples' names, sizes and times), kept beside it in DIR/.report.inputs.
key=$({ printf '%s\n' "$status" "$plots" "$noplots" "$base" "$tol" "$(toolkit_version)"
	find "$DIR/samples" -type f -printf '%p %s %T@\n' | sort
	cat -- "$here"/{report.sh,page.sh,lib.sh,report-head.html} "$DIR"/{manifest,status.log,merged/summary.txt} \
		"$DIR"/merged/*.tsv "$DIR"/plots/.*.key "$cmpdir"/{findings.tsv,compare.txt} "$cmpdir"/plots/.*.key || true; } 2>/dev/null | md5sum)
[ ! -s "$out" ] || [ "$(cat "$DIR/.report.inputs" 2>/dev/null)" != "$key" ] || { printf '%s\n' "$out"; exit 0; }
# whole or not at all (sh/write.sh): on a full disk the old page, if any, is left as it was
write_file "$out" page
write_file "$DIR/.report.inputs" echo "$key"
printf '%s\n' "$out"
