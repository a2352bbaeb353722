#!/usr/bin/env bash
# cluster/fabric.sh COMMAND ...: faults in the local cluster's fabric (net.sh),
# made in the network, never in aller: a real link, NIC or switch port slowed,
# cut or made lossy. Each fault is a row of build/cluster/fabric/faults (read
# by the tests, and by jobs through 'info'), and every command rebuilds the
# shaping of what it touches from the built rates and those rows.
#
#   slow-link SRC DST RATE   the path from SRC's NIC to DST at RATE (one way)
#   slow-nic NODE RATE       NODE's NIC at RATE, both ways (with rails each of
#                            them; NODE:eth1 one)
#   slow-rx NODE RATE        as slow-nic, into NODE only (its switch port's
#                            egress); slow-tx NODE RATE: out of it only (its NIC's)
#   slow-uplink SWITCH RATE  SWITCH's uplink (a leaf's, an aggregation switch's)
#                            at RATE, both ways
#   slow-node NODE FACTOR    not the network: NODE's processes (its slurmd, so
#                            each job step after) in a cgroup v1 cpu group of
#                            the port's, capped together at 1/FACTOR (1..99) of
#                            one CPU (1 ms each FACTOR ms); heal removes it
#   delay NODE MS            MS more each way through NODE's NIC (needs netem)
#   loss NODE PERCENT        PERCENT of the packets in and out of NODE dropped
#   link-down NODE           NODE's switch port down; link-up NODE: up again
#   move NODE LEAF           NODE's cable moved to LEAF's switch (Slurm's topology
#                            and 'info' still say the leaf it was built on)
#   heal                     every link back to its built rate, no fault
#   show                     each NIC, uplink and fault now in force
#   info [NODE]              NODE's NIC, rates and faults as 'key value' lines
#                            (a job's provenance); no NODE: the job's node in
#                            a job, else every node's (on the host)
# RATE: a number and kbit, mbit or gbit (e.g. 200mbit), as cluster-plan rate reads
# it: 8kbit to 1000gbit, slow-nic's (-rx, -tx) at most the NIC's built rate. Exit codes: 0 done,
# 1 no fabric up (or the kernel lacks what the fault needs), 2 a bad command
# or value.
set -euo pipefail
here=$(dirname "$0")
# shellcheck source=cluster/lib.sh
. "$here/lib.sh"

usage() {
	printf 'fabric: error: %s\n' "$1" >&2
	printf 'usage: fabric.sh slow-link SRC DST RATE | slow-nic|slow-rx|slow-tx NODE[:DEV] RATE | slow-uplink SWITCH RATE |\n' >&2
	printf '       slow-node NODE FACTOR |\n' >&2
	printf '       delay NODE MS | loss NODE PERCENT | link-down|link-up NODE | move NODE LEAF | heal | show | info [NODE]\n' >&2
	exit 2
}
fail() { printf 'fabric: error: %s\n' "$*" >&2; exit "${code:-1}"; }   # one line, exit 1
refuse() { code=2 fail "$@"; }   # a bad value: one line, exit 2

[ $# -ge 1 ] || usage "no command"
cmd=$1; shift

[ "$cmd" != build ] || { fabric_build; exit 0; }   # up.sh's: the fabric as configured, no fault

# The command's words checked before anything is read or touched: a bad
# command or value is exit 2 with or without a fabric. The nodes' range
# (node_arg) needs the running fabric.
# a rate: cluster-plan's (rate_kbit), at most MAX_KBIT where given (a NIC's built rate)
rate_arg() { local why; why=$(rate_kbit "$@" 2>&1 >/dev/null) || refuse "$cmd: $why"; }
args() { [ "$1" -eq "$2" ] || usage "$cmd takes $2 argument$([ "$2" -eq 1 ] || echo s), not $1"; }
node_form() { [[ $1 =~ ^n[1-9][0-9]{0,3}$ ]] || usage "$cmd: node '$1' is not a node's name (n1, n2, ...)"; }
case $cmd in
slow-link) args $# 3; node_form "$1"; node_form "$2"; rate_arg "$3"
	[ "$1" != "$2" ] || usage "slow-link: SRC and DST are the same node '$1'" ;;
slow-nic | slow-rx | slow-tx) args $# 2; node_form "${1%%:*}"; rate_arg "$2"
	[[ $1 != *:* || $1 =~ :eth[0-9]$ ]] || usage "$cmd: '$1' is not a node's name or a NIC's (n1:eth1)" ;;
slow-node) args $# 2; node_form "$1"; [[ $2 =~ ^[1-9][0-9]?$ ]] || usage "slow-node: '$2' is not a factor 1..99 (its CPU at 1/FACTOR of one)" ;;
slow-uplink) args $# 2; [[ $1 =~ ^(leaf|agg)[1-9][0-9]{0,2}$ ]] || usage "slow-uplink: '$1' is not a switch's name (leaf1, agg1, ...)"; rate_arg "$2" ;;
delay) args $# 2; node_form "$1"
	number_in "$2" 0 10000 || usage "delay: '$2' is not a delay in ms above 0 and at most 10000" ;;
loss) args $# 2; node_form "$1"
	number_in "$2" 0 100 || usage "loss: '$2' is not a percentage above 0 and at most 100" ;;
link-down | link-up) args $# 1; node_form "$1" ;;
move) args $# 2; node_form "$1"; [[ $2 =~ ^leaf[1-9][0-9]{0,2}$ ]] || usage "move: '$2' is not a leaf's name (leaf1, leaf2, ...)" ;;
heal | show) args $# 0 ;;
info) [ $# -le 1 ] || usage "info takes at most one node"; [ $# -eq 0 ] || node_form "$1" ;;
*) usage "unknown command '$cmd'" ;;
esac

{ [ -s "$FAB/links" ] && [ -e "$(ns_path sw)" ]; } ||
	fail "no fabric is up: 'make cluster-up' builds one (CLUSTER_FABRIC=veth, the default)"
fabric_mine || fail "the namespaces of port $CLUSTER_PORT are not this cluster's ($CLUSTER_DIR made none of them): not touched"
# the running fabric's nodes, whatever the environment says now
CLUSTER_NODES=$(links nic | grep -vc '^n[0-9]*:eth[1-9]')

node_arg() {
	{ node_form "$1" && [ "${1#n}" -le "$CLUSTER_NODES" ]; } || usage "$cmd: node '$1' is not one of n1..n$CLUSTER_NODES"
}

# set_fault KEY_FIELDS ROW: ROW replaces the rows that begin with KEY_FIELDS
set_fault() {
	local key=$1 row=${2:-}
	awk -v k="$key" 'index($0 " ", k " ") != 1' "$FAB/faults" >"$FAB/faults.new"
	[ -z "$row" ] || printf '%s\n' "$row" >>"$FAB/faults.new"
	mv "$FAB/faults.new" "$FAB/faults"
}

# show: each link as it is now; a NIC's row (with rails NODE:DEV) says its
# own faults and its node's (link-down, delay, loss, slow-nic of the node:
# they act on each of its NICs), and is down while its node is cut
show() {
	local kind from to kbit state
	printf '%-7s %-6s %-6s %-9s %-5s %s\n' link from to rate state faults
	while IFS=$'\t' read -r kind from to kbit _; do
		[ "$kind" != link ] || continue
		kbit=$(rate_now "$kind" "$from" "slow-$kind")   # a NIC's slow-nic, an uplink's slow-uplink
		state=$([ -z "$(fault link-down "${from%%:*}")" ] && echo up || echo down)
		printf '%-7s %-6s %-6s %-9s %-5s %s\n' "$kind" "$from" "$to" "$(kbit_rate "$kbit")" "$state" \
			"$(awk -v n="$from" '$2 == n || $2 == substr(n, 1, index(n ":", ":") - 1)' "$FAB/faults" | paste -sd';' - | sed 's/;/; /g')"
	done <"$FAB/links"
}

# info [NODE]: key value lines for a job's provenance, each node's NICs (no
# NODE, in a job: its node; on the host: every node), then the faults once
info() {
	local n nic dev addr leaf
	for n in ${1:-${SLURMD_NODENAME:-$(node_names)}}; do
		node_arg "$n"
		while read -r nic dev _ addr; do   # each NIC (with rails NODE:DEV), at the rate it was built with
			leaf=$(leaf_of "$nic")
			printf 'nic %s %s %s\nnic_rate %s %skbit\nnic_burst %s %s\nswitch %s %s\n' "$n" "$dev" "$addr" "$nic" \
				"$(links nic | awk -v n="$nic" '$1 == n { print $3 }')" "$nic" "$SHAPE_BURST" "$nic" "$leaf"
			# each switch's uplink from the NIC's leaf up, and the switch above it (Slurm's
			# topology puts a node under one leaf: with rails, rail 0's)
			links uplink | awk -v s="$leaf" -v b="$SHAPE_BURST" '{ up[$1] = $2; r[$1] = $3 }
				END { for (; s in up; s = up[s]) print "uplink_rate " s " " r[s] "kbit\nuplink_burst " s " " b "\nparent " s " " up[s] }'
		done < <(nics_of "$n")
	done
	if [ -s "$FAB/faults" ]; then sed 's/^/fault /' "$FAB/faults"; else echo "fault none"; fi
}

exec 9>"$FAB/lock"
flock 9
# (the words' forms were checked above; here what needs the running fabric)
case $cmd in
slow-link | slow-[nrt][ixo]* | delay | loss | link-down | link-up | move) node_arg "${1%%:*}" ;;&
slow-link) node_arg "$2"; set_fault "slow-link $1 $2" "slow-link $*" ;;
slow-nic | slow-rx | slow-tx) [[ $1 != *:* || -n $(leaf_of "$1") ]] || usage "$cmd: '$1' is not one of $(nics_of "${1%%:*}" | cut -d' ' -f1 | paste -sd' ')"
	# slower than it is built, never faster: a NIC's cap is its built rate
	rate_arg "$2" "$(links nic | awk -v n="$1" '$1 == n || index($1, n ":") == 1 { print $3; exit }')"
	set_fault "$cmd $1" "$cmd $*" ;;
slow-node) [ -w "${CPU%/*}/cgroup.procs" ] || fail "slow-node: no cgroup v1 cpu controller to write at ${CPU%/*}"
	set_fault "slow-node $1" "slow-node $*"; mkdir -p "$CPU/$1"   # 1 ms of CPU each FACTOR ms: a slower CPU, not long stops
	echo 1000 >"$CPU/$1/cpu.cfs_quota_us"; echo $((1000 * $2)) >"$CPU/$1/cpu.cfs_period_us"
	for p in $(node_ns_pids "$1"); do echo "$p" >"$CPU/$1/cgroup.procs" 2>/dev/null || true; done ;;
slow-uplink) [ -n "$(links uplink)" ] || fail "slow-uplink: this fabric has one leaf and no uplink (CLUSTER_NODES=$CLUSTER_NODES)"
	links uplink | grep -q "^$1 " || usage "slow-uplink: '$1' is not one of $(links uplink | cut -d' ' -f1 | paste -sd' ')"
	set_fault "slow-uplink $1" "slow-uplink $*"; apply_uplinks ;;
delay) netem_available || fail "delay: this kernel has no netem qdisc (sch_netem), which delay needs; slow-link, slow-nic, loss and link-down work without it" ;;&
loss) command -v nft >/dev/null || fail "loss: nft (nftables) is missing: run 'make deps'" ;;&
delay | loss) set_fault "$cmd $1" "$cmd $*" ;;
link-down | link-up) set_fault "link-down $1" "$([ "$cmd" = link-up ] || echo "link-down $1")" ;;
move) links nic | grep -q " $2 " || usage "move: '$2' is not one of $(links nic | cut -d' ' -f2 | sort -uV | paste -sd' ')"
	set_fault "move $1" "move $*" ;;
heal) : >"$FAB/faults"
	for n in $(node_names); do apply_node "$n"; done
	for g in "$CPU"/n*/; do   # a slow node's group uncapped, its processes back in the root group, removed
		[ ! -d "$g" ] || { echo -1 >"$g/cpu.cfs_quota_us"; while read -r p; do echo "$p" >"${CPU%/*}/cgroup.procs" 2>/dev/null || true
			done <"$g/cgroup.procs"; rmdir "$g" "$CPU" 2>/dev/null || true; }
	done
	apply_uplinks ;;
show | info) "$cmd" "$@" ;;
esac
# a node's fault: its link rebuilt with the faults in force
case $cmd in slow-link | slow-[nrt][ix]* | delay | loss | link-down | link-up | move) apply_node "${1%%:*}" ;; esac
