/* suspects.c: see suspects.h. */
#include "suspects.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "read/hosts.h"
#include "replace.h"
#include "strbuf.h"
#include "text.h"

/* A name that is not one node's (hosts_name_ok) is never a suspect: said once on stderr. */
static int not_a_node(const char *what)
{
	return text_error(-1, "collect: warning: '%s' does not name one node (a host name is letters, "
		"digits, '.', '_' and '-'): not a suspect\n", what);
}

int suspects_link(struct suspects *s, const char *text, double share, const char *since, const char *campaign,
		  long point)
{
	struct suspect_link k = { .point = point, .share = share };

	if (sscanf(text, "%*d (%63[^)]) -> %*d (%63[^)])", k.src, k.dst) != 2)
		return -1;
	if (!hosts_name_ok(k.src) || !hosts_name_ok(k.dst))
		return not_a_node(text);
	struct suspect_link *g = grow(s->l, &s->cap, (size_t)s->n + 1, sizeof(k), 8);

	if (!g)
		return -1;
	s->l = g;
	snprintf(k.text, sizeof(k.text), "%s", text);
	snprintf(k.since, sizeof(k.since), "%s", since);
	snprintf(k.campaign, sizeof(k.campaign), "%s", campaign);
	s->l[s->n++] = k;
	return 0;
}

int suspects_add(struct suspects *s, const char *kind, const char *name, const char *evidence,
		 const char *campaign, long point)
{
	struct suspect_host h = { .point = point };

	if (!strcmp(kind, "host") && !hosts_name_ok(name))
		return not_a_node(name);
	struct suspect_host *g = grow(s->h, &s->caph, (size_t)s->nh + 1, sizeof(h), 8);

	if (!g)
		return -1;
	s->h = g;
	snprintf(h.kind, sizeof(h.kind), "%s", kind);
	snprintf(h.name, sizeof(h.name), "%s", name);
	snprintf(h.evidence, sizeof(h.evidence), "%s", evidence);
	snprintf(h.campaign, sizeof(h.campaign), "%s", campaign);
	s->h[s->nh++] = h;
	return 0;
}

/*
 * The other hosts h shares slow links with, in peers; how many; *side: the way whose least slow link (a peer's
 * not listed: 1) ran at under half the other way's share of the median, or both (a slow receiver's ACKs queue
 * behind its shaped data: one or two links out of it slow too, not all: tests/data/pairs/slowrx-*).
 */
static int peers_of(const struct suspects *s, const char *h, char *peers, size_t len, const char **since,
		    const char **side)
{
	int n = 0, ways[2] = { 0, 0 };
	double least[2] = { 0, 0 };   /* out of h, into it */
	size_t at = 0;

	peers[0] = '\0';
	for (int i = 0; i < s->n; i++) {
		int in = !strcmp(s->l[i].dst, h), seen = 0;
		const char *other = !strcmp(s->l[i].src, h) ? s->l[i].dst : in ? s->l[i].src : NULL;
		if (!other || !strcmp(other, h))
			continue;
		for (int k = 0, same = 0; k <= i; k++) {
			seen |= k < i && ((!strcmp(s->l[k].src, h) && !strcmp(s->l[k].dst, other)) ||
					  (!strcmp(s->l[k].dst, h) && !strcmp(s->l[k].src, other)));
			same |= k < i && !strcmp(s->l[k].src, in ? other : h) && !strcmp(s->l[k].dst, in ? h : other);
			ways[in] += k == i && !same;   /* the peers this way */
		}
		least[in] = fmax(least[in], s->l[i].share > 0 ? s->l[i].share : 1);
		if (s->l[i].since[0] && !seen && (!(*since)[0] || strcmp(s->l[i].since, *since) < 0))
			*since = s->l[i].since;
		if (!seen)
			at += (size_t)snprintf(peers + at, at < len ? len - at : 0, "%s%s", n++ ? ", " : "", other);
	}
	for (int w = 0; w < 2; w++)
		least[w] = ways[w] < n ? 1 : least[w];
	*side = least[0] > 2 * least[1] ? "rx: the links into it (its receiving side) are slow, those out of it far less: "
		"a slow receiver" : least[1] > 2 * least[0] ? "tx: the links out of it (its sending side) are slow, those into "
		"it far less: a slow sender" : "both: a slow NIC or port slows every link through it";
	return n;
}

const char *suspects_next_host(const struct suspects *s, int *i, char *peers, size_t len, int *n,
			       const char **since, const char **side)
{
	for (; *i < 2 * s->n; (*i)++) {
		const char *h = *i % 2 ? s->l[*i / 2].dst : s->l[*i / 2].src;
		int seen = 0;
		for (int k = 0; k < *i; k++)
			seen |= !strcmp(h, k % 2 ? s->l[k / 2].dst : s->l[k / 2].src);
		*since = "";
		if (!seen && (*n = peers_of(s, h, peers, len, since, side)) >= SUSPECT_HOST_PEERS) {
			(*i)++;
			return h;
		}
	}
	return NULL;
}

/* The campaign the links name first ("" none). */
static const char *campaign_of(const struct suspects *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->l[i].campaign[0])
			return s->l[i].campaign;
	return "";
}

int suspects_write(const struct suspects *s, const char *dir, char *err, size_t errlen)
{
	FILE *f = replace_open(dir, "suspects.tsv", err, errlen);
	char peers[1024];
	const char *h, *since, *side;
	int i = 0, n;

	if (!f)
		return -1;
	struct table_out t = { f, NULL, '\t', 0 };
	char name[2 * SUSPECT_NAME + 4], evidence[1600];

	TABLE_HEADER(&t, SUSPECTS_COLUMNS);
	while ((h = suspects_next_host(s, &i, peers, sizeof(peers), &n, &since, &side)) != NULL) {
		snprintf(evidence, sizeof(evidence), "an end of slow links with %d hosts: %s (--pairs; %s)", n, peers, side);
		TABLE_ROW(&t, (&(struct suspect_row){ "host", h, evidence, since, campaign_of(s), -1 }),
			  SUSPECTS_COLUMNS);
	}
	for (int k = 0; k < s->nh; k++)
		TABLE_ROW(&t, (&(struct suspect_row){ s->h[k].kind, s->h[k].name, s->h[k].evidence, NULL,
						      s->h[k].campaign, s->h[k].point }), SUSPECTS_COLUMNS);
	for (int k = 0; k < s->n; k++) {
		snprintf(name, sizeof(name), "%s->%s", s->l[k].src, s->l[k].dst);
		snprintf(evidence, sizeof(evidence), "slow link %s (--pairs)", s->l[k].text);
		TABLE_ROW(&t, (&(struct suspect_row){ "link", name, evidence, s->l[k].since, s->l[k].campaign,
						      s->l[k].point }), SUSPECTS_COLUMNS);
	}
	return replace_close(f, dir, "suspects.tsv", err, errlen);
}

void suspects_drop(struct suspects *s, const char *test, long np)
{
	int k = 0;

	for (int i = 0; i < s->n; i++)
		if (s->l[i].point < 0 || s->l[i].point >= np || !test[s->l[i].point])
			s->l[k++] = s->l[i];
	s->n = k, k = 0;
	for (int i = 0; i < s->nh; i++)
		if (s->h[i].point < 0 || s->h[i].point >= np || !test[s->h[i].point])
			s->h[k++] = s->h[i];
	s->nh = k;
}

void suspects_release(struct suspects *s)
{
	free(s->l);
	free(s->h);
	memset(s, 0, sizeof(*s));
}

/* The table's header row into b (SUSPECTS_COLUMNS). */
static void header(struct strbuf *b)
{
	TABLE_HEADER((&(struct table_out){ NULL, b, '\t', 0 }), SUSPECTS_COLUMNS);
}

/* DIR/suspects.tsv's rows (after its header) into b, *held where one is `row`; 0, 1 none
 * yet, or -1 (not the table, or refused by the door: said). */
static int rows_of(const char *dir, struct strbuf *b, const char *row, int *held)
{
	char path[4096], err[4608];
	struct strbuf want, text;
	size_t n = 0;
	int rc;

	snprintf(path, sizeof(path), "%s/suspects.tsv", dir);
	if ((rc = text_load(path, TEXT_MERGED, &text, err, sizeof(err))) == 1)
		return 1;
	strbuf_init(&want);
	header(&want);
	if (rc == 0 && (!want.s || strncmp(text.s, want.s, n = strlen(want.s)) != 0)) {
		for (char *c = want.s; c && *c; c++)   /* the header in words, on one line */
			*c = *c == '\t' ? ' ' : *c == '\n' ? '\0' : *c;
		rc = -1, snprintf(err, sizeof(err), "'%s' is not a suspects table (its first line is not "
				  "'%s'): nothing added", path, want.s ? want.s : "");
	}
	for (const char *l = rc == 0 ? text.s + n : ""; *l; l += strcspn(l, "\n") + 1)
		*held |= row && !strncmp(l, row, strlen(row));
	if (rc == 0)
		strbuf_add(b, text.s + n, text.len - n);
	else
		text_error(0, "collect: error: %s\n", err);
	strbuf_release(&want);
	strbuf_release(&text);
	return rc;
}

int suspects_main(int argc, char **argv)
{
	struct strbuf old, row;
	char err[4608];
	int rc = 0, held = 0;
	FILE *f;

	if (argc != 1 && (argc < 4 || argc > 6))
		return text_error(2, "collect: error: --suspect takes DIR [KIND NAME EVIDENCE [SINCE [CAMPAIGN]]]"
			", not %d argument%s\n", argc, argc == 1 ? "" : "s");
	if (argc > 1 && strcmp(argv[1], "host") != 0 && strcmp(argv[1], "link") != 0)
		return text_error(2, "collect: error: invalid suspect kind '%s': allowed are host and link\n", argv[1]);
	if (argc > 1 && (!strcmp(argv[1], "host") ? !hosts_name_ok(argv[2]) : !argv[2][0] || strpbrk(argv[2], "\t\n")))
		return text_error(2, "collect: error: invalid suspect name '%s': a %s\n", argv[2],
			!strcmp(argv[1], "host") ? "node's name (letters, digits, '.', '_' and '-')" : "link's name");
	strbuf_init(&old);
	strbuf_init(&row);
	if (argc > 1)
		TABLE_ROW((&(struct table_out){ NULL, &row, '\t', 0 }),
			  (&(struct suspect_row){ argv[1], argv[2], argv[3], argc > 4 ? argv[4] : NULL,
						  argc > 5 ? argv[5] : NULL, -1 }), SUSPECTS_COLUMNS);
	if ((rc = rows_of(argv[0], &old, argc > 1 ? row.s : NULL, &held)) < 0 || held) {
		rc = rc < 0 ? 2 : 0;
	} else if (!(f = replace_open(argv[0], "suspects.tsv", err, sizeof(err)))) {
		text_error(0, "collect: error: %s\n", err);
		rc = 3;
	} else {
		struct strbuf head;
		strbuf_init(&head);
		header(&head);
		fprintf(f, "%s%s%s", head.s ? head.s : "", old.s ? old.s : "", argc > 1 && row.s ? row.s : "");
		strbuf_release(&head);
		rc = replace_close(f, argv[0], "suspects.tsv", err, sizeof(err)) == 0 ? 0 : 3;
		if (rc)
			text_error(0, "collect: error: %s\n", err);
	}
	strbuf_release(&old);
	strbuf_release(&row);
	return rc;
}
