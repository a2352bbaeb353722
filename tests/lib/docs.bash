# For the tests of the documented commands (tests/cli/docs-run.bats,
# tests/e2e/95-docs-run.bats): the blocks of README.md and docs/*.md by their
# mark (tools/doc-commands), and a block's commands run as a newcomer runs
# them: from the tree's root, in a clean environment where
# . build/cluster/env.sh was sourced (README), one shell for the block.
# shellcheck shell=bash disable=SC2016 # the script is written with single quotes on purpose

# doc_blocks MARK: FILE:LINE of each block whose mark begins with MARK
doc_blocks() {
	(cd "$ROOT" && tools/doc-commands) | awk -F'\t' -v m="$1" 'index($2, m) == 1 { print $1 }' | uniq
}

# doc_script FILE:LINE RESULTS: the block's commands as a script that stops
# at the first that fails, saying which and its status. A make command naming
# a CAMPAIGN gets RESULTS=RESULTS (the test's own directory), and the
# "with VAR=value ..." of the block's mark (small sizes, a B of its own);
# after each command it waits for the queue to drain (the jobs it
# submitted) when the block runs on the local cluster. The "with" goes to
# every make command but those that read a campaign's manifest (status,
# plots, report, compare, export, trend: they refuse LONGS and the like).
doc_script() {
	local where=$1 results=$2 mark cmd with
	echo 'set -u; cd "$1"; [ ! -f build/cluster/env.sh ] || . build/cluster/env.sh'
	echo 'drained() { local n=0; while [ -n "$(squeue -h 2>/dev/null)" ]; do sleep 1; n=$((n + 1)); [ $n -lt 300 ] || return 1; done; }'
	(cd "$ROOT" && tools/doc-commands) | awk -F'\t' -v w="$where" '$1 == w' |
		while IFS=$'\t' read -r _ mark cmd; do
			with=${mark#*with }
			[ "$with" != "$mark" ] || with=
			cmd=$(sed -E 's/[[:space:]]+#[[:space:]].*$//' <<<"$cmd")
			if [[ $cmd == make\ * && $cmd == *CAMPAIGN=* ]]; then cmd+=" RESULTS=$results"; fi
			if [[ $cmd == make\ * && ! $cmd =~ ^make\ (status|plots|report|compare|export|trend)\  && -n $with ]]; then cmd+=" $with"; fi
			printf 'echo %q\n' "\$ $cmd"
			printf '%s || { s=$?; echo %q" $s" >&2; exit 1; }\n' "$cmd" "docs: $where: $cmd exits"
			[[ $mark != "runs on the local cluster"* ]] || echo 'drained || { echo "docs: the queue did not drain" >&2; exit 1; }'
		done
}

# run_doc_block FILE:LINE RESULTS: the block's script, in a clean
# environment (the cluster's and Open MPI's settings kept)
run_doc_block() {
	local script=$BATS_TEST_TMPDIR/block.sh
	doc_script "$1" "$2" >"$script"
	grep -q '^echo ' "$script" || { echo "no command in $1" >&2; return 1; }
	# (and make test's WERROR: a make of the tree with another would build its binaries
	# again while the other lane runs them)
	mapfile -t keep < <(env | grep -E '^(CLUSTER_|OMPI_|WERROR=)' || true)
	env -i HOME="$HOME" TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		"${keep[@]}" bash "$script" "$ROOT"
}
