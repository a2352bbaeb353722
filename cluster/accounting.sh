#!/usr/bin/env bash
# cluster/accounting.sh: MariaDB on a private socket and port, and slurmdbd,
# so that sacct answers as on a production cluster. Called by up.sh when
# CLUSTER_ACCOUNTING=1, before slurmctld starts.
set -euo pipefail
# shellcheck source=cluster/lib.sh
. "$(dirname "$0")/lib.sh"

for cmd in mariadbd mariadb-install-db mariadb slurmdbd sacctmgr; do
	command -v "$cmd" >/dev/null || die "'$cmd' is missing: run 'make deps'"
done
mkdir -p "$DB"
if [ ! -d "$DB/data/mysql" ]; then
	mariadb-install-db --datadir="$DB/data" --user=root --auth-root-authentication-method=normal \
		--skip-test-db >"$LOG/mariadb-install.log" 2>&1 ||
		die "mariadb-install-db failed; see $LOG/mariadb-install.log"
fi
(exec_without_fds "${HEAD[@]}" mariadbd --no-defaults --datadir="$DB/data" --socket="$RUN/mysql.sock" --port="$SQL_PORT" \
	--bind-address=127.0.0.1 --pid-file="$RUN/mariadbd.pid" --log-error="$LOG/mariadbd.log" \
	--user=root --skip-name-resolve </dev/null >/dev/null 2>&1) &
retry 100 0.2 mariadb --no-defaults --socket="$RUN/mysql.sock" -uroot -e 'select 1' >/dev/null 2>&1 || true
mariadb --no-defaults --socket="$RUN/mysql.sock" -uroot -e 'create database if not exists slurm_acct_db' ||
	die "MariaDB did not start; see $LOG/mariadbd.log"

# slurmdbd reads slurmdbd.conf beside slurm.conf; it must be mode 600.
render "$CLUSTER_ROOT/cluster/slurmdbd.conf.in" RUN="$RUN" DBD_PORT="$DBD_PORT" LOG="$LOG" \
	SQL_PORT="$SQL_PORT" >"$ETC/slurmdbd.conf"
chmod 600 "$ETC/slurmdbd.conf"
(exec_without_fds "${HEAD[@]}" slurmdbd </dev/null >/dev/null 2>>"$LOG/slurmdbd.start") || die "slurmdbd did not start; see $LOG/slurmdbd.log"
retry 50 0.2 port_taken "$DBD_PORT" || true
sacctmgr -i add cluster "$CLUSTER_NAME" >/dev/null 2>&1 || true
sacctmgr -n list cluster format=cluster | grep -qw "$CLUSTER_NAME" ||
	die "slurmdbd does not answer; see $LOG/slurmdbd.log"
