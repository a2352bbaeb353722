# sh/write.sh: the shell's one door for writing a result (docs/security.md,
# "Writing a result"); common/replace.c is the C one. Sourced by
# sh/toolkit.sh, so every script has it; the jobs' jobs/job-lib.sh sources
# it from the toolkit too. tests/cli/door-write.bats lists the redirections
# that go around it.
#
# write_file PATH COMMAND [ARG...]: COMMAND's standard output, whole or not
# at all: written into a new temporary beside PATH (mktemp: a name no one
# can guess, created new, never through a link), renamed over PATH only
# when COMMAND succeeded and every byte went. Another user's symbolic link
# at PATH is refused (a link of one's own is followed: its file is
# replaced), and so is a directory others can write into that fails the
# safe-dir rule (collect --safe-dir). A write that fails leaves PATH as it
# was and no temporary: write_failed says so in one line (exit 3).
#
# append_lines FILE LINE...: the lines added at FILE's end (a record file: a
# manifest, a point file), each whole; a failure is write_failed's too.
#
# write_failed WHY: what a failed write does: "TOOL: error: WHY", exit 3 (a
# script that must undo what it wrote first, as a submission, redefines it).
# shellcheck shell=bash

write_failed() { die "$1" 3; }

# write_place PATH: into WRITE_PATH, PATH with a link of one's own resolved,
# or a refusal; each directory checked once (WRITE_DIRS), without a fork
# for the next write into it (a submission of thousands of jobs).
declare -A WRITE_DIRS=()
write_place() {
	local owner dir
	WRITE_PATH=$1
	if [ -L "$1" ]; then
		owner=$(stat -c %u "$1")
		[ "$owner" = "$(id -u)" ] || die "not writing '$1': it is a symbolic link of another user (uid $owner): remove it or name another file"
		WRITE_PATH=$(readlink -f -- "$1") || die "not writing '$1': a symbolic link to nothing"
	fi
	dir=${WRITE_PATH%/*} && [[ $WRITE_PATH == */* ]] || dir=.
	# a directory others can write into is held to the rule (collect --safe-dir says why not)
	[ -n "${WRITE_DIRS[${dir:=/}]:-}" ] || [ -z "$(find "$dir" -maxdepth 0 -perm /022 2>/dev/null)" ] || safe_dir "$dir"
	WRITE_DIRS[$dir]=1
}

write_file() {
	local tmp why
	write_place "$1"
	tmp=$(mktemp -- "$WRITE_PATH.XXXXXX" 2>&1) || write_failed "cannot write '$WRITE_PATH': ${tmp##*: }"
	if why=$({ "${@:2}" >"$tmp"; } 2>&1) && mv -fT -- "$tmp" "$WRITE_PATH" 2>/dev/null; then
		[ -z "$why" ] || printf '%s\n' "$why" >&2   # the command's warnings
	else
		rm -f -- "$tmp"; [ ! -d "$WRITE_PATH" ] || why="it is a directory"   # (mv -T: never into it)
		why=${why##*$'\n'} why=${why##*write error: }   # its last line; bash's "...: write error: WHY" as WHY
		write_failed "cannot write '$WRITE_PATH': ${why:-its command failed}"
	fi
}

append_lines() { write_place "$1"; [ ! -e "$WRITE_PATH" ] || [ -f "$WRITE_PATH" ] || write_failed "cannot write '$WRITE_PATH': it is not a regular file"
	{ printf '%s\n' "${@:2}" >>"$WRITE_PATH"; } 2>/dev/null || write_failed "cannot write '$WRITE_PATH' (a full disk?)"; }
