#!/usr/bin/env bash
# tools/deps.sh [--list] [SET ...]: install the Debian packages a part of aller's
# toolkit needs, when missing. SET: demo (build, the local cluster, plots:
# what make demo and make cluster-up run), accounting (slurmdbd and MariaDB,
# with CLUSTER_ACCOUNTING=1), reframe (what the vendored ReFrame 4.9.3 runs
# on: Debian's python3 and its packages), tests (the test suite's tools), or
# all (default: every set; make deps, make test). --list prints the sets'
# packages, one per line, and installs nothing.
#
# Quiet and fast when everything is present. Runs 'apt-get update' only when
# something is missing. Without root, prints the exact install command and
# exits 1. Daemons that the packages would start at install time (munge,
# slurmd, mariadb, ...) are kept from starting: the local cluster starts its
# own instances (cluster/).
#
# Exit codes: 0 all present or installed, 1 something missing and not
# installable, 2 an unknown SET.
set -euo pipefail

declare -A sets=(
	[demo]="build-essential make pkg-config openmpi-bin libopenmpi-dev
		slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge gnuplot-nox
		util-linux procps iproute2 nftables"
	[accounting]="slurmdbd mariadb-server mariadb-client"
	[reframe]="python3 python3-jsonschema python3-lxml python3-requests python3-semver
		python3-fasteners python3-clustershell python3-tabulate python3-jinja2
		python3-argcomplete python3-yaml"
	[tests]="mpich libmpich-dev bats shellcheck libcmocka-dev perl strace clang libclang-rt-14-dev
		file time stress-ng python3 chromium lmod mandoc debhelper dpkg-dev
		prometheus prometheus-node-exporter"
)
packages=()
list=
[ "${1:-}" != --list ] || { list=1; shift; }
[ $# -gt 0 ] || set -- all
for set in "$@"; do
	case $set in
	all) for k in demo accounting reframe tests; do read -r -a p <<<"${sets[$k]//$'\n'/ }"; packages+=("${p[@]}"); done ;;
	demo | accounting | reframe | tests) read -r -a p <<<"${sets[$set]//$'\n'/ }"; packages+=("${p[@]}") ;;
	*) echo "deps: error: unknown set '$set': demo, accounting, reframe, tests or all are allowed" >&2; exit 2 ;;
	esac
done
# DEPS_PACKAGES replaces the list (for the tests of this script).
if [ -n "${DEPS_PACKAGES:-}" ]; then
	read -r -a packages <<<"$DEPS_PACKAGES"
fi
if [ -n "$list" ]; then
	printf '%s\n' "${packages[@]}" | sort -u
	exit 0
fi

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case $status in
	*" installed") ;;
	*) missing+=("$p") ;;
	esac
done

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: error: missing Debian packages: ${missing[*]}; as root, run: apt-get install ${missing[*]}" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}" >&2
# Keep maintainer scripts from starting system-wide daemons.
policy=${DEPS_POLICY:-/usr/sbin/policy-rc.d}   # DEPS_POLICY: another path, for the tests
made_policy=
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' >"$policy"
	chmod 755 "$policy"
	made_policy=1
fi
cleanup() { if [ -n "$made_policy" ]; then rm -f "$policy"; fi; }
trap cleanup EXIT
# a signal ends the script through its EXIT trap: the policy never outlives it
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# MPICH installs beside Open MPI: the system's mpicc and mpirun stay what they were.
alternatives() {
	local a
	for a in mpi mpirun; do
		printf '%s=%s\n' "$a" "$(update-alternatives --query "$a" 2>/dev/null | sed -n 's/^Value: //p')"
	done
}
before=$(alternatives)

export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
while IFS='=' read -r a value; do
	now=$(update-alternatives --query "$a" 2>/dev/null | sed -n 's/^Value: //p')
	if [ -n "$value" ] && [ "$now" != "$value" ]; then
		update-alternatives --set "$a" "$value" >/dev/null
		echo "deps: kept the $a alternative at $value" >&2
	fi
done <<<"$before"
echo "deps: installed ${#missing[@]} packages" >&2
