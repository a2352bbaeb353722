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
# in_ns ROLE CMD...: CMD in the network namespace of ROLE (sw, head, n1, ...)
in_ns() {
	local role=$1
	shift
	nsenter --net="$(ns_path "$role")" -- "$@"
}
node_ip() { printf '10.0.0.%d' "${1#n}"; }

# Leaves: the first half of the nodes under leaf1, the rest under leaf2; one
# leaf and no spine for a single node. topology.conf says the same.
leaf_count() { if [ "$CLUSTER_NODES" -gt 1 ]; then echo 2; else echo 1; fi; }
leaf_half() { echo $(((CLUSTER_NODES + 1) / 2)); }
leaf_of() {
	if [ "${1#n}" -le "$(leaf_half)" ]; then echo leaf1; else echo leaf2; fi
}
leaf_nodes() {
	local n
	for n in $(node_names); do [ "$(leaf_of "$n")" != "$1" ] || echo "$n"; done
}
# leaf_hostlist LEAF: its nodes as Slurm writes them (n[1-2], n3), or nothing
leaf_hostlist() {
	leaf_nodes "$1" | awk 'NR == 1 { a = substr($1, 2) } { b = substr($1, 2) }
		END { if (NR == 1) print "n" a; else if (NR > 1) print "n[" a "-" b "]" }'
}

# rate_kbit RATE: a tc rate (500mbit, 2gbit, 1.5gbit, 800kbit) in kbit/s
rate_kbit() {
	awk -v r="$1" 'BEGIN {
		if (!match(r, /^[0-9]+(\.[0-9]+)?/)) exit 1
		v = substr(r, 1, RLENGTH); u = substr(r, RLENGTH + 1)
		m = (u == "kbit") ? 1 : (u == "mbit") ? 1000 : (u == "gbit") ? 1000000 : -1
		if (m < 0 || v * m < 8) exit 1
		printf "%d\n", v * m }'
}
valid_rate() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?(kbit|mbit|gbit)$ ]] && rate_kbit "$1" >/dev/null; }

# The uplink of a leaf: its nodes' NIC rate over CLUSTER_OVERSUB.
uplink_kbit() {
	local n
	n=$(leaf_nodes "$1" | wc -l)
	awk -v k="$(rate_kbit "$CLUSTER_NIC_RATE")" -v n="$n" -v o="$CLUSTER_OVERSUB" 'BEGIN { printf "%d\n", k * n / o }'
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

# shape ROLE DEV KBIT [DST_IP KBIT]...: htb on DEV's egress in ROLE: the link
# at KBIT, each DST_IP given at its own KBIT (a slow path); with $DELAY_MS, a
# netem delay behind each class.
shape() {
	local role=$1 dev=$2 rate=$3 k=20
	shift 3
	in_ns "$role" tc qdisc del dev "$dev" root 2>/dev/null || true
	in_ns "$role" tc qdisc add dev "$dev" root handle 1: htb default 10
	in_ns "$role" tc class add dev "$dev" parent 1: classid 1:1 htb rate "${rate}kbit" ceil "${rate}kbit" \
		burst 64k cburst 64k quantum 60000
	in_ns "$role" tc class add dev "$dev" parent 1:1 classid 1:10 htb rate "${rate}kbit" ceil "${rate}kbit" \
		burst 64k cburst 64k quantum 60000
	[ -z "${DELAY_MS:-}" ] || in_ns "$role" tc qdisc replace dev "$dev" parent 1:10 handle 10: netem delay "${DELAY_MS}ms" limit 100000
	while [ $# -ge 2 ]; do
		in_ns "$role" tc class add dev "$dev" parent 1:1 classid "1:$k" htb rate "${2}kbit" ceil "${2}kbit" \
			burst 16k cburst 16k quantum 9000
		in_ns "$role" tc filter add dev "$dev" parent 1: protocol ip prio 1 u32 match ip dst "$1/32" flowid "1:$k"
		[ -z "${DELAY_MS:-}" ] || in_ns "$role" tc qdisc replace dev "$dev" parent "1:$k" handle "$k:" netem delay "${DELAY_MS}ms" limit 100000
		k=$((k + 1))
		shift 2
	done
}

# fault KIND [NODE]: the rows of $FAB/faults of that kind (and node).
fault() { awk -v k="$1" -v n="${2:-}" '$1 == k && (n == "" || $2 == n)' "$FAB/faults" 2>/dev/null; }

# nic_kbit NODE: the node's NIC rate now (slow-nic, else the built rate).
nic_kbit() {
	local r
	r=$(fault slow-nic "$1" | awk '{ r = $3 } END { print r }')
	rate_kbit "${r:-$CLUSTER_NIC_RATE}"
}

# apply_node NODE: the node's link as built, with the faults in force.
apply_node() {
	local n=$1 rate paths=() src dst r pct
	rate=$(nic_kbit "$n")
	while read -r _ src dst r; do
		paths+=("$(node_ip "$dst")" "$(rate_kbit "$r")")
	done < <(fault slow-link "$n")
	DELAY_MS=$(fault delay "$n" | awk '{ d = $3 } END { print d }')
	shape "$n" eth0 "$rate" "${paths[@]}"
	shape sw "$n" "$rate"
	DELAY_MS=""
	in_ns "$n" nft delete table inet aller 2>/dev/null || true
	pct=$(fault loss "$n" | awk '{ p = $3 } END { print p }')
	if [ -n "$pct" ]; then
		# loss in both directions: each packet in and out dropped with PCT %
		in_ns "$n" nft -f - <<NFT
table inet aller {
	chain out { type filter hook output priority 0; numgen random mod 10000 < $(awk -v p="$pct" 'BEGIN { printf "%d", p * 100 }') drop; }
	chain in { type filter hook input priority 0; numgen random mod 10000 < $(awk -v p="$pct" 'BEGIN { printf "%d", p * 100 }') drop; }
}
NFT
	fi
	if [ -n "$(fault link-down "$n")" ]; then
		in_ns sw ip link set "$n" down
	else
		in_ns sw ip link set "$n" up
	fi
}

apply_uplinks() {
	local leaf r
	[ "$(leaf_count)" -gt 1 ] || return 0
	for leaf in leaf1 leaf2; do
		r=$(uplink_kbit "$leaf")
		shape sw "up-$leaf" "$r"
		shape sw "dn-$leaf" "$r"
	done
}

# fabric_build: the namespaces, links, bridges and rates; the hosts file the
# nodes see; $FAB/links (what was built, for show and the tests).
fabric_build() {
	local n leaf
	mkdir -p "$FAB"
	: >"$FAB/faults"
	ip netns add "$NS-sw"
	ip netns add "$NS-head"
	in_ns sw ip link set lo up
	for leaf in leaf1 leaf2 spine; do
		[ "$leaf" = leaf1 ] || [ "$(leaf_count)" -gt 1 ] || continue
		in_ns sw ip link add name "$leaf" mtu "$MTU" type bridge
		in_ns sw ip link set "$leaf" up
	done
	if [ "$(leaf_count)" -gt 1 ]; then
		for leaf in leaf1 leaf2; do
			in_ns sw ip link add name "up-$leaf" mtu "$MTU" type veth peer name "dn-$leaf" mtu "$MTU"
			in_ns sw ip link set "up-$leaf" master "$leaf" up
			in_ns sw ip link set "dn-$leaf" master spine up
		done
	fi
	# the head (slurmctld, slurmdbd) on the spine, or the only leaf; not shaped
	in_ns sw ip link add name head mtu "$MTU" type veth peer name eth0 mtu "$MTU" netns "$(ns_path head)"
	in_ns sw ip link set head master "$([ "$(leaf_count)" -gt 1 ] && echo spine || echo leaf1)" up
	in_ns head ip addr add "$HEAD_IP/24" dev eth0
	in_ns head ip link set eth0 up
	in_ns head ip link set lo up
	{
		printf '127.0.0.1\tlocalhost\n%s\thead\n' "$HEAD_IP"
		for n in $(node_names); do printf '%s\t%s\n' "$(node_ip "$n")" "$n"; done
	} >"$FAB/hosts"
	printf 'link\tfrom\tto\trate_kbit\n' >"$FAB/links"
	for n in $(node_names); do
		leaf=$(leaf_of "$n")
		ip netns add "$NS-$n"
		in_ns sw ip link add name "$n" mtu "$MTU" type veth peer name eth0 mtu "$MTU" netns "$(ns_path "$n")"
		in_ns sw ip link set "$n" master "$leaf" up
		in_ns "$n" ip addr add "$(node_ip "$n")/24" dev eth0
		in_ns "$n" ip link set eth0 up
		in_ns "$n" ip link set lo up
		apply_node "$n"
		printf 'nic\t%s\t%s\t%s\n' "$n" "$leaf" "$(rate_kbit "$CLUSTER_NIC_RATE")" >>"$FAB/links"
	done
	apply_uplinks
	if [ "$(leaf_count)" -gt 1 ]; then
		for leaf in leaf1 leaf2; do
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
		cat >"$CLUSTER_DIR/bin/$cmd" <<WRAP
#!/bin/sh
# Generated by cluster/up.sh: $cmd in the local cluster's head namespace when
# called from outside the cluster; inside it (a job on a node), $cmd itself.
if [ "\$(readlink /proc/\$\$/ns/net)" = '$outside' ]; then
	exec nsenter --net='$(ns_path head)' -- '$real' "\$@"
fi
exec '$real' "\$@"
WRAP
		chmod 755 "$CLUSTER_DIR/bin/$cmd"
	done
}

# fabric_taken: the namespaces of CLUSTER_PORT are another cluster's (one
# whose state is not in this CLUSTER_DIR: fabric_build makes $FAB first).
fabric_taken() { [ -e "$(ns_path head)" ] || [ -e "$(ns_path sw)" ] && [ ! -d "$FAB" ]; }

# fabric_remove: every namespace of this cluster's (its links go with them).
fabric_remove() {
	local ns
	[ -d "$FAB" ] || return 0
	for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		case $ns in "$NS"-*) ip netns del "$ns" 2>/dev/null || true ;; esac
	done
	rm -rf "$FAB"
}
