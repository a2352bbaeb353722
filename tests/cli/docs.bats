#!/usr/bin/env bats
# The manual pages, the reference in docs/ and the installed modulefiles:
# current with the code (every option and setting appears), clean for mandoc,
# and what a site's user does (module use, module load aller, man aller).
# shellcheck disable=SC2154 # bats sets output

load ../lib/helpers

# The --options of a help text, once each.
options_of() { grep -o -- '--[a-z][a-z-]*' | sort -u; }

# The text of a manual page as man shows it.
rendered() { mandoc -T utf8 "$ROOT/man/$1" | col -b; }

@test "mandoc -T lint finds nothing in the manual pages" {
	for page in aller.1 collect.1 aller-campaign.1; do
		run -0 mandoc -T lint -W warning "$ROOT/man/$page"
		[ -z "$output" ]
	done
}

@test "every option of aller --help is in docs/aller.md and aller(1)" {
	page=$(rendered aller.1)
	n=0
	for o in $("$ALLER" --help | options_of); do
		grep -qF -- "$o" "$ROOT/docs/aller.md" || { echo "docs/aller.md lacks $o"; false; }
		[[ $page == *"$o"* ]] || { echo "aller(1) lacks $o"; false; }
		n=$((n + 1))
	done
	[ "$n" -ge 20 ]
}

@test "every option of collect --help is in docs/ and collect(1)" {
	page=$(rendered collect.1)
	for o in $({ "$COLLECT" --help; "$COLLECT" --compare --help; } | options_of); do
		cat "$ROOT"/docs/*.md | grep -qF -- "$o" || { echo "docs/ lacks $o"; false; }
		[[ $page == *"$o"* ]] || { echo "collect(1) lacks $o"; false; }
	done
}

@test "every campaign setting is in docs/campaigns.md and aller-campaign(1)" {
	page=$(rendered aller-campaign.1)
	# shellcheck source=/dev/null
	vars=$(bash -c ". '$ROOT/campaigns/lib.sh'; echo \${CAMPAIGN_VARS[*]}")
	[[ $vars == *MODULES* ]]
	for v in $vars; do
		grep -q "\\b$v\\b" "$ROOT/docs/campaigns.md" || { echo "docs/campaigns.md lacks $v"; false; }
		[[ $page == *"$v"* ]] || { echo "aller-campaign(1) lacks $v"; false; }
	done
}

@test "the README's links lead to files" {
	grep -o '](\(docs\|debian\)/[^)]*)' "$ROOT/README.md" | sed 's/^](//; s/)$//' >"$BATS_TEST_TMPDIR/links"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/links")" -ge 10 ]
	while read -r f; do
		[ -e "$ROOT/$f" ] || { echo "README links to a missing $f"; false; }
	done <"$BATS_TEST_TMPDIR/links"
}

@test "make install: module use, module load aller and man aller in a clean shell (Lmod; Lua and Tcl modulefiles)" {
	lmod=$(ls /usr/share/lmod/lmod/init/bash 2>/dev/null) || skip "Lmod is not installed (make deps)"
	prefix=$BATS_TEST_TMPDIR/inst
	run -0 make -s -C "$ROOT" install PREFIX="$prefix"
	ver=$("$ALLER" --version | awk '{ print $2 }')
	[ -f "$prefix/share/modulefiles/aller/$ver.lua" ]
	[ -f "$prefix/share/modulefiles/aller/$ver" ]
	for kind in lua tcl; do
		[ "$kind" = lua ] || rm "$prefix/share/modulefiles/aller/$ver.lua"
		run -0 env -i HOME="$BATS_TEST_TMPDIR" PATH=/usr/bin:/bin bash -c "
			. $lmod
			module use $prefix/share/modulefiles
			module load aller || exit 9
			aller-campaign --version
			command -v aller collect
			man -w aller collect aller-status
			echo share=\$ALLER_SHARE"
		[[ $output == *"aller-campaign $ver "* ]]
		[[ $output == *"$prefix/bin/aller"* ]]
		[[ $output == *"$prefix/share/man/man1/aller.1"* ]]
		[[ $output == *"$prefix/share/man/man1/collect.1"* ]]
		[[ $output == *"share=$prefix/share/aller"* ]]
	done
}

@test "collect(1)'s SYNOPSIS brackets what is optional as --help does, an operand never inside a flag's brackets" {
	# each usage line of --help, its words in order, is in the page's
	# SYNOPSIS with its brackets where --help has them
	synopsis=$(rendered collect.1 | sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | tr -s ' \t\n' ' ' | sed 's/ \.\.\./.../g')
	n=0
	while read -r line; do
		[[ $synopsis == *"$line"* ]] || { echo "collect(1) lacks '$line'"; false; }
		n=$((n + 1))
	done < <("$COLLECT" --help | sed -n 's/^\(usage:\)\{0,1\} *\(collect --\(state\|status\|safe-dir\|compare\|samples\|findings\|plots\) .*\)/\2/p')
	[ "$n" -eq 7 ]
}
