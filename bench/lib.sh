# bench/lib.sh: what the MPI benchmark scripts share. Sourced; expects
# $ranks, $rounds and $tmp (files NAME.ROUND of "count seconds" rows).
# shellcheck shell=bash disable=SC2154 # set by the sourcing script
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
run() { mpirun --oversubscribe --bind-to none -np "$ranks" "$@"; }
# aller's world-communicator rows (level 0) as "count tavg_s".
world_rows() { awk '/^# level: 1 /{ done = 1 } !done && /^[0-9]/ { print $3, $6 }'; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# med NAME COUNT: the median over rounds of NAME's time at COUNT.
med() { for ((r = 1; r <= rounds; r++)); do awk -v c="$2" '$1 == c { print $2 }' "$tmp/$1.$r"; done | median; }
