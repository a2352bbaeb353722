#!/usr/bin/env bash
# campaigns/make-vars.sh TARGET KNOWN -- NAME...: make's command line checked before
# a campaign, status, plots, compare or report target runs. make drops a
# variable it does not know, so 'make campaign NODE=4' would run the default
# campaign; here every upper-case NAME given on make's command line must be
# a campaign variable (campaigns/lib.sh) or one of KNOWN (the Makefile's own),
# else one line per unknown name, with the nearest known one, and exit 2.
set -euo pipefail
# shellcheck source=campaigns/lib.sh
. "$(dirname "$0")/lib.sh"

target=${1:-campaign}
read -r -a known <<<"$2"
shift 2
[ "${1-}" = -- ] && shift
known=("${CAMPAIGN_VARS[@]}" "${TOOL_VARS[@]}" "${known[@]}")   # a tie goes to the campaign's (CAMPAIGN, not CAMPAIGNS)
bad=0
for name in "$@"; do
	[[ $name =~ ^[A-Z][A-Z0-9_]*$ ]] || continue
	[[ " ${known[*]} " == *" $name "* ]] && continue
	hint=$(nearest_name "$name" "${known[@]}")
	printf "%s: error: unknown variable '%s' on make's command line%s; allowed are %s\n" \
		"$target" "$name" "${hint:+ (did you mean $hint?)}" "${CAMPAIGN_VARS[*]} and the Makefile's own" >&2
	bad=1
done
[ "$bad" = 0 ] || exit 2
