/*
 * collect: merges aller outputs (files or directories) into data sets for
 * gnuplot and a CSV. Exit status: 0 clean, 1 merged with warnings, 2 usage
 * error or nothing to merge, 3 cannot write the output.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/compare.h"
#include "judge/against.h"
#include "dirs.h"
#include "export/export.h"
#include "export/plots.h"
#include "judge/findings.h"
#include "format.h"
#include "read/input.h"
#include "merge/merge.h"
#include "judge/stragglers.h"
#include "read/state.h"
#include "read/status.h"
#include "judge/suspects.h"
#include "judge/trend.h"
#include "text.h"

static const char usage[] =
	"usage: collect [-o DIR] [-q] PATH...\n"
	"       collect --state [--points] FILE...\n"
	"       collect --compare [--tol=SPEC] [-o DIR] BASE NEW\n"
	"       collect --samples [--finding | --suspect DIR CAMPAIGN] PATH...\n"
	"       collect --findings DIR\n"
	"       collect --suspect DIR [KIND NAME EVIDENCE [SINCE [CAMPAIGN]]]\n"
	"       collect --openmetrics DIR...\n"
	"       collect --trend OUTDIR DIR...\n"
	"       collect --plots DIR\n"
	"       collect --status [--tsv] MANIFEST RAW SACCT SCONTROL\n"
	"       collect --safe-dir [--to-make] DIR\n"
	"       collect --judge --fabric=FILE [--nodes=LIST] [--tasks-per-node=N] OUTPUT\n"
	"\n"
	"Merges aller outputs (files, or directories of them) into DIR (default\n"
	"./merged): bandwidth.dat, concurrency.dat, scaling.dat (what the plots\n"
	"read), points.csv (every measured column) joined with points-index.csv on\n"
	"'point', sets.tsv and summary.txt, and from them models.csv (a Hockney\n"
	"fit per curve) and findings.json (what the campaign found). Every problem is reported as\n"
	"'file:line: what'; re-runs of a point are resolved by the rule: the\n"
	"newest complete job wins.\n"
	"\n"
	"  -o DIR     output directory (created if needed)\n"
	"  -q         no summary on stderr\n"
	"  --state    print each point file's state instead: complete, incomplete,\n"
	"             failed or missing, a reason, the file (tab-separated); with\n"
	"             --points (files or directories), per point key (its '# point:')\n"
	"             the state of the file a merge takes, and how many files it has\n"
	"  --compare  compare two sets of outputs (see 'collect --compare --help')\n"
	"  --samples  aller --samples' files (or directories): per data set and\n"
	"             count the first call over the rest, and each slow call:\n"
	"             straggler (named), system-wide, host or partial; --finding:\n"
	"             one row instead (severity, stragglers, text); --suspect: the\n"
	"             straggling hosts added to DIR/suspects.tsv\n"
	"  --findings models.csv and findings.json again, from DIR's merged tables\n"
	"  --suspect  DIR/suspects.tsv with one more suspect (kind host or link), or\n"
	"             created empty: the table's one writer for the scripts\n"
	"  --openmetrics  merged DIRs as Prometheus' text exposition format, on\n"
	"             stdout (aller_* metrics; node_exporter's textfile collector)\n"
	"  --trend    merged DIRs of one identity, ordered by their earliest\n"
	"             starts: OUTDIR/trend.csv,\n"
	"             findings.json and findings.tsv (changes beyond the noise)\n"
	"  --plots    DIR/plots.tsv, what plots/plot.sh draws of DIR's merged tables:\n"
	"             a row a plot (script, data, file, title, arguments), each\n"
	"             plot's data sets in DIR/plotsets/\n"
	"  --status   a campaign's status table (aller-status): per point of\n"
	"             MANIFEST its job, Slurm's record (SACCT, SCONTROL: sacct's and\n"
	"             scontrol's answers) and the state of its outputs in RAW\n"
	"  --safe-dir whether no other user can plant a name in DIR or on the way\n"
	"             to it (the toolkit's scripts ask it before they write into\n"
	"             RESULTS): silent, or one line and exit 2; --to-make: a DIR\n"
	"             not there yet is judged by where it would be made\n"
	"  --judge    another tool's all-to-all numbers (osu_alltoall, IMB-MPI1\n"
	"             Alltoall, nccl-tests' alltoall_perf) against what the fabric\n"
	"             FILE (aller --fabric's) allows: per row its bound, eff_bound\n"
	"             and bottleneck, and a verdict; see 'collect --judge --help'\n"
	"  --version  print the version and exit\n"
	"  --help     print this help and exit\n"
	"\n"
	"Exit status: 0 clean, 1 merged with warnings (incomplete, failed or\n"
	"skipped inputs), 2 usage error or no aller output among the inputs (the\n"
	"last merge left as it was), 3 cannot write the output.\n";

/* rc, or 3 with one line when what was printed did not all reach stdout (/dev/full, a full disk). */
static int written(int rc)
{
	int flushed = fflush(stdout), e = errno;

	if (flushed == 0 && !ferror(stdout))
		return rc;
	return text_error(3, "collect: error: cannot write the standard output: %s\n",
		flushed && e ? strerror(e) : "a write failed");
}

/* The merge's then: the findings from its tables (merge.h). */
static int merged_findings(const char *outdir, char *err, size_t errlen)
{
	char why[4096];

	if (findings_run(outdir, why, sizeof(why)) == 0)
		return 0;
	snprintf(err, errlen, "findings: %s", why);
	return -1;
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
	return written(run(argc, argv));
}

/* collect --findings DIR: 0, 2 (usage), 3 (a table unreadable, a write failed). */
static int findings_main(int argc, char **argv)
{
	char err[4608];

	if (argc != 1 || !argv[0][0])
		return text_error(2, "collect: error: --findings takes one merged directory: collect "
			"--findings DIR\n");
	if (findings_run(argv[0], err, sizeof(err)) != 0)
		return text_error(3, "collect: error: findings: %s\n", err);
	return 0;
}

/* collect --safe-dir [--to-make] DIR: 0, or 2 with one line (common/dirs.h). */
static int safe_dir_main(int argc, char **argv)
{
	int to_make = argc == 2 && strcmp(argv[0], "--to-make") == 0;
	char err[4608];
	struct stat st;

	if (argc != 1 + to_make || !argv[to_make][0])
		return text_error(2, "collect: error: --safe-dir takes one directory: collect --safe-dir "
			"[--to-make] DIR\n");
	if (!to_make && stat(argv[0], &st) == 0 && !S_ISDIR(st.st_mode))
		snprintf(err, sizeof(err), "--safe-dir '%s' is not a directory: give the directory to write into", argv[0]);
	else if ((to_make ? dirs_safe_to_make : dirs_safe)(argv[to_make], err, sizeof(err)) == 0)
		return 0;
	return text_error(2, "collect: error: %s\n", err);
}

/* The modes other than the merge: the first argument names one, the rest are its. */
static const struct {
	const char *name;
	int (*main)(int argc, char **argv);
} modes[] = {
	{ "--state", state_main },       { "--compare", compare_main },
	{ "--samples", stragglers_main },   { "--findings", findings_main },
	{ "--openmetrics", export_main }, { "--trend", trend_main },
	{ "--suspect", suspects_main },  { "--plots", plots_main },
	{ "--safe-dir", safe_dir_main }, { "--status", status_main },
	{ "--judge", against_main },
};

static int run(int argc, char **argv)
{
	struct merge_options o = { .outdir = "merged", .then = merged_findings };
	struct filelist files = { 0 };
	struct summary s;
	char err[4608];
	int only_paths = 0, rc;

	for (size_t m = 0; argc > 1 && m < sizeof(modes) / sizeof(modes[0]); m++)
		if (strcmp(argv[1], modes[m].name) == 0)
			return modes[m].main(argc - 2, argv + 2);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_paths || a[0] != '-' || strcmp(a, "-") == 0) {
			if (input_add(&files, a, err, sizeof(err)) != 0) {
				text_error(0, "collect: error: %s\n", err);
				filelist_release(&files);
				return 2;
			}
		} else if (strcmp(a, "--") == 0) {
			only_paths = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			filelist_release(&files);
			return 0;
		} else if (strcmp(a, "--version") == 0) {
			printf("collect %s (aller format %d)\n", ALLER_VERSION, ALLER_FORMAT_VERSION);
			filelist_release(&files);
			return 0;
		} else if (strcmp(a, "-q") == 0) {
			o.quiet = 1;
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc && argv[i + 1][0]) {
			o.outdir = argv[++i];
		} else if (strncmp(a, "-o", 2) == 0 && a[2]) {
			o.outdir = a + 2;
		} else {
			text_error(0, "collect: error: %s '%s' (see 'collect --help')\n",
				strcmp(a, "-o") == 0 ? "option needs a directory:" : "unknown option", a);
			filelist_release(&files);
			return 2;
		}
	}
	if (files.n == 0) {
		if (files.empty_dir)
			text_error(0, "collect: error: no job outputs in '%s'%s\n", files.empty_dir,
				files.nskipped ? " (only entries it cannot read)" : "");
		else
			text_error(0, "collect: error: no PATH given (see 'collect --help')\n");
		filelist_release(&files);
		return 2;
	}
	rc = merge_run(&o, &files, &s);
	filelist_release(&files);
	return rc;
}
