/* stragglers.c: see stragglers.h. */
#include "stragglers.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suspects.h"
#include "merged.h"
#include "model/campaign.h"
#include "read/samples.h"

int straggling(long k, long total)
{
	return k >= STRAGGLER_CALLS && 2 * k >= total;
}

/* The host that came late most often (ties: the first name), or -1 with none. */
static int latest_host(const struct samples_tally *t, const char *skip)
{
	int top = -1;

	for (int h = 0; h < t->nhosts; h++)
		if (t->late[h] > 0 && (!skip || !skip[h]) &&
		    (top < 0 || t->late[h] > t->late[top] ||
		     (t->late[h] == t->late[top] && strcmp(t->hosts[h], t->hosts[top]) < 0)))
			top = h;
	return top;
}

/* --finding: one row "SEVERITY<TAB>stragglers<TAB>TEXT" of the samples of NAME. */
static void finding(const struct samples_tally *t, const char *name)
{
	int top = latest_host(t, NULL);
	size_t n = strlen(name);

	while (n > 1 && name[n - 1] == '/')
		n--;
	for (size_t i = n; i > 0; i--)
		if (name[i - 1] == '/') {
			name += i, n -= i;
			break;
		}
	printf("%s\t%s\tSlow calls in %.*s (SAMPLES=1): %ld among %ld counts, %ld of them "
	       "stragglers", top >= 0 && straggling(t->late[top], t->late_total) ? "notice"
	       : "info", finding_kind(FK_stragglers)->name, (int)n, name, t->slow, t->counts, t->late_total);
	if (top >= 0)
		printf("; %s came late in %ld", t->hosts[top], t->late[top]);
	printf(".\n");
}

/*
 * --suspect DIR CAMPAIGN: each straggling host over all the straggling
 * calls a suspect of DIR/suspects.tsv, most calls first;
 * none where the samples are of one host (every straggler's). 0, 2 or 3.
 */
static int suspect(const struct samples_tally *t, const char *dir, const char *campaign)
{
	char since[32] = "", evidence[256], *skip = calloc((size_t)t->nhosts + 1, 1);
	struct campaign c;
	int rc = 0, h;

	if (campaign_load(&c, dir, CAMPAIGN_FACTS, evidence, sizeof(evidence)) == 0)
		campaign_earliest(&c, "start", since, sizeof(since));
	campaign_release(&c);
	while (skip && t->hosts_seen >= 2 && rc == 0 && (h = latest_host(t, skip)) >= 0 &&
	       straggling(t->late[h], t->late_total)) {
		skip[h] = 1;
		snprintf(evidence, sizeof(evidence), "came late in %ld of the %ld straggling calls "
			 "(--samples): its peers waited", t->late[h], t->late_total);
		rc = suspects_main(6, (char *[]){ (char *)dir, "host", t->hosts[h], evidence, since,
						  (char *)campaign, NULL });
	}
	free(skip);
	return rc;
}

int stragglers_main(int argc, char **argv)
{
	struct samples_tally t = { 0 };
	int rc, skip = argc > 0 && !strcmp(argv[0], "--finding") ? 1
		: argc > 0 && !strcmp(argv[0], "--suspect") ? 3 : 0;

	if (argc <= skip)
		return text_error(2, "collect: error: '--samples' needs aller --samples' files or "
			"directories: collect --samples [--finding | --suspect DIR CAMPAIGN] PATH...\n");
	if (skip == 0)   /* the table */
		return samples_read(argc, argv, stdout, NULL);
	rc = samples_read(argc - skip, argv + skip, NULL, &t);
	if (rc < 2 && skip == 1)
		finding(&t, argv[1]);
	else if (rc < 2 && skip == 3 && t.counts > 0)
		rc = suspect(&t, argv[1], argv[2]) ? 3 : rc;
	samples_tally_release(&t);
	return rc;
}
