# cluster/net.sh: the local cluster's fabric (CLUSTER_FABRIC=veth): one
# network namespace per node with one NIC (eth0, a veth pair), the NICs of a
# leaf switch joined by a Linux bridge, each switch joined to the one above
# by an uplink (the leaves to a spine, or CLUSTER_TIERS=3 to aggregation
# switches under a core: cluster/plan.c), and a head namespace on the top
# switch for the controller. Every
# namespace is the cluster's own ($NS-*); no address or link is made outside
# them. Rates are tc htb limits on both ends of each link; faults (fabric.sh)
# are rows of $FAB/faults, and every shaping is rebuilt from the built rates
# and those rows, so heal is "no rows".
# Sourced by lib.sh, not run.
# shellcheck shell=bash disable=SC2034 # the settings are used by the scripts that source this

NS=aller$CLUSTER_PORT
FAB=$CLUSTER_DIR/fabric
CPU=/sys/fs/cgroup/cpu/aller-$CLUSTER_PORT   # the port's cgroup v1 cpu groups, a slow node's each (fabric.sh slow-node)
NETNS_DIR=/run/netns
HEAD_IP=10.0.0.254
MTU=9000

fabric_on() { [ "$CLUSTER_FABRIC" = veth ]; }
ns_path() { printf '%s/%s-%s' "$NETNS_DIR" "$NS" "$1"; }
# ns_add NAME: a namespace made, and listed in $FAB/namespaces: the only ones
# this cluster's scripts ever remove or shape (fabric_mine)
ns_add() { ip netns add "$1" && echo "$1" >>"$FAB/namespaces"; }
# fabric_mine: the namespaces of this port are this CLUSTER_DIR's own
fabric_mine() { grep -qx "$NS-sw" "$FAB/namespaces" 2>/dev/null; }
# in_ns ROLE CMD...: CMD in the network namespace of ROLE (sw, head, n1, ...)
in_ns() {
	local role=$1
	shift
	nsenter --net="$(ns_path "$role")" -- "$@"
}
node_ip() { printf '10.0.0.%d' "${1#n}"; }
# shellcheck source=cluster/shape.sh
. "$CLUSTER_ROOT/cluster/shape.sh"

# The fabric's plan (cluster/plan.c, from the settings): a table of links,
# "nic NODE LEAF KBIT" and "uplink SWITCH PARENT KBIT" rows, the switches a
# tree of CLUSTER_TIERS; topology.conf says the same (plan -t). Once built,
# $FAB/links holds it, and the running fabric is read from there.
# plan links|-t: the table, or topology.conf
plan() {
	# shellcheck disable=SC2086 # -t or nothing; CLUSTER_OVERSUB: a factor per tier boundary
	"$CLUSTER_PLAN" ${1#links} "$CLUSTER_NODES" "$CLUSTER_TIERS" "${CLUSTER_LEAVES:-0}" "$CLUSTER_RAILS" "$(rate_kbit "$CLUSTER_NIC_RATE")" $CLUSTER_OVERSUB
}
# links KIND: the built table's rows of KIND (nic, uplink) as "FROM TO KBIT"
# (a NIC's then "DEV PORT ADDRESS"); leaf_of NIC: its leaf; nics_of NODE: its
# NICs (the node, or NODE:DEV with rails) as "NIC DEV PORT ADDRESS"
links() { awk -F'\t' -v k="$1" '$1 == k { print $2, $3, $4, $5, $6, $7 }' "$FAB/links"; }
leaf_of() { awk -F'\t' -v n="$1" '$1 == "nic" && $2 == n { print $3 }' "$FAB/links"; }
nics_of() { awk -F'\t' -v n="$1" '$1 == "nic" && ($2 == n || index($2, n ":") == 1) { print $2, $5, $6, $7 }' "$FAB/links"; }


# fabric_available: one line why not, or nothing.
fabric_available() {
	local probe=$NS-probe$$ c
	for c in ip tc nsenter; do
		command -v "$c" >/dev/null || { echo "'$c' is missing (iproute2, util-linux)"; return 0; }
	done
	ip netns add "$probe" 2>/dev/null || { echo "network namespaces are not available (ip netns add failed)"; return 0; }
	if ! ip -n "$probe" link add name pa type veth peer name pb 2>/dev/null; then
		echo "veth pairs are not available"
	elif ! tc -n "$probe" qdisc add dev pa root handle 1: htb default 10 2>/dev/null; then
		echo "tc cannot shape here (htb)"
	fi
	ip netns del "$probe" 2>/dev/null || true
}


# attach ROLE BRIDGE IP [DEV PORT]: ROLE's namespace made where it is not
# (its loopback up; each NIC answers ARP for its own address alone, else a
# node's rails, on one switched fabric, would take each other's bytes), a
# NIC of it (DEV, eth0) a veth pair whose switch end (PORT, named ROLE) is a
# port of BRIDGE, at IP.
attach() {
	[ -e "$(ns_path "$1")" ] || { ns_add "$NS-$1" && in_ns "$1" ip link set lo up &&
		in_ns "$1" sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2; }
	in_ns sw ip link add name "${5:-$1}" mtu "$MTU" type veth peer name "${4:-eth0}" mtu "$MTU" netns "$(ns_path "$1")"
	in_ns sw ip link set "${5:-$1}" master "$2" up
	in_ns "$1" ip addr add "$3/24" dev "${4:-eth0}"
	in_ns "$1" ip link set "${4:-eth0}" up
}

# fabric_build: the namespaces, links, bridges and rates of the plan; the
# hosts file the nodes see; $FAB/links (what was built, for show and the tests).
fabric_build() {
	local n b from to
	mkdir -p "$FAB"
	: >"$FAB/faults"
	plan links >"$FAB/links"
	ns_add "$NS-sw"
	in_ns sw ip link set lo up
	while read -r b; do
		in_ns sw ip link add name "$b" mtu "$MTU" type bridge
		in_ns sw ip link set "$b" up
	done < <(awk -F'\t' 'NR > 1 { print $3 } $1 == "uplink" { print $2 }' "$FAB/links" | sort -u)
	while read -r from to _; do
		in_ns sw ip link add name "up-$from" mtu "$MTU" type veth peer name "dn-$from" mtu "$MTU"
		in_ns sw ip link set "up-$from" master "$from" up
		in_ns sw ip link set "dn-$from" master "$to" up
	done < <(links uplink)
	# the head (slurmctld, slurmdbd) on the top switch (no uplink), or the only leaf; not shaped
	attach head "$(awk -F'\t' 'NR > 1 { to[$3] } $1 == "uplink" { up[$2] } END { for (s in to) if (!(s in up)) print s }' \
		"$FAB/links" | head -n 1)" "$HEAD_IP"
	{
		printf '127.0.0.1\tlocalhost\n%s\thead\n' "$HEAD_IP"
		for n in $(node_names); do printf '%s\t%s\n' "$(node_ip "$n")" "$n"; done
	} >"$FAB/hosts"
	while read -r nic leaf _ dev port addr; do attach "${nic%%:*}" "$leaf" "$addr" "$dev" "$port"; done < <(links nic)
	for n in $(node_names); do apply_node "$n"; done
	apply_uplinks
}

# client_wrappers: $CLUSTER_DIR/bin/sbatch and the other Slurm clients, that
# run the real one in the head's namespace when called from where the cluster
# was started (this machine's own), and run it as it is inside the cluster (a
# job on a node).
client_wrappers() {
	local cmd real outside
	mkdir -p "$CLUSTER_DIR/bin"
	outside=$(readlink /proc/self/ns/net)
	for cmd in sbatch srun salloc squeue scontrol scancel sinfo sacct sacctmgr sstat sprio sshare sattach \
		sbcast scrontab sdiag sreport strigger; do
		real=$(command -v "$cmd") || continue
		render "$CLUSTER_ROOT/cluster/client.in" CMD="$cmd" OUTSIDE="$outside" HEAD_NS="$(ns_path head)" \
			REAL="$real" >"$CLUSTER_DIR/bin/$cmd"
		chmod 755 "$CLUSTER_DIR/bin/$cmd"
	done
}

# fabric_taken: the namespaces of CLUSTER_PORT are another cluster's (not
# listed in this CLUSTER_DIR's $FAB/namespaces).
fabric_taken() { { [ -e "$(ns_path head)" ] || [ -e "$(ns_path sw)" ]; } && ! fabric_mine; }

# ns_list: the namespaces of CLUSTER_PORT ($NS-*) that exist
ns_list() {
	local ns
	for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		case $ns in "$NS"-*) echo "$ns" ;; esac
	done
}

# fabric_orphaned: namespaces of CLUSTER_PORT exist and no process runs in
# any of them: a cluster whose processes ended without 'make cluster-down'
# (a session or a machine's user that stopped) left them behind.
fabric_orphaned() {
	local ns found=0
	for ns in $(ns_list); do
		found=1
		[ -z "$(ip netns pids "$ns" 2>/dev/null)" ] || return 1
	done
	[ "$found" = 1 ]
}

fabric_remove_namespaces() {
	local ns
	for ns in $(ns_list); do ip netns del "$ns" 2>/dev/null || true; done
}

# fabric_remove: every namespace this cluster made ($FAB/namespaces; their
# links go with them), none of another's.
fabric_remove() {
	local ns
	[ -d "$FAB" ] || return 0
	while read -r ns; do ip netns del "$ns" 2>/dev/null || true; done <"$FAB/namespaces" 2>/dev/null || true
	rm -rf "$FAB"
	rmdir "$CPU"/n* "$CPU" 2>/dev/null || true   # the nodes' processes ended before (down.sh)
}
