#!/usr/bin/env bats
# Every command a newcomer copies from README.md, docs/*.md and the manual
# pages' examples is run, or marked as not meant to run here
# (docs/development.md, "The documented commands"): this file runs those that need no cluster and checks the marks;
# tests/e2e/95-docs-run.bats runs those on the local cluster. And the
# figures of docs/img/ are the ones the current gnuplot scripts draw.
# shellcheck disable=SC2154,SC2016,SC2030,SC2031 # bats sets output; single quotes are meant; a test sets ROOT for its own tree

load ../lib/helpers
load ../lib/docs

# The marks a block may have (tools/doc-commands)
MARKS='^(runs here|runs on the local cluster|site example|synopsis|output|long: .*)( with [A-Z_]+=[^ ]+( [A-Z_]+=[^ ]+)*)?$'

@test "every code block of README.md and docs/*.md, and every manual page example, is run here, run on the local cluster or marked" {
	run -0 bash -c "cd '$ROOT' && tools/doc-commands"
	bad=$(awk -F'\t' -v re="$MARKS" '$2 !~ re { print $1 ": " $2 }' <<<"$output")
	[ -z "$bad" ] || { echo "neither run nor marked (docs/development.md):"; echo "$bad"; false; }
	[ "$(wc -l <<<"$output")" -ge 60 ]
}

@test "a new block without a mark, or with a mark not known, is found" {
	printf '# t\n\n<!-- synopsis -->\n\n    aller [X]\n\ntext\n\n    make new-thing\n\n<!-- runs nowhere -->\n\n```\nmake other\n```\n' >"$BATS_TEST_TMPDIR/t.md"
	run -0 "$ROOT/tools/doc-commands" "$BATS_TEST_TMPDIR/t.md"
	[ "$(awk -F'\t' -v re="$MARKS" '$2 !~ re { print $2 ": " $3 }' <<<"$output")" = "unmarked: make new-thing
runs nowhere: make other" ]
	[[ $output == *$'\tsynopsis\taller [X]'* ]]
}

@test "a long command's mark names the test file or directory that runs it, which exists" {
	n=0
	while IFS=$'\t' read -r where mark _; do
		path=$(grep -oE 'tests/[A-Za-z0-9_./-]+[A-Za-z0-9_]/?' <<<"$mark" | head -n 1)
		[ -n "$path" ] || { echo "$where: '$mark' names no tests/ file"; false; }
		[ -e "$ROOT/$path" ] || { echo "$where: '$mark': $path does not exist"; false; }
		n=$((n + 1))
	done < <(cd "$ROOT" && tools/doc-commands | awk -F'\t' '$2 ~ /^long: /')
	[ "$n" -ge 5 ]
}

@test "docs/development.md counts the documented commands as tools/doc-commands does" {
	run -0 bash -c "cd '$ROOT' && tools/doc-commands"
	count() { awk -F'\t' -v m="$1" 'index($2, m) == 1' <<<"$output" | wc -l; }
	here=$(count 'runs here') cluster=$(count 'runs on the local cluster') long=$(count 'long: ')
	site=$(count 'site example') synopsis=$(count synopsis) out=$(count output)
	line="$here run here, $cluster on the local cluster, $long long ones elsewhere; $site site examples, $synopsis synopses, $out outputs"
	grep -qF -- "$line" "$ROOT/docs/development.md" || { echo "docs/development.md should say: $line"; false; }
}

# bats test_tags=build,slow
@test "the commands the docs mark 'runs here' exit 0 as written (make CC=clang builds a tree of its own)" {
	n=0
	for block in $(doc_blocks 'runs here'); do
		run -0 run_doc_block "$block" "$BATS_TEST_TMPDIR/results"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ]
	# make CC=clang ... B=build/docs-clang: its own tree, built by clang
	[ -x "$ROOT/build/docs-clang/bin/collect" ]
	[ -x "$ROOT/build/docs-here/bin/aller" ]
	grep -q 'clang' "$ROOT/build/docs-clang/flags"
}

@test "no block the docs run here makes the tree's own build/ (its binaries run in the end-to-end lane meanwhile)" {
	run -0 bash -c "cd '$ROOT' && tools/doc-commands"
	run -0 awk -F'\t' 'index($2, "runs here") == 1 && $3 ~ /^make/ && $2 !~ / B=build\/./' <<<"$output"
	[ -z "$output" ]
}

@test "a documented command that fails is named, with its status" {
	mkdir -p "$BATS_TEST_TMPDIR/tree/tools"
	cp "$ROOT/tools/doc-commands" "$BATS_TEST_TMPDIR/tree/tools/"
	printf '# t\n\n<!-- runs here -->\n\n    true\n    false   # fails\n    echo never\n' >"$BATS_TEST_TMPDIR/tree/README.md"
	ROOT=$BATS_TEST_TMPDIR/tree
	run -1 run_doc_block README.md:5 "$BATS_TEST_TMPDIR/results"
	[[ $output == *"docs: README.md:5: false exits 1"* ]]
	[[ $output != *never* ]]
}

@test "docs/img/SOURCES: the images were drawn with the gnuplot scripts as they are (else: make docs-images)" {
	cd "$ROOT"
	run -0 md5sum --quiet -c docs/img/SOURCES
	diff <(ls plots/*.gp) <(awk '{ print $2 }' docs/img/SOURCES) || { echo "plots/*.gp are not the scripts of docs/img/SOURCES: make docs-images"; false; }
}

@test "every image in docs/img is shown by README.md or a doc, and every image shown is there" {
	cd "$ROOT"
	shown=$(grep -ohE '\]\((docs/)?img/[^)]+\.png\)' README.md docs/*.md | sed -E 's/^\]\((docs\/)?img\///; s/\)$//' | sort -u)
	[ "$shown" = "$(cd docs/img && printf '%s\n' *.png | sort)" ]
	[ "$(wc -l <<<"$shown")" -ge 3 ]
}
