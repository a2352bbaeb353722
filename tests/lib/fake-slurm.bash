# For the command-line tests: Slurm's commands as stand-ins, no cluster.
# sbatch, scancel and Slurm's queries as recorders in $BATS_TEST_TMPDIR/bin:
# sbatch prints 4241, 4242, ...; FILL set, the first job fills FILL's disk.
fake_slurm() {
	local bin=$BATS_TEST_TMPDIR/bin t=$BATS_TEST_TMPDIR
	mkdir -p "$bin"
	cat >"$bin/sbatch" <<EOF
#!/bin/sh
case " \$* " in *" --test-only "*) exit 0 ;; esac
n=\$(cat "$t/n" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"$t/n"
[ -z "${FILL:-}" ] || [ \$n != 1 ] || dd if=/dev/zero of="${FILL:-}/zfill" bs=1k 2>/dev/null
echo \$((4240 + n))
EOF
	printf '#!/bin/sh\necho "$@" >>"%s/cancelled"\n' "$t" >"$bin/scancel"
	for x in squeue sacct scontrol; do printf '#!/bin/sh\nexit 1\n' >"$bin/$x"; done
	chmod +x "$bin"/*
}
