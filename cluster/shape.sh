# cluster/shape.sh: the fabric's rates (net.sh): tc rates in kbit/s and the
# htb shaping of each link rebuilt from the built rates and the faults in
# force ($FAB/faults, fabric.sh). Sourced by net.sh.
# shellcheck shell=bash

# rate_kbit RATE [MAX_KBIT]: a tc rate (500mbit, 2gbit, 1.5gbit, 800kbit) in
# kbit/s, 8 kbit/s to MAX_KBIT (a terabit/s without); else the reason on
# stderr and exit 2. The C tool reads it (cluster-plan rate, the number door
# aller and collect read theirs with), never a regex of ours.
rate_kbit() { "$CLUSTER_PLAN" rate "$@"; }
valid_rate() { rate_kbit "$1" >/dev/null 2>&1; }

# netem_available: whether this kernel has the netem qdisc
netem_available() {
	in_ns sw tc qdisc add dev lo root handle 9: netem delay 1ms 2>/dev/null || return 1
	in_ns sw tc qdisc del dev lo root 2>/dev/null || true
}

# kbit_rate KBIT: the rate as shape.sh reads it (1gbit, 500mbit, 64kbit)
kbit_rate() {
	awk -v k="$1" 'BEGIN { if (k % 1000000 == 0) printf "%dgbit\n", k / 1000000
		else if (k % 1000 == 0) printf "%dmbit\n", k / 1000; else printf "%dkbit\n", k }'
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
		burst "$SHAPE_BURST" cburst "$SHAPE_BURST" quantum 60000
	in_ns "$role" tc class add dev "$dev" parent 1:1 classid 1:10 htb rate "${rate}kbit" ceil "${rate}kbit" \
		burst "$SHAPE_BURST" cburst "$SHAPE_BURST" quantum 60000
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

# fault_value KIND NODE: the value of NODE's last fault of that kind (a rate, ms, %), or nothing.
fault_value() { fault "$1" "$2" | awk '{ v = $3 } END { print v }'; }

# rate_now KIND NAME FAULT...: a link's rate now, kbit/s: its first FAULT's in
# force (slow-tx, then slow-nic, ...), else the built one ($FAB/links's,
# whatever the environment says now; a NODE:DEV of rails takes its node's
# fault too).
rate_now() {
	local kind=$1 name=$2 r f
	for f in "${@:3}"; do r=${r:-$(fault_value "$f" "$name" | grep . || fault_value "$f" "${name%%:*}")}; done
	[ -z "$r" ] || { rate_kbit "$r"; return; }
	links "$kind" | awk -v n="$name" '$1 == n { print $3 }'
}

# apply_node NODE: the node's links as built (each NIC's: with rails eth0,
# eth1 ...), with the faults in force; a move, a loss and a slow link act
# on eth0's, the rest on each: slow-tx on the NIC's egress, slow-rx on its
# switch port's.
apply_node() {
	local n=$1 nic dev port paths=() dst r pct first=""
	while read -r _ _ dst r; do
		paths+=("$(node_ip "$dst")" "$(rate_kbit "$r")")
	done < <(fault slow-link "$n")
	while read -r nic dev port _; do
		first=${first:-$nic}
		DELAY_MS=$(fault_value delay "$n") shape "$n" "$dev" "$(rate_now nic "$nic" slow-tx slow-nic)" "${paths[@]}"
		shape sw "$port" "$(rate_now nic "$nic" slow-rx slow-nic)"
		in_ns sw ip link set "$port" "$([ -n "$(fault link-down "$n")" ] && echo down || echo up)"
	done < <(nics_of "$n")
	in_ns "$n" nft delete table inet aller 2>/dev/null || true
	pct=$(fault_value loss "$n")
	if [ -n "$pct" ]; then   # dropped both ways (loss.nft.in): out by eth0's class 1:99, a queue of none
		in_ns "$n" tc class add dev eth0 parent 1: classid 1:99 htb rate 8kbit quantum 9000
		in_ns "$n" tc qdisc add dev eth0 parent 1:99 handle 99: pfifo limit 0
		render "$CLUSTER_ROOT/cluster/loss.nft.in" PER10K="$(awk -v p="$pct" 'BEGIN { printf "%d", p * 100 }')" |
			in_ns "$n" nft -f -
	fi
	# its cable on the leaf a move put it on, else its own (the bridges forget where its
	# address was)
	in_ns sw ip link set "$n" master "$(fault_value move "$n" | grep . || leaf_of "$first")"
	for b in $(in_ns sw ip -o link show type bridge | awk -F': ' '{ print $2 }'); do in_ns sw ip link set "$b" type bridge fdb_flush; done
}

apply_uplinks() {
	local from r d
	while read -r from _ _; do
		r=$(rate_now uplink "$from" slow-uplink)
		for d in up dn; do shape sw "$d-$from" "$r"; done
	done < <(links uplink)
}
