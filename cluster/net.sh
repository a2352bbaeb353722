# cluster/net.sh: the local cluster's fabric (CLUSTER_FABRIC=veth): one
# network namespace per node with one NIC (eth0, a veth pair), the NICs of a
# leaf switch joined by a Linux bridge, the leaves joined to a spine bridge by
# uplinks, and a head namespace on the spine for the controller. Every
# namespace is the cluster's own ($NS-*); no address or link is made outside
# them. Rates are tc htb limits on both ends of each link; faults (fabric.sh)
# are rows of $FAB/faults, and every shaping is rebuilt from the built rates
# and those rows, so heal is "no rows".
# Sourced by lib.sh, not run.
# shellcheck shell=bash disable=SC2034 # the settings are used by the scripts that source this

NS=aller$CLUSTER_PORT
FAB=$CLUSTER_DIR/fabric
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

# Leaves: CLUSTER_LEAVES of them (2, one for one node), the nodes in blocks
# in order (4 nodes, 2 leaves: n1-n2, n3-n4; 3 leaves: n1-n2, n3, n4); no
# spine for one leaf. topology.conf says the same.
leaf_count() { echo "${CLUSTER_LEAVES:-$((CLUSTER_NODES > 1 ? 2 : 1))}"; }
leaf_names() { seq -f 'leaf%g' "$(leaf_count)"; }
leaf_of() { echo "leaf$(((${1#n} - 1) * $(leaf_count) / CLUSTER_NODES + 1))"; }
leaf_nodes() {
	local n
	for n in $(node_names); do [ "$(leaf_of "$n")" != "$1" ] || echo "$n"; done
}
# leaf_hostlist LEAF: its nodes as Slurm writes them (n[1-2], n3), or nothing
leaf_hostlist() {
	leaf_nodes "$1" | awk 'NR == 1 { a = substr($1, 2) } { b = substr($1, 2) }
		END { if (NR == 1) print "n" a; else if (NR > 1) print "n[" a "-" b "]" }'
}


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


# attach ROLE BRIDGE IP: ROLE's namespace made, its NIC (eth0) a veth pair
# whose switch end (named ROLE) is a port of BRIDGE, at IP; its loopback up.
attach() {
	ns_add "$NS-$1"
	in_ns sw ip link add name "$1" mtu "$MTU" type veth peer name eth0 mtu "$MTU" netns "$(ns_path "$1")"
	in_ns sw ip link set "$1" master "$2" up
	in_ns "$1" ip addr add "$3/24" dev eth0
	in_ns "$1" ip link set eth0 up
	in_ns "$1" ip link set lo up
}

# fabric_build: the namespaces, links, bridges and rates; the hosts file the
# nodes see; $FAB/links (what was built, for show and the tests).
fabric_build() {
	local n leaf
	mkdir -p "$FAB"
	: >"$FAB/faults"
	ns_add "$NS-sw"
	in_ns sw ip link set lo up
	for leaf in $(leaf_names) $([ "$(leaf_count)" -eq 1 ] || echo spine); do
		in_ns sw ip link add name "$leaf" mtu "$MTU" type bridge
		in_ns sw ip link set "$leaf" up
	done
	if [ "$(leaf_count)" -gt 1 ]; then
		for leaf in $(leaf_names); do
			in_ns sw ip link add name "up-$leaf" mtu "$MTU" type veth peer name "dn-$leaf" mtu "$MTU"
			in_ns sw ip link set "up-$leaf" master "$leaf" up
			in_ns sw ip link set "dn-$leaf" master spine up
		done
	fi
	# the head (slurmctld, slurmdbd) on the spine, or the only leaf; not shaped
	attach head "$([ "$(leaf_count)" -gt 1 ] && echo spine || echo leaf1)" "$HEAD_IP"
	{
		printf '127.0.0.1\tlocalhost\n%s\thead\n' "$HEAD_IP"
		for n in $(node_names); do printf '%s\t%s\n' "$(node_ip "$n")" "$n"; done
	} >"$FAB/hosts"
	printf 'link\tfrom\tto\trate_kbit\n' >"$FAB/links"
	for n in $(node_names); do
		leaf=$(leaf_of "$n")
		attach "$n" "$leaf" "$(node_ip "$n")"
		apply_node "$n"
		printf 'nic\t%s\t%s\t%s\n' "$n" "$leaf" "$(rate_kbit "$CLUSTER_NIC_RATE")" >>"$FAB/links"
	done
	apply_uplinks
	if [ "$(leaf_count)" -gt 1 ]; then
		for leaf in $(leaf_names); do
			printf 'uplink\t%s\tspine\t%s\n' "$leaf" "$(uplink_kbit "$leaf")" >>"$FAB/links"
		done
	fi
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
}
