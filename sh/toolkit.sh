# sh/toolkit.sh: the shell helpers every script of the toolkit shares (the
# campaigns, the plots, the report): errors, --help and --version, finding
# the toolkit's binaries, the nearest name to a typo. Sourced; sets
# CAMPAIGN_ROOT (the source tree, or an installed share/aller) if unset.
# shellcheck shell=bash

CAMPAIGN_ROOT=${CAMPAIGN_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

# die WHY [CODE]: "TOOL: error: WHY" on stderr, exit CODE (2); TOOL is the
# script's (script_options: aller-report's is report), else campaign.
die() {   # one line, whatever the values in it hold: control characters escaped as collect's are
	local m=${1//$'\n'/\\n}
	m=${m//$'\r'/\\r} m=${m//$'\t'/\\t} m=${m//$'\e'/\\x1b}
	printf '%s: error: %s\n' "${TOOL:-campaign}" "$m" >&2
	exit "${2:-2}"
}

# toolkit_version: "1.1.0 (REV)", from the source tree or an installed VERSION file.
toolkit_version() {
	local v
	v=$(sed -n 's/^#define ALLER_VERSION "\(.*\)"$/\1/p' "$CAMPAIGN_ROOT/common/format.h" 2>/dev/null)
	[ -z "$v" ] || { printf '%s (%s)\n' "$v" "$(git -C "$CAMPAIGN_ROOT" describe --always --dirty 2>/dev/null || echo unknown)"; return; }
	cat "$CAMPAIGN_ROOT/VERSION" 2>/dev/null || echo unknown
}

# default_results: where results go without RESULTS: beside a source tree,
# or in the working directory for an installed copy.
default_results() {
	if [ -f "$CAMPAIGN_ROOT/Makefile" ]; then echo "$CAMPAIGN_ROOT/results"; else echo "$PWD/results"; fi
}

# abs_path PATH: PATH absolute (relative ones under $PWD), '..' kept: a path
# that starts with "/" is never an option, a pipe or a redirection to the
# tools it reaches (gnuplot opens "<cmd" and "|cmd" as pipes).
abs_path() {
	if [[ $1 == /* ]]; then printf '%s' "$1"; else printf '%s/%s' "$PWD" "$1"; fi
}

# sh_quote WORD...: the words as one POSIX sh command line, each in single
# quotes (a ' as '\''): what sbatch --wrap and a crontab hand to /bin/sh,
# which reads bash's printf %q ($'\t', $'\351') wrongly.
sh_quote() {
	local w sep=""
	for w in "$@"; do
		printf "%s'%s'" "$sep" "${w//\'/\'\\\'\'}"
		sep=" "
	done
}

# is_node NAME: one node's name that Slurm may act on: letters, digits, '.',
# '_' and '-' (the first a letter or digit), and one node as scontrol
# expands it (itself, unchanged), where scontrol answers: a host list
# ("n[1-4]", "n7,n8") is not.
is_node() {
	local e
	[[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$ ]] || return 1
	e=$(scontrol show hostnames "$1" 2>/dev/null) || return 0   # no Slurm here: the form decides
	[ "$e" = "$1" ]
}

# slurm_nodes WHICH [SINFO_OPTION...]: the one door to the nodes Slurm
# knows (docs/security.md): every script picks or checks nodes here, by
# sinfo's full state (%T), never by 'sinfo -t idle' (which in Slurm 22.05
# also lists IDLE+DRAIN nodes) nor by its short state. WHICH:
#   idle    free and usable: the state exactly "idle" (not drained or
#           draining, down, reserved, completing, maint, planned, and not
#           "idle*", not responding), one name a line
#   usable  could run a job now: idle, mixed or allocated, nothing more
#   all     'NAME<tab>STATE<tab>REASON' (reason "none" when there is none)
#   partitions  the partitions of the nodes, one a line
# Each node (each partition) once: sinfo -N lists a node once per
# partition. SINFO_OPTION narrows (-n NODE, -p PARTITION). Nothing where
# Slurm does not answer.
slurm_nodes() {
	sinfo -h -N "${@:2}" -o '%N|%T|%P|%E' 2>/dev/null | awk -F'|' -v w="$1" 'w == "partitions" { sub(/\*$/, "", $3); if (!p[$3]++) print $3; next }
		!seen[$1]++ && w == "all" { r = $4; for (i = 5; i <= NF; i++) r = r "|" $i; print $1 "\t" $2 "\t" r }
		!seen2[$1]++ && ($2 == "idle" || (w == "usable" && ($2 == "mixed" || $2 == "allocated"))) && w != "all" { print $1 }'
}

# is_name NAME: a campaign's (or a trend's, an isolation's) name.
is_name() { [[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]]; }
# plural N: "s" unless N is 1 ("1 node", "2 nodes")
plural() { [ "$1" = 1 ] || echo s; }

# script_options NAME USAGE ARGS...: --help and --version for the scripts
# (and their installed wrappers, aller-NAME); die's TOOL is NAME.
script_options() {
	local name=$1 usage=$2
	shift 2
	TOOL=${name#aller-}
	case ${1:-} in
	--help | -h) printf '%s\n' "$usage"; exit 0 ;;
	--version) printf '%s %s\n' "$name" "$(toolkit_version)"; exit 0 ;;
	esac
}

# shellcheck source=sh/write.sh
. "$CAMPAIGN_ROOT/sh/write.sh"   # write_file, append_lines: every result written

# safe_dir DIR: DIR, or where it would be made, is one no other user can
# plant a link in (collect --safe-dir --to-make); else one line, exit 2.
# Every tool that writes calls it before its first write (docs/security.md).
safe_dir() {
	local why
	why=$("$(find_tool collect)" --safe-dir --to-make "$1" 2>&1) || die "not writing into '$1': ${why#collect: error: }"
}

# find_tool NAME: the toolkit's binary: an installed PREFIX/bin (the
# installed layout known by the VERSION file make install writes into
# share/aller, never guessed: an unbuilt tree's ../../bin is a team's
# directory), a source tree's build/bin, or PATH.
find_tool() {
	local t=$CAMPAIGN_ROOT/build/bin/$1
	[ ! -e "$CAMPAIGN_ROOT/VERSION" ] || t=$CAMPAIGN_ROOT/../../bin/$1
	[ -x "$t" ] && { (cd "$(dirname "$t")" && printf '%s/%s' "$(pwd)" "$1"); return; }
	command -v "$1" || die "cannot find '$1': run 'make' first" 3
}

# merge_if_stale MERGED LOG INPUT...: the collector's merge of the INPUTs
# into MERGED, its messages in LOG, where MERGED is missing or lacks one of
# its tables, is older than an input file, or is a merge of a collector
# before the facts the toolkit reads (no point's start in facts.tsv, no
# point's key and base in points-index.csv).
# Returns collect's status (0 also when MERGED was fresh; 1 merged with
# problems); MERGED_NOW=1 when it merged. The one place a script after the
# merge names raw outputs: to hand them to the merge.
merge_if_stale() {
	local merged=$1 log=$2 rc=0 why
	shift 2
	# shellcheck disable=SC2034 # the caller's to read
	MERGED_NOW=
	if [ -s "$merged/points-index.csv" ] && [ -e "$merged/sets.tsv" ] && [ -e "$merged/findings.tsv" ] &&
		grep -q "	start	" "$merged/facts.tsv" 2>/dev/null &&
		head -n 1 "$merged/points-index.csv" | grep -q ',key,base' &&
		[ -z "$(find "$@" -newer "$merged/points-index.csv" -type f 2>/dev/null | head -n 1)" ]; then
		return 0
	fi
	# shellcheck disable=SC2034 # the caller's to read
	MERGED_NOW=1
	why=$("$(find_tool collect)" -q -o "$merged" -- "$@" 2>&1 >/dev/null) || rc=$?
	write_file "$log" printf '%s\n' "$why"
	return "$rc"
}

# merge_campaign DIR: merge_if_stale of a campaign's raw outputs into
# DIR/merged (DIR/collect.log); what a script after the merge runs instead of
# naming raw/ itself.
merge_campaign() { merge_if_stale "$1/merged" "$1/collect.log" "$1/raw"; }

# aller_binary MPI: the aller built against that library (make, make MPI=mpich;
# an installed MPICH one is aller.mpich).
aller_binary() {
	[ "$1" = mpich ] || { find_tool aller; return; }
	[ ! -x "$CAMPAIGN_ROOT/build/mpich/bin/aller" ] || { echo "$CAMPAIGN_ROOT/build/mpich/bin/aller"; return; }
	command -v aller.mpich || die "cannot find aller for MPICH: run 'make MPI=mpich' first" 3
}

# nearest_name NAME KNOWN...: the known name closest to a typo (edit distance
# at most 2, or a third of its length), or nothing.
nearest_name() {
	printf '%s\n' "$@" | awk 'NR == 1 { t = $0; next }
		{
			n = length(t); m = length($0)
			for (i = 0; i <= n; i++) d[i, 0] = i
			for (j = 0; j <= m; j++) d[0, j] = j
			for (i = 1; i <= n; i++)
				for (j = 1; j <= m; j++) {
					c = d[i - 1, j - 1] + (substr(t, i, 1) != substr($0, j, 1))
					if (d[i - 1, j] + 1 < c) c = d[i - 1, j] + 1
					if (d[i, j - 1] + 1 < c) c = d[i, j - 1] + 1
					d[i, j] = c
				}
			if (best == "" || d[n, m] < bestd) { best = $0; bestd = d[n, m] }
		}
		END { if (best != "" && (bestd <= 2 || bestd <= length(t) / 3)) print best }'
}

# table_select FILE COLUMN...: the rows of a table collect writes (a TSV, or
# a CSV by its name's .csv, whose first row names its columns: its
# declaration in collect) as those columns, by name, tab-separated, in that
# order; a column the file lacks is one line on stderr and status 2. Nothing
# for a missing or empty file. (A CSV's quoted fields are for text columns:
# select numbers and plain words from it.)
table_select() {
	local f=$1 sep=$'\t'
	shift
	[ -s "$f" ] || return 0
	[[ $f != *.csv ]] || sep=,
	awk -F"$sep" -v want="$*" 'NR == 1 { n = split(want, w, " ")
			for (i = 1; i <= NF; i++) c[$i] = i
			for (j = 1; j <= n; j++) if (!(w[j] in c)) { print "no column " w[j] " in " FILENAME >"/dev/stderr"; bad = 1; exit 2 }
			next }
		{ s = $(c[w[1]]); for (j = 2; j <= n; j++) s = s "\t" $(c[w[j]]); print s }' "$f"
}
