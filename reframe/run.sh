#!/usr/bin/env bash
# reframe/run.sh [--where | REFRAME OPTIONS ...] (make reframe): aller's
# ReFrame checks (reframe/aller.py) on the local Slurm cluster
# (reframe/local.py), with ReFrame 4.9.3 unpacked from REFRAME_TARBALL into
# build/reframe/ (nothing fetched; Debian's /usr/bin/python3 and the packages
# of make deps-reframe; by default the vendored tarball in ../shared/vendor
# beside this tree or beside the tree it was cloned from; --where prints it),
# or REFRAME=COMMAND, a ReFrame already installed. The aller of build/bin is
# first on PATH. Options go to ReFrame after '-r': -n/-x to pick checks, -S to
# set variables (-S busbw_ref=GBPS, -S min_busbw=GBPS). Its stage, output,
# perflogs and report (report.json) go to REFRAME_PREFIX (build/reframe/run;
# a directory the nodes share: not /tmp, which is each node's own).
# One retry (--max-retries=1): Open MPI 4.1.4 fails in connection set-up in
# about 1-2% of multi-node steps here.
# Exit: ReFrame's (0 all passed, 1 a check failed); 2 bad input.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'reframe: error: %s\n' "$1" >&2; exit 2; }
name='reframe-4.9.3+archspec-0.2.5.tar.gz'
tarball=${REFRAME_TARBALL:-}
if [ -z "$tarball" ]; then
	tarball=$root/../shared/vendor/$name
	origin=$(git -C "$root" remote get-url origin 2>/dev/null || true)
	if [ ! -f "$tarball" ] && [ -n "$origin" ] && [ -f "$origin/../shared/vendor/$name" ]; then
		tarball=$(cd "$origin/../shared/vendor" && pwd)/$name
	fi
fi
if [ "${1:-}" = --where ]; then
	[ -f "$tarball" ] || die "REFRAME_TARBALL '$tarball': no such file"
	printf '%s\n' "$tarball"
	exit 0
fi
prefix=${REFRAME_PREFIX:-$root/build/reframe/run}
if [ -n "${REFRAME:-}" ]; then
	read -r -a reframe <<<"$REFRAME"
	command -v "${reframe[0]}" >/dev/null || die "REFRAME '$REFRAME': no such command"
else
	[ -f "$tarball" ] || die "REFRAME_TARBALL '$tarball': no such file (ReFrame 4.9.3's release with archspec, or REFRAME=COMMAND)"
	dir=$root/build/reframe
	stamp=$dir/.unpacked
	if [ ! -e "$stamp" ] || [ "$(cat "$stamp")" != "$tarball" ] || [ "$tarball" -nt "$stamp" ]; then
		rm -rf "$dir/dist" && mkdir -p "$dir/dist"
		tar -xzf "$tarball" -C "$dir/dist" || die "REFRAME_TARBALL '$tarball': cannot unpack it"
		printf '%s\n' "$tarball" >"$stamp"
	fi
	bin=$(find "$dir/dist" -maxdepth 3 -path '*/bin/reframe' | head -n 1)
	[ -n "$bin" ] || die "REFRAME_TARBALL '$tarball': no bin/reframe in it"
	arch=$(find "$dir/dist" -maxdepth 1 -name 'archspec-*' | head -n 1)
	export PYTHONPATH=${arch}${PYTHONPATH:+:$PYTHONPATH}
	reframe=(/usr/bin/python3 "$bin")
fi
[ -x "$root/build/bin/aller" ] || die "no build/bin/aller: run make first"
[ -r "$root/build/cluster/env.sh" ] || die "the local cluster is not up: run make cluster-up"
# shellcheck source=/dev/null
. "$root/build/cluster/env.sh"
export PATH=$root/build/bin:$PATH
mkdir -p "$prefix"
cd "$prefix"
exec "${reframe[@]}" -C "$root/reframe/local.py" -c "$root/reframe/aller.py" --prefix "$prefix" \
	--report-file "$prefix/report.json" --max-retries=1 -r "$@"
