/*
 * gen_outputs DIR N: writes N synthetic aller outputs of realistic size into
 * DIR, as a campaign would leave them: campaigns of 2 modes x 11 node counts
 * (1..1024 nodes, 8 tasks per node, LONGS 1 Mi), job provenance, every level
 * and count, '# Done'. Numbers are plausible, not measured.
 */
#include <stdio.h>
#include <stdlib.h>

#include "format.h"

int main(int argc, char **argv)
{
	long n, longs = 1L << 20;
	unsigned seed = 12345;

	if (argc != 3 || (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: gen_outputs DIR N\n");
		return 2;
	}
	for (long k = 0; k < n; k++) {
		long campaign = k / 22, nodes = 1L << ((k / 2) % 11), world = 8 * nodes;
		const char *mode = k % 2 ? ALLER_MODE_STRIDED : ALLER_MODE_CONTIGUOUS;
		char path[4096];
		FILE *f;
		int level = 0;

		snprintf(path, sizeof(path), "%s/c%04ld-n%ld-%s-%ld.out", argv[1], campaign, nodes, mode,
			 1000 + k);
		if (!(f = fopen(path, "w"))) {
			perror(path);
			return 3;
		}
		fprintf(f, "# %s: c%04ld\n# %s: %ld\n# %s: %s\n# %s: %ld\n", ALLER_KEY_CAMPAIGN,
			campaign, ALLER_KEY_POINT_NODES, nodes, ALLER_KEY_POINT_MODE, mode,
			ALLER_KEY_JOB, 1000 + k);
		fprintf(f, "# %s: %s\n# %s: %d\n# %s: aller %s 3 %ld\n", ALLER_KEY_ALLER, ALLER_VERSION,
			ALLER_KEY_FORMAT, ALLER_FORMAT_VERSION, ALLER_KEY_COMMAND, mode, longs);
		fprintf(f, "# %s: Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4\n", ALLER_KEY_MPI);
		fprintf(f, "# %s: %ld\n# %s: %ld\n# %s: 8\n# %s: host\n# %s: on\n# %s: %s\n",
			ALLER_KEY_WORLD, world, ALLER_KEY_NODES, nodes, ALLER_KEY_TPN, ALLER_KEY_BUFFERS,
			ALLER_KEY_VERIFY, ALLER_KEY_MODE, mode);
		fprintf(f, "# %s: 3\n# %s: %ld\n# %s: 2026-12-01T%02ld:%02ld:00Z\n# %s: %s\n",
			ALLER_KEY_ITERS, ALLER_KEY_LONGS, longs, ALLER_KEY_START, k / 60 % 24, k % 60,
			ALLER_KEY_COLUMNS, ALLER_COLUMN_HEADER);
		for (long target = world; target >= 1; target /= 2, level++) {
			long comms = (world + target - 1) / target;
			fprintf(f, "%s# %s: %d target %ld comms %ld commsize %ld\n# %s world %ld iters 3\n# %s\n",
				level ? "\n\n" : "", ALLER_KEY_LEVEL, level, target, comms, target, mode,
				world, ALLER_COLUMN_HEADER);
			for (long count = longs / target; count >= 1; count /= 2) {
				double gib = 2.0 * count * target * 8 / (1 << 30);
				double t = 2e-6 + gib / (5.0 + (rand_r(&seed) % 100) / 50.0);
				fprintf(f, "%ld %ld %ld %.6e %.6e %.6e %.6e %.6e %.6e %.6e %.6e %ld\n",
					comms, target, count, gib, t * 0.9, t, t * 1.2, gib / t / 1.2,
					gib / t, gib / t / 0.9, world * gib / t / 1.2,
					(long)(rand_r(&seed) % world));
			}
		}
		fprintf(f, "%s\n# %s: 0\n", ALLER_DONE, ALLER_KEY_EXIT);
		fclose(f);
	}
	return 0;
}
