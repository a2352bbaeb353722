# plots/prepare.sh: plot.sh's arguments, inputs and merge. Sourced; after
# prepare_plots ARGS..., these are set: fmt, file, dir (where the plots go,
# in dir/plots), merged and index (the collector's output and its sets.tsv,
# merged anew when missing, older than the inputs or without findings), reveal_dir.
# shellcheck shell=bash disable=SC2034 # set for plot.sh

prepare_plots() {
	local c name rc camps names results
	camps=() dir="" file="" fmt=png inputs=() reveal_dir="" names=() results=$(default_results)
	while [ $# -gt 0 ]; do
		case $1 in
		--campaign-dir) camps+=("${2:?}"); shift 2 ;;
		# as the other wrappers take them: CAMPAIGN=name (each a campaign of RESULTS)
		CAMPAIGN=*) is_name "${1#*=}" ||
			die "invalid CAMPAIGN '${1#*=}': allowed are letters, digits, '.', '_' and '-', the first a letter or digit"
			names+=("${1#*=}"); shift ;;
		RESULTS=?*) results=${1#*=}; shift ;;
		--out-dir) dir=${2:?}; shift 2 ;;
		--file)
			[ -z "$file" ] || die "--file is given twice ('$file' and '${2:-}'): one output at a time (several campaigns: --campaign-dir DIR ...)"
			file=${2:?}; shift 2 ;;
		--format) fmt=${2:?}; shift 2 ;;
		*) die "unknown argument '$1' (see the header of plots/plot.sh)" ;;
		esac
	done
	for c in "${names[@]}"; do camps+=("$results/$c"); done
	[ -z "$file" ] || [ ${#camps[@]} -eq 0 ] || die "--file and --campaign-dir together: give one output or campaigns, not both"
	[[ $fmt =~ ^(png|svg|pdf)$ ]] || die "invalid format '$fmt': allowed are png, svg and pdf"
	# a path is never an option, a pipe or a redirection to the commands it
	# reaches (find, sed, collect, gnuplot): each absolute
	[ -z "$file" ] || file=$(abs_path "$file")
	for c in "${!camps[@]}"; do
		camps[c]=$(abs_path "${camps[c]}")
	done
	[ -z "$dir" ] || dir=$(abs_path "$dir")
	command -v gnuplot >/dev/null || die "gnuplot is missing: install it (Debian: gnuplot-nox)" 3

	if [ -n "$file" ]; then
		[ -r "$file" ] || die "cannot read '$file'"
		name=$(basename "$file")
		dir=${dir:-$(default_results)/file-${name%.*}}
		inputs=("$file")
	else
		[ ${#camps[@]} -gt 0 ] || die "give --campaign-dir DIR or --file FILE"
		for c in "${camps[@]}"; do
			[ -d "$c/raw" ] || die "no raw outputs in '$c' (no $c/raw)"
			inputs+=("$c/raw")
		done
		if [ ${#camps[@]} -eq 1 ]; then
			dir=${dir:-${camps[0]}} reveal_dir=${camps[0]}/reveal
		else
			dir=${dir:-$(dirname "${camps[0]}")/overlay-$(for c in "${camps[@]}"; do basename "$c"; done | paste -sd-)}
		fi
	fi
	merged=$dir/merged index=$dir/merged/sets.tsv
	safe_dir "$dir"
	mkdir -p "$merged" "$dir/plots"

	rc=0
	merge_if_stale "$merged" "$dir/collect.log" "${inputs[@]}" || rc=$?
	if [ -n "$MERGED_NOW" ]; then
		[ "$rc" -le 1 ] || { cat "$dir/collect.log" >&2; die "the collector failed (exit $rc)" 3; }
		[ "$rc" -eq 0 ] || echo "plots: the collector reported problems: see $merged/summary.txt" >&2
		# data sets that failed to set up have no rows to draw: each is named
		grep -F ': data set failed, no rows: ' "$dir/collect.log" | sed 's/^/plots: /' >&2 || true
		# a campaign's hosts that came late in its samples (SAMPLES=1) are suspects too
		[ ${#camps[@]} -ne 1 ] || straggler_suspects "$dir"
	fi
	# a file's matrices: the directory aller named (the merge's fact), maybe relative to the file's
	[ -z "$file" ] || reveal_dir=$(point_facts "$merged/facts.tsv" "" reveal_dir | head -n 1)
	[[ -z $file || -z $reveal_dir || -d $reveal_dir || $reveal_dir == /* ]] || reveal_dir=$(dirname "$file")/$reveal_dir
}
