#!/usr/bin/env bats
# Prometheus (issue 39): collect --openmetrics writes the text exposition
# format, make export drops it where node_exporter's textfile collector
# reads it, and a real node_exporter and prometheus (Debian's, started here
# on loopback ports, stopped after) serve a campaign's busbw to PromQL.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers

# scraped QUERY: Prometheus answers QUERY with a sample (its answer in $r)
scraped() {
	r=$(curl -s "http://127.0.0.1:$((port + 1))/api/v1/query" --data-urlencode "query=$1" || true)
	[[ $r == *'"result":[{'* ]]
}

teardown() {
	for p in ${PIDS:-}; do kill "$p" 2>/dev/null || true; done
	for p in ${PIDS:-}; do wait "$p" 2>/dev/null || true; done
}

@test "collect --openmetrics: promtool accepts it; row metrics by name and labels, points' states, slow links" {
	command -v promtool >/dev/null || skip "promtool is missing: run 'make deps'"
	cp -r "$ROOT/tests/data/findings" "$BATS_TEST_TMPDIR/g"
	cd "$BATS_TEST_TMPDIR/g"
	run --separate-stderr -0 "$COLLECT" --openmetrics merged
	printf '%s\n' "$output" >g.prom
	run -0 promtool check metrics <g.prom
	grep -q '^# TYPE aller_tavg_seconds gauge$' g.prom
	grep -q '^aller_eff_ratio{campaign="g",point="n2-contiguous-t2",nodes="2",mode="contiguous",variant="default",algo="alltoall",split="uniform",commsize="4",bytes="8192"} 0.7662$' g.prom
	grep -q '^aller_point_state{campaign="g",point="n8-contiguous-t2",.*state="failed"} 1$' g.prom
	grep -qx 'aller_slow_links{campaign="g"} 3' g.prom
	# no sample has a timestamp (node_exporter's textfile collector refuses them)
	run ! grep -qE '^aller_[a-z_]+\{[^}]*\} [^ ]+ [0-9]+$' g.prom
	run --separate-stderr -3 "$COLLECT" --openmetrics nosuch
	[ "$stderr" = "collect: error: cannot read 'nosuch/points-index.csv'" ]
	run --separate-stderr -2 "$COLLECT" --openmetrics
	[ "$stderr" = "collect: error: --openmetrics takes merged directories: collect --openmetrics DIR..." ]
}

@test "make export, node_exporter's textfile collector, prometheus: PromQL returns the campaign's busbw" {
	command -v prometheus >/dev/null && command -v prometheus-node-exporter >/dev/null ||
		skip "prometheus is missing: run 'make deps'"
	res=$BATS_TEST_TMPDIR/results tf=$BATS_TEST_TMPDIR/textfile
	mkdir -p "$res/exp/raw" "$tf"
	mpirun_n 2 "$ALLER" c 2 4096 >"$res/exp/raw/exp.out"
	run -0 bash "$ROOT/plots/export.sh" CAMPAIGN=exp "RESULTS=$res" "TEXTFILE_DIR=$tf"
	[ "$output" = "$tf/aller-exp.prom" ]
	run --separate-stderr -2 bash "$ROOT/plots/export.sh" CAMPAIGN=exp "RESULTS=$res"
	[ "$stderr" = "export: error: give TEXTFILE_DIR=dir: node_exporter's --collector.textfile.directory" ]
	# the busbw aller printed at 2 KiB per peer, commsize 2, in bytes per second
	want=$(awk '!/^#/ && NF > 20 && $2 == 2 && $3 == 256 { printf "%.6g", $15 * 1e9 }' "$res/exp/raw/exp.out")
	[ -n "$want" ]
	port=$((20000 + RANDOM % 20000))
	prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$tf" >"$BATS_TEST_TMPDIR/ne.log" 2>&1 &
	PIDS=$!
	printf 'global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: aller\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
		"$port" >"$BATS_TEST_TMPDIR/prom.yml"
	prometheus --config.file="$BATS_TEST_TMPDIR/prom.yml" --storage.tsdb.path="$BATS_TEST_TMPDIR/tsdb" \
		--web.listen-address="127.0.0.1:$((port + 1))" >"$BATS_TEST_TMPDIR/prom.log" 2>&1 &
	PIDS="$PIDS $!"
	q='aller_busbw_bytes_per_second{commsize="2",bytes="2048",algo="alltoall"}'
	SAW="cat $BATS_TEST_TMPDIR/prom.log" wait_for "Prometheus to have scraped $q" 60 scraped "$q"
	echo "$r"
	got=$(sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p' <<<"$r")
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && (g - w) ^ 2 <= (1e-5 * w) ^ 2) }'
	# and the file's value is the same
	grep -q "^aller_busbw_bytes_per_second{.*commsize=\"2\",bytes=\"2048\"} $want\$" "$tf/aller-exp.prom"
}
