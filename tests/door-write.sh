#!/usr/bin/env bash
# tests/door-write.sh [ROOT]: the writes that go around the write door
# (docs/security.md, "Writing a result"), one "FILE:LINE: TEXT" each, exit
# 1 when there is one. In C (aller/, collect/, common/, cluster/, simulate/): a file
# opened for writing or created (fopen "w"/"a", open with O_CREAT or for
# writing, creat, mkstemp, freopen) anywhere but common/replace.c. In the
# shell (campaigns/ jobs/ plots/ cluster/ sh/ tools/): a '>' or '>>' onto a
# computed path ("$x", $(...)) anywhere but sh/write.sh, and '$$' (a
# predictable name). Reads are h1's door (tests/cli/door-read.bats).
#
# The allow-list below is the legitimate rest, a reason each: FILE, a
# regular expression its line matches, and why (no reason, no entry).
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

allowed() {
	cat <<'EOF'
collect/merge/merge.c	= tmpfile\(\);	an anonymous file (O_TMPFILE or unlinked at once): no name anyone could plant
campaigns/lib.sh	exec 9>>"\$lock"	the submission's flock, opened and never written (its holder goes through write_file)
campaigns/lib.sh	pid \$\$ on	the lock holder's text, not a name
campaigns/submit.sh	^SUB=.*-\$\$	a submission's id, part of names written through the door (jobs/SUB-N.conf) or created new (raw files)
jobs/aller.sbatch	sub=.*-\$\$	the same id, for a job submitted by hand
campaigns/jobs.sh	<jobs above> \$CAMPAIGN_ROOT	a dry run's text, not a redirection
jobs/aller.sbatch	>>?"\$current"	the point file: created new under noclobber (O_EXCL: never through a link, never over a file) in raw/, which the submission held to the safe-dir rule; the job alone appends to it
jobs/job-lib.sh	>>?"\$current"	the same point file
jobs/aller.sbatch	2>"\$steperr"	a file the job made with mktemp
jobs/job-lib.sh	2>"\$errf"	a file the job made with mktemp
plots/report.sh	2>"\$err"	a file the script made with mktemp
plots/report.sh	>"\$settings"	a file the script made with mktemp
campaigns/schedule.sh	>"\$tmp"	a file the script made with mktemp
campaigns/pairs.sh	>"\$out/pairs.out"	in a directory the script made with mktemp -d
campaigns/isolate.sh	"\$dir/	in RESULTS/isolate-NAME, which the script made in a RESULTS held to the safe-dir rule (h4's, issue 77)
campaigns/isolate.sh	>"\$out"	the same directory (out=$dir/job-N.out)
tools/deps.sh	>"\$policy"	/usr/sbin/policy-rc.d as root, made only when absent, in a directory only root can write
cluster/	"\$(ETC|FAB|LOG|RUN|CLUSTER_DIR|SLURM_CONF|nsfile)	the local cluster's own directory (CLUSTER_DIR, build/cluster-PORT), made by cluster/up.sh for root, which no other user writes
cluster/net.sh	probe\$\$	a network namespace's name, not a file
cluster/fabric.sh	>"\$(CPU|\{CPU%/\*\}|g)/	the kernel's cgroup v1 cpu files of a slow node's group (/sys/fs/cgroup/cpu/aller-PORT/NODE), root's alone: no result, no name to plant
cluster/client.in	/proc/\$\$/ns	the shell's own namespace, read
EOF
}

# c_sites / sh_sites: "FILE:LINE:TEXT" of every candidate
c_sites() {
	grep -rnE --include='*.c' --include='*.h' --include='*.cu' \
		'fopen\([^;]*"[wa+]|[^a-z_]open(at)?\([^;]*O_(CREAT|WRONLY|RDWR|APPEND)|[^a-z_]creat\(|mkstemp|freopen|tmpfile\(|fdopen\([^;]*"[wa]' \
		aller collect common cluster simulate 2>/dev/null | grep -v '^common/replace\.c:' || true
}
sh_sites() {
	local f
	for f in campaigns/* jobs/* plots/*.sh cluster/*.sh cluster/*.in sh/*.sh tools/*; do
		[ -f "$f" ] && [ "$f" != sh/write.sh ] || continue
		head -c 200 "$f" | grep -qE '^#!.*(ba)?sh|shell=bash|\.sh$' || [[ $f == *.sh || $f == *.sbatch ]] || continue
		grep -nE '(^|[^<>0-9-])[0-9&]*>>?[[:space:]]*"?\$|\$\$' "$f" | sed "s|^|$f:|" || true
	done | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#' || true
}

bad=0
while IFS= read -r site; do
	[ -n "$site" ] || continue
	file=${site%%:*} text=${site#*:*:} ok=0
	while IFS=$'\t' read -r where re _why; do
		[[ $file == "$where"* ]] && [[ $text =~ $re ]] && { ok=1; break; }
	done < <(allowed)
	[ "$ok" = 1 ] || { echo "$site"; bad=1; }
done < <(c_sites; sh_sites)
exit "$bad"
