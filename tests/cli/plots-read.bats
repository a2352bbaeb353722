#!/usr/bin/env bats
# What a person reads: the plots' keys, the heatmap's cells, the report page's
# text at 100% in a browser, and a report rebuilt without drawing again what
# did not change. Campaigns of tests/data/ (a manifest and their raw outputs),
# no cluster.
# shellcheck disable=SC2154,SC2016 # bats sets output and stderr; single quotes are meant

load ../lib/helpers

# campaign NAME FILE...: a campaign of those raw outputs in $res (RESULTS).
campaign() {
	local name=$1
	shift
	mkdir -p "$res/$name/raw"
	printf 'manifest 2\n' >"$res/$name/manifest"
	cp "$@" "$res/$name/raw/"
}

setup() {
	res=$BATS_TEST_TMPDIR/res
	mkdir -p "$res"
}

# curves SVG: the key's entries of a sizes.gp plot, one per curve (the local copy's apart).
curves() {
	grep -o '<text>commsize [0-9]*[^<]*</text>' "$1" | grep -v 'local copy' | sed 's/<[^>]*>//g'
}

@test "every curve with a bound gives its share of it in the key, the first curve of a plot too" {
	campaign tiers "$ROOT/tests/data/tiers/strided.out"
	campaign bw "$ROOT"/tests/data/fabric/raw/*.out
	for c in tiers bw; do run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$res/$c" --format svg; done
	# every curve of the three-tier campaign has a bound, the first (commsize 8) too
	for p in bandwidth latency; do
		run -0 curves "$res/tiers/plots/$p-strided-n8.svg"
		[ "${#lines[@]}" = 3 ]
		for l in "${lines[@]}"; do [[ $l == *"% of its bound (the uplink of agg1)" ]] || { echo "$p: $l"; return 1; }; done
	done
	# the first curve of the file's first data set (index 0: commsize 4 on 2 nodes)
	run -0 curves "$res/bw/plots/bandwidth-contiguous-n2.svg"
	[[ ${lines[0]} == "commsize 4: "[0-9]*"% of its bound (the NIC of n1)" ]]
	# a curve is drawn with its bound (dashed) exactly where its key gives its share
	for f in "$res"/bw/plots/{bandwidth,latency}-*.svg; do
		run -0 curves "$f"
		for l in "${lines[@]}"; do [[ $l == *"% of its bound ("*")" || $l == "commsize 2" ]] || { echo "$f: $l"; return 1; }; done
	done
}

@test "an on-node curve's key names its bound as its node's memory" {
	campaign onnode "$ROOT/tests/data/onnode/vm-n1-contiguous.out"
	run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$res/onnode" --format svg
	run -0 curves "$res/onnode/plots/bandwidth-contiguous-n1.svg"
	[ "${#lines[@]}" = 2 ]
	for l in "${lines[@]}"; do [[ $l == *"% of its bound (the memory of vm)" ]] || { echo "$l"; return 1; }; done
}

@test "the --pairs heatmap keeps its cells apart at any zoom: its bitmap is drawn pixelated, in the file and on the page" {
	campaign pairs "$ROOT/tests/data/pairs/moved.out"
	run -0 bash "$ROOT/plots/report.sh" CAMPAIGN=pairs "RESULTS=$res"
	grep -q "<image image-rendering='optimizeSpeed' style='image-rendering: pixelated' " "$res/pairs/plots/pairs-moved.svg"
	[ "$(grep -c '<image ' "$res/pairs/plots/pairs-moved.svg")" = 1 ]
	grep -q "%3Cimage image-rendering='optimizeSpeed' style='image-rendering: pixelated' " "$res/pairs/report.html" ||
		grep -q "<image image-rendering='optimizeSpeed' style='image-rendering: pixelated' " "$res/pairs/report.html"
}

# measured PAGE: each plot of the report PAGE as Chromium lays it out in a
# window 1400 px wide (every <details> open), a line each: its name, its
# width in px, its smallest text in px (its SVG font size times the width it
# is shown at over its canvas's), that text, and "cut:N" the texts that
# reach outside its canvas (then their words).
measured() {
	cp "$1" "$BATS_TEST_TMPDIR/measured.html"
	cat >>"$BATS_TEST_TMPDIR/measured.html" <<-'EOF'
		<script>
		document.querySelectorAll('details').forEach(function (d) { d.open = true; });
		var out = [];
		document.querySelectorAll('figure img').forEach(function (img) {
			var w = img.getBoundingClientRect().width - 2, src = img.getAttribute('src');   // (its 1 px border each side)
			var doc = new DOMParser().parseFromString(decodeURIComponent(src.slice(src.indexOf(',') + 1)), 'image/svg+xml');
			var svg = document.importNode(doc.documentElement, true), vb = svg.viewBox.baseVal, box = document.createElement('div');
			box.style.cssText = 'position: absolute; left: 0; top: 0; width: ' + w + 'px';
			svg.setAttribute('width', w); svg.setAttribute('height', w * vb.height / vb.width);
			box.appendChild(svg); document.body.appendChild(box);
			var scale = w / vb.width, r = svg.getBoundingClientRect(), min = 1e9, minText = '', cut = [];
			svg.querySelectorAll('text, tspan').forEach(function (t) {
				if (!t.textContent.trim()) return;
				var px = parseFloat(getComputedStyle(t).fontSize) * scale, b = t.getBoundingClientRect();
				if (px < min) { min = px; minText = t.textContent.trim(); }
				if (t.tagName === 'text' && (b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5))
					cut.push(t.textContent.trim());
			});
			out.push(img.alt + ' ' + w.toFixed(1) + ' ' + min.toFixed(2) + ' [' + minText + '] cut:' + cut.length + (cut.length ? ' ' + JSON.stringify(cut) : ''));
			document.body.removeChild(box);
		});
		var pre = document.createElement('pre'); pre.id = 'measured'; pre.textContent = out.join('\n'); document.body.appendChild(pre);
		</script>
	EOF
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chromium" --window-size=1400,3000 \
		--dump-dom "file://$BATS_TEST_TMPDIR/measured.html" 2>/dev/null | sed -n '/<pre id="measured">/,/<\/pre>/{s/<[^>]*>//g;p}'
}

@test "in a 1400 px window the report shows a plot a row, every text at 10 px or more and whole, with a key of 13 entries too" {
	command -v chromium >/dev/null || skip "no chromium"
	# three campaigns' outputs in one: each plot's curves three times (13 key entries on 4 nodes)
	for k in 1 2 3; do
		for f in "$ROOT"/tests/data/fabric/raw/*.out; do
			sed "s/^# campaign: bw$/# campaign: bw$k/" "$f" >"$BATS_TEST_TMPDIR/bw$k-${f##*/bw-}"
		done
	done
	campaign many "$BATS_TEST_TMPDIR"/bw[123]-*.out
	run -0 bash "$ROOT/plots/report.sh" CAMPAIGN=many "RESULTS=$res"
	[ "$(grep -c '<text>\(commsize\|dashed\)' "$res/many/plots/bandwidth-strided-n4.svg")" = 13 ]
	run -0 measured "$res/many/report.html"
	printf '%s\n' "${lines[@]}"
	[ "${#lines[@]}" = "$(find "$res/many/plots" -name '*.svg' | wc -l)" ]
	for l in "${lines[@]}"; do
		read -r name width px _ <<<"$l"
		# at its own size (1100 px, its border aside): one to a row, its fonts the pixels read
		[ "$width" = 1100.0 ] || { echo "$name: $width px wide"; return 1; }
		awk -v px="$px" 'BEGIN { exit !(px >= 10) }' || { echo "$name: text at $px px"; return 1; }
		[[ $l == *" cut:0" ]] || { echo "$l"; return 1; }
	done
}

# mtimes DIR: each plot's and the page's modification time, to the nanosecond.
mtimes() {
	stat -c '%n %y' "$1"/plots/*.svg "$1/report.html"
}

@test "make report again draws no plot and writes no page when nothing changed; a changed table redraws its plots alone" {
	campaign smoke "$ROOT"/tests/data/smoke/raw/*.out
	run --separate-stderr -0 make -s -C "$ROOT" report CAMPAIGN=smoke "RESULTS=$res"
	[ "${lines[-1]}" = "$res/smoke/report.html" ]
	before=$(mtimes "$res/smoke")
	[ "$(grep -c '\.svg ' <<<"$before")" = 22 ]
	run --separate-stderr -0 make -s -C "$ROOT" report CAMPAIGN=smoke "RESULTS=$res"
	[ "$output" = "$res/smoke/report.html" ] && [ -z "$stderr" ]   # quiet: the page's path alone
	[ "$(mtimes "$res/smoke")" = "$before" ]
	# the raw outputs merged again: the same tables, nothing drawn again
	touch "$res"/smoke/raw/*.out
	run -0 bash "$ROOT/plots/report.sh" CAMPAIGN=smoke "RESULTS=$res"
	[ "$(stat -c %Y "$res/smoke/merged/bandwidth.dat")" -ge "$(stat -c %Y "$res/smoke/raw/smoke-n1-strided-19.out")" ]
	[ "$(mtimes "$res/smoke")" = "$before" ]
	# one value of the bandwidth table changed: its plots (bandwidth, latency) drawn again, the page
	# written again, the others kept
	sed -i '0,/^8 /s/^8 [0-9.e+-]*/8 9.000000e-08/' "$res/smoke/merged/bandwidth.dat"
	run -0 bash "$ROOT/plots/report.sh" CAMPAIGN=smoke "RESULTS=$res"
	after=$(mtimes "$res/smoke")
	changed=$(diff <(echo "$before") <(echo "$after") | sed -n 's/^> \([^ ]*\) .*/\1/p' | xargs -n 1 basename)
	grep -q '^report.html$' <<<"$changed"
	[ "$(grep -c '^\(bandwidth\|latency\)-.*\.svg$' <<<"$changed")" -ge 1 ]
	[ "$(grep -vc '^\(bandwidth\|latency\)-.*\.svg$\|^report.html$' <<<"$changed")" = 0 ]
	# a plot removed is drawn again
	rm "$res/smoke/plots/scaling.svg"
	run -0 bash "$ROOT/plots/report.sh" CAMPAIGN=smoke "RESULTS=$res"
	[ -s "$res/smoke/plots/scaling.svg" ]
}

@test "the key's bound names come from points.csv beside the data, read as a file: a campaign directory named like a command runs nothing" {
	cd "$BATS_TEST_TMPDIR"
	d='<touch P1;x $(touch P2) `touch P3` "q'"'"
	mkdir -p "$d/raw" && cp "$ROOT/tests/data/tiers/strided.out" "$d/raw/"
	run -0 bash "$ROOT/plots/plot.sh" --campaign-dir "$d" --format svg
	run -0 curves "$d/plots/bandwidth-strided-n8.svg"
	[[ ${lines[0]} == "commsize 8: "*"% of its bound (the uplink of agg1)" ]]
	# (gnuplot and its awk run in the scripts' directory)
	for p in P1 P2 P3; do
		[ ! -e "$p" ] && [ ! -e "$ROOT/plots/$p" ] || { rm -f "$ROOT/plots/$p"; echo "ran $p"; return 1; }
	done
}
