/* fabricfile.c: a site's fabric file (see fabricfile.h). */
#include "fabricfile.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "bytes.h"
#include "grow.h"
#include "strbuf.h"
#include "text.h"

#define USAGE "expected 'switch NAME RATE [CHILD...]', 'nic NODE RATE', 'gpu NODE RATE', 'group NAME " \
	"SWITCH...' or 'global LINKS RATE [minimal|adaptive]'"

/* A line being read: where it is, for the messages. */
struct at {
	const char *file;
	long line;
	int pass;   /* 1: the switches' names (a switch may name one declared below it), 2: the rest */
	char *err;
	size_t errlen;
};

static int bad(const struct at *a, const char *what, const char *word)
{
	snprintf(a->err, a->errlen, "%s:%ld: %s '%.*s'", a->file, a->line, what, FABRICFILE_NAME, word);
	return -1;
}

static int oom(const struct at *a)
{
	snprintf(a->err, a->errlen, "fabric file '%s': out of memory", a->file);
	return -1;
}

static int valid_name(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < FABRICFILE_NAME &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

/* A node's name, or NODE:IF, one of its NICs. */
static int valid_nic_name(const char *s)
{
	const char *colon = strchr(s, ':');
	char node[FABRICFILE_NAME];

	if (!colon)
		return valid_name(s);
	if ((size_t)(colon - s) >= sizeof(node) || strlen(s) >= FABRICFILE_NAME)
		return 0;
	snprintf(node, sizeof(node), "%.*s", (int)(colon - s), s);
	return valid_name(node) && valid_name(colon + 1);
}

static int valid_rate(const struct at *a, const char *rate)
{
	if (strlen(rate) < FABRICFILE_NAME && bound_rate(rate) > 0)
		return 0;
	return bad(a, "rate is not a decimal number and kbit, mbit, gbit, gbps or GB/s, 1kbit to 1000000GB/s:",
		   rate);
}

/* The node named so, added when new; NULL out of memory. */
static struct fabricfile_node *node_of(struct fabricfile *ff, const char *name)
{
	struct fabricfile_node *n;
	long i = fabricfile_node_at(ff, name);

	if (i >= 0)
		return &ff->node[i];
	if (!(n = grow(ff->node, &ff->capnode, (size_t)ff->nnode + 1, sizeof(*ff->node), 64)))
		return NULL;
	ff->node = n;
	n = memset(&ff->node[ff->nnode], 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->leaf = -1;
	return namehash_add(&ff->names, (size_t)ff->nnode++, ff->node->name, sizeof(*n)) == 0 ? n : NULL;
}

long fabricfile_node_at(const struct fabricfile *ff, const char *name)
{
	return namehash_find(&ff->names, name, ff->nnode ? ff->node[0].name : "", sizeof(*ff->node));
}

/* The switch named so, or -1. */
static long switch_named(const struct fabricfile *ff, const char *name)
{
	return namehash_find(&ff->swnames, name, ff->nsw ? ff->sw[0].name : "", sizeof(*ff->sw));
}

/* One node of a declaration: under switch `leaf` (-1: none) or of NIC rate `rate` (NULL: none). */
static int declare(struct fabricfile *ff, const struct at *a, const char *name, long leaf,
		   const char *rate)
{
	struct fabricfile_node *n;

	if (!valid_nic_name(name))
		return bad(a, "a node's name is letters, digits, '.', '_' and '-', at most 63 (NODE:IF one of "
			      "its NICs):", name);
	if (switch_named(ff, name) >= 0)
		return bad(a, "a switch ('switch NAME ...' on any line) is not a node:", name);
	if (!(n = node_of(ff, name)))
		return oom(a);
	if (!n->line)
		n->line = a->line;
	if ((leaf >= 0 && n->leaf >= 0) || (rate && n->rate[0]))
		return bad(a, leaf >= 0 ? "the node is under a switch already:" :
					  "the node's NIC is declared already:", name);
	if (leaf >= 0)
		n->leaf = leaf;
	else
		snprintf(n->rate, sizeof(n->rate), "%s", rate);
	return 0;
}

/* The numbers a range's item gives ("7", "1-16", "001-128"): 0, or -1. */
static int item(const char *s, size_t len, long *lo, long *hi, int *width)
{
	char buf[48], *dash;

	if (len == 0 || len >= sizeof(buf) || strspn(s, "0123456789-") < len)
		return -1;
	snprintf(buf, sizeof(buf), "%.*s", (int)len, s);
	if ((dash = strchr(buf, '-')))
		*dash++ = '\0';
	*width = buf[0] == '0' && buf[1] ? (int)strlen(buf) : 0;
	return parse_long(buf, 0, LONG_MAX, lo) || parse_long(dash ? dash : buf, *lo, LONG_MAX, hi) ||
	       *hi - *lo >= FABRICFILE_RANGE ? -1 : 0;
}

int fabricfile_names(const char *word, int (*each)(const char *name, void *ctx), void *ctx)
{
	const char *open = strchr(word, '['), *close = open ? strchr(open, ']') : NULL, *s;
	char name[FABRICFILE_NAME * 2];
	long lo, hi, total = 0;
	int width, rc;

	if (!open)
		return each(word, ctx);
	if (!close || strchr(close + 1, '['))
		return -2;
	for (s = open + 1; s < close || s[-1] == ','; s += strcspn(s, ",]") + (s[strcspn(s, ",]")] == ',')) {
		if (item(s, strcspn(s, ",]"), &lo, &hi, &width) != 0 ||
		    (total += hi - lo + 1) > FABRICFILE_RANGE)
			return -3;
		for (long k = 0; k <= hi - lo; k++) {   /* not v <= hi: hi may be LONG_MAX */
			snprintf(name, sizeof(name), "%.*s%0*ld%s", (int)(open - word), word, width, lo + k,
				 close + 1);
			if ((rc = each(name, ctx)) != 0)
				return rc;
		}
	}
	return total > 0 ? 0 : -4;
}

int fabricfile_list(const char *list, int (*each)(const char *name, void *ctx), void *ctx,
		    char *bad, size_t badlen)
{
	char *copy = strdup(list);
	int rc = 0;

	if (!copy)
		return -1;
	for (char *s = copy, *w = copy; rc == 0 && s; w = s) {
		int depth = 0;
		for (s = w; *s && (*s != ',' || depth); s++)
			depth += (*s == '[') - (*s == ']');
		if (*s)
			*s++ = '\0';
		else
			s = NULL;
		rc = fabricfile_names(w, each, ctx);
		if (rc != 0)
			snprintf(bad, badlen, "%s", w);
	}
	free(copy);
	return rc;
}

/* A declaration being made of each node a word names. */
struct declaring {
	struct fabricfile *ff;
	const struct at *a;
	long leaf;
	const char *rate;
	int kinds;   /* a switch line's children so far: 1 nodes, 2 switches */
};

static int declare_one(const char *name, void *ctx)
{
	struct declaring *d = ctx;

	return declare(d->ff, d->a, name, d->leaf, d->rate) != 0 ? -1 : 0;
}

/* fabricfile_names' answer rc for word: 0, or -1 with a range's fault said. */
static int names_said(const struct at *a, const char *word, int rc)
{
	if (rc == -2)
		return bad(a, "a range of names is PREFIX[A-B,C,...]SUFFIX, once in a word:", word);
	if (rc == -3)
		return bad(a, "a range's item is N or A-B (A <= B, at most 1000000 names):", word);
	if (rc == -4)
		return bad(a, "a range names no node:", word);
	return rc != 0 ? -1 : 0;
}

/* Each node a word names (n7, or n[1-16,20]x): declared as above. */
static int declare_range(struct fabricfile *ff, const struct at *a, const char *word, long leaf,
			 const char *rate)
{
	struct declaring d = { ff, a, leaf, rate, 0 };

	return names_said(a, word, fabricfile_names(word, declare_one, &d));
}

/* A child of switch `up`: a switch declared on any line (it sits under up), else a node. */
static int child(const char *name, void *ctx)
{
	struct declaring *d = ctx;
	struct fabricfile *ff = d->ff;
	long c = switch_named(ff, name);

	d->kinds |= c < 0 ? 1 : 2;
	if (d->kinds == 3) {   /* a misspelt switch would be a node: never guessed */
		char what[FABRICFILE_NAME + 160];
		snprintf(what, sizeof(what), "switch '%s' has nodes and switches under it (a switch's children "
			 "are nodes, or switches); this one is %s:", ff->sw[d->leaf].name, c < 0 ? "no switch" : "a switch");
		return bad(d->a, what, name);
	}
	if (c < 0)
		return declare_one(name, ctx);
	if (c == d->leaf)
		return bad(d->a, "a switch cannot sit under itself:", name);
	if (ff->sw[c].parent >= 0)
		return bad(d->a, "the switch sits under another switch already:", name);
	if (!strcmp(ff->sw[c].rate, "-"))
		return bad(d->a, "a switch without an uplink ('-', the top) cannot sit under another:", name);
	ff->sw[c].parent = d->leaf;
	return 0;
}

/* A switch line's words after "switch": NAME RATE [CHILD...]; pass 1 the switch, pass 2 its children. */
static int switch_line(struct fabricfile *ff, const struct at *a, char **w, int n)
{
	struct fabricfile_switch *s;
	struct declaring d = { ff, a, n > 1 ? switch_named(ff, w[0]) : -1, NULL, 0 };
	long k;

	for (int i = 2; a->pass == 2 && i < n; i++)
		if (names_said(a, w[i], fabricfile_names(w[i], child, &d)) != 0)
			return -1;
	if (a->pass == 2)
		return 0;
	if (n < 2)
		return bad(a, "a switch needs its name and its uplink's rate: " USAGE ", not", "switch");
	if (!valid_name(w[0]))
		return bad(a, "a switch's name is letters, digits, '.', '_' and '-', at most 63:", w[0]);
	if (d.leaf >= 0)
		return bad(a, "the switch is declared already:", w[0]);
	if (strcmp(w[1], "-") && valid_rate(a, w[1]) != 0)
		return -1;
	if (!(s = grow(ff->sw, &ff->capsw, (size_t)ff->nsw + 1, sizeof(*ff->sw), 16)) ||
	    (ff->sw = s, snprintf(s[ff->nsw].name, FABRICFILE_NAME, "%s", w[0]),
	     namehash_add(&ff->swnames, (size_t)ff->nsw, s[0].name, sizeof(*s)) != 0))
		return oom(a);
	k = ff->nsw++;
	snprintf(s[k].rate, FABRICFILE_NAME, "%s", w[1]);
	s[k].parent = -1;
	s[k].group = -1;
	s[k].line = a->line;
	return 0;
}

const char *fabricfile_gpu_rate(const struct fabricfile *ff, const char *node)
{
	long i = namehash_find(&ff->gpunames, node, ff->ngpu ? ff->gpu[0][0] : "", sizeof(*ff->gpu));

	return i >= 0 ? ff->gpu[i][1] : NULL;
}

/* A gpu line's node (each a range names): its rate kept, once. */
static int gpu_one(const char *name, void *ctx)
{
	struct declaring *d = ctx;
	struct fabricfile *ff = d->ff;
	char (*g)[2][FABRICFILE_NAME];

	if (!valid_name(name))
		return bad(d->a, "a node's name is letters, digits, '.', '_' and '-', at most 63:", name);
	if (fabricfile_gpu_rate(ff, name))
		return bad(d->a, "the node's GPU links are declared already:", name);
	if (!(g = grow(ff->gpu, &ff->capgpu, (size_t)ff->ngpu + 1, sizeof(*ff->gpu), 16)) ||
	    (ff->gpu = g, snprintf(g[ff->ngpu][0], FABRICFILE_NAME, "%s", name),
	     namehash_add(&ff->gpunames, (size_t)ff->ngpu, g[0][0], sizeof(*g)) != 0))
		return oom(d->a);
	snprintf(g[ff->ngpu++][1], FABRICFILE_NAME, "%s", d->rate);
	return 0;
}

/* A group line's words after "group": NAME SWITCH... */
static int group_line(struct fabricfile *ff, const struct at *a, char **w, int n)
{
	char (*g)[FABRICFILE_NAME];

	if (n < 2)
		return bad(a, "a group needs its name and its switches: 'group NAME SWITCH...', not", "group");
	if (!valid_name(w[0]))
		return bad(a, "a group's name is letters, digits, '.', '_' and '-', at most 63:", w[0]);
	for (long i = 0; i < ff->ngroup; i++)
		if (!strcmp(ff->group[i], w[0]))
			return bad(a, "the group is declared already:", w[0]);
	if (!(g = grow(ff->group, &ff->capgroup, (size_t)ff->ngroup + 1, sizeof(*ff->group), 8)))
		return oom(a);
	ff->group = g;
	snprintf(g[ff->ngroup], FABRICFILE_NAME, "%s", w[0]);
	if (ff->ngroup++ == 0)
		ff->group_line = a->line;
	for (int i = 1; i < n; i++) {
		long sw = switch_named(ff, w[i]);
		if (sw < 0)
			return bad(a, "a group holds switches ('switch NAME ...' on any line); no such switch:", w[i]);
		if (ff->sw[sw].group >= 0)
			return bad(a, "the switch is in a group already:", w[i]);
		ff->sw[sw].group = ff->ngroup - 1;
	}
	return 0;
}

/* A global line's words after "global": LINKS RATE [minimal|adaptive]. */
static int global_line(struct fabricfile *ff, const struct at *a, char **w, int n)
{
	long links;

	if (ff->global_line > 0)
		return bad(a, "the global links are declared already, once for every pair of groups:", "global");
	if (n < 2 || n > 3)
		return bad(a, "the global links are 'global LINKS RATE [minimal|adaptive]', not", "global");
	if (parse_long(w[0], 1, 1000000, &links) != 0)
		return bad(a, "LINKS, the global links between each pair of groups, is a whole number from 1 "
			      "to 1000000, not", w[0]);
	if (valid_rate(a, w[1]) != 0)
		return -1;
	if (n == 3 && strcmp(w[2], "minimal") && strcmp(w[2], "adaptive"))
		return bad(a, "the routing is minimal or adaptive, not", w[2]);
	ff->global_links = links;
	ff->global_line = a->line;
	snprintf(ff->global_rate, sizeof(ff->global_rate), "%s", w[1]);
	ff->adaptive = n == 3 && !strcmp(w[2], "adaptive");
	return 0;
}

/*
 * What the whole file must hold once read: no switch under itself; with groups, a global line and
 * every tree's top in a group, and none under a switch; a global line
 * only with groups. 0, or -1 naming the line.
 */
static int groups_whole(const struct fabricfile *ff, struct at *a)
{
	if (ff->ngroup == 0 && ff->global_line > 0) {
		a->line = ff->global_line;
		return bad(a, "global links without a group: declare the groups ('group NAME SWITCH...'), not", "global");
	}
	if (ff->ngroup > 0 && ff->global_line == 0) {
		a->line = ff->group_line;
		return bad(a, "a group without global links: add 'global LINKS RATE [minimal|adaptive]' for", ff->group[0]);
	}
	long *seen = calloc((size_t)ff->nsw + 1, sizeof(long)), p;
	int rc = seen ? 0 : oom(a);

	for (long i = 0; rc == 0 && i < ff->nsw; i++) {
		for (p = i; p >= 0 && !seen[p]; p = ff->sw[p].parent)
			seen[p] = i + 1;   /* in any order the switches may loop: a walk up that meets its own steps */
		a->line = ff->sw[p >= 0 && seen[p] == i + 1 ? p : i].line;
		if (p >= 0 && seen[p] == i + 1)
			rc = bad(a, "the switches sit under each other in a loop, this one under itself:", ff->sw[p].name);
		else if (ff->ngroup > 0 && (ff->sw[i].group >= 0) == (ff->sw[i].parent >= 0))
			rc = bad(a, ff->sw[i].group >= 0 ? "a group holds the tops of its trees; this switch sits under "
				 "another:" : "with groups, every tree's top is in one ('group NAME SWITCH...'); this "
				 "one is in none:", ff->sw[i].name);
	}
	free(seen);
	return rc;
}

/* The order of node entries (rails_whole's sort): by node, then a node whole before its NICs, by IF. */
static const struct fabricfile *sorting;
static int by_name(const void *x, const void *y)
{
	const char *a = sorting->node[*(const long *)x].name, *b = sorting->node[*(const long *)y].name;
	size_t la = strcspn(a, ":"), lb = strcspn(b, ":");
	int c = strncmp(a, b, la < lb ? la : lb);

	return c ? c : la != lb ? (la < lb ? -1 : 1) : strcmp(a + la, b + lb);
}

/* Entry i's node name's length (up to its ':'), and whether it is a NIC (NODE:IF). */
static size_t base_len(const struct fabricfile *ff, long i, int *nic)
{
	size_t n = strcspn(ff->node[i].name, ":");

	*nic = ff->node[i].name[n] == ':';
	return n;
}

/*
 * Rails, once the file is read: a node declared by its NICs (NODE:IF) is
 * not declared whole too, and every such node has the same interfaces,
 * which become ff->rail. 0, or -1 naming the line.
 */
static int rails_whole(struct fabricfile *ff, struct at *a)
{
	long *o = malloc(((size_t)ff->nnode + 1) * sizeof(long)), first = -1, nfirst = 0;
	int rc = 0;

	if (!o)
		return oom(a);
	for (long i = 0; i < ff->nnode; i++)
		o[i] = i;
	sorting = ff;
	qsort(o, (size_t)ff->nnode, sizeof(*o), by_name);   /* a node's NICs after it, in IF order */
	for (long i = 0, j; i < ff->nnode && rc == 0; i = j) {
		int nic, nic2;
		size_t len = base_len(ff, o[i], &nic);
		for (j = i + 1; j < ff->nnode && base_len(ff, o[j], &nic2) == len &&
				!strncmp(ff->node[o[j]].name, ff->node[o[i]].name, len); j++)
			if (!nic || !nic2) {
				a->line = ff->node[o[j]].line;
				rc = bad(a, "a node is declared whole or by its NICs (NODE:IF), not both:", ff->node[o[j]].name);
			}
		if (rc != 0 || !nic)
			continue;
		if (first < 0) {
			first = i;
			nfirst = j - i;
		}
		int same = j - i == nfirst;
		for (long k = 0; same && k < nfirst; k++)
			same = !strcmp(ff->node[o[i + k]].name + len, ff->node[o[first + k]].name +
				       strcspn(ff->node[o[first]].name, ":"));
		if (!same) {
			a->line = ff->node[o[i]].line;
			rc = bad(a, "the rails differ across nodes (each node the same interfaces, one a rail, "
				    "as its first in name order has): this node's are not:", ff->node[o[i]].name);
		}
	}
	if (rc == 0 && first >= 0 && !(ff->rail = malloc((size_t)nfirst * sizeof(*ff->rail))))
		rc = oom(a);
	for (long k = 0; rc == 0 && first >= 0 && k < nfirst; k++)
		snprintf(ff->rail[ff->nrail++], FABRICFILE_NAME, "%s",
			 strchr(ff->node[o[first + k]].name, ':') + 1);
	free(o);
	return rc;
}

/* One line (modified: its words cut out): 0, or -1 with the message. */
static int parse_line(struct fabricfile *ff, const struct at *a, char *line)
{
	char *w[4096], *save = NULL;
	int n = 0;

	*(line + strcspn(line, "#")) = '\0';
	for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n == (int)(sizeof(w) / sizeof(w[0])))
			return bad(a, "more than 4095 words on a line: split the switch's nodes over "
				      "ranges, from", w[0]);
		w[n++] = t;
	}
	if (n == 0 || (a->pass == 1 && strcmp(w[0], "switch")))
		return 0;
	if (!strcmp(w[0], "switch"))
		return switch_line(ff, a, w + 1, n - 1);
	if (!strcmp(w[0], "group"))
		return group_line(ff, a, w + 1, n - 1);
	if (!strcmp(w[0], "global"))
		return global_line(ff, a, w + 1, n - 1);
	if (!strcmp(w[0], "gpu")) {
		struct declaring d = { ff, a, -1, n == 3 ? w[2] : "", 0 };
		if (n != 3)
			return bad(a, "a GPU node's links are 'gpu NODE RATE', not", w[0]);
		return valid_rate(a, w[2]) != 0 ? -1 : names_said(a, w[1], fabricfile_names(w[1], gpu_one, &d));
	}
	if (strcmp(w[0], "nic"))
		return bad(a, USAGE ", not", w[0]);
	if (n != 3)
		return bad(a, "a NIC is 'nic NODE RATE', not", w[0]);
	return valid_rate(a, w[2]) != 0 ? -1 : declare_range(ff, a, w[1], -1, w[2]);
}

int fabricfile_parse(struct fabricfile *ff, const char *text, const char *file, char *err,
		     size_t errlen)
{
	struct at a = { file, 0, 1, err, errlen };
	int rc = 0;

	memset(ff, 0, sizeof(*ff));
	for (; a.pass <= 2 && rc == 0; a.pass++) {   /* the switches first: then any line may name them */
		char *copy = strdup(text), *line = copy, *next;
		for (a.line = 1, rc = copy ? 0 : oom(&a); line && rc == 0; line = next, a.line++) {
			if ((next = strchr(line, '\n')))
				*next++ = '\0';
			rc = parse_line(ff, &a, line);
		}
		free(copy);
	}
	if (rc == 0)
		rc = groups_whole(ff, &a);
	if (rc == 0)
		rc = rails_whole(ff, &a);
	if (rc == 0 && ff->nsw == 0 && ff->nnode == 0 && ff->ngpu == 0)
		rc = -1, snprintf(err, errlen, "fabric file '%s' declares nothing: " USAGE, file);
	if (rc != 0)
		fabricfile_free(ff);
	return rc;
}

int fabricfile_load(struct fabricfile *ff, const char *path, char *err, size_t errlen)
{
	struct strbuf b;
	int rc;

	memset(ff, 0, sizeof(*ff));
	rc = text_load(path, TEXT_FABRIC, &b, err, errlen) != 0 ? -1 : fabricfile_parse(ff, b.s, path, err, errlen);
	strbuf_release(&b);
	return rc != 0 ? -1 : 0;
}

int fabricfile_knows(const struct fabricfile *ff, const char *node)
{
	char name[2 * FABRICFILE_NAME];

	snprintf(name, sizeof(name), "%s%s%s", node, ff->nrail ? ":" : "", ff->nrail ? ff->rail[0] : "");
	return fabricfile_node_at(ff, name) >= 0 || fabricfile_gpu_rate(ff, node) != NULL;
}

char *fabricfile_lines(const struct fabricfile *ff, const char *path, const char *const *nodes,
		       long n)
{
	struct strbuf b;

	strbuf_init(&b);
	strbuf_addf(&b, "file ");
	for (const char *p = path; *p; p++)   /* a line each: no control character */
		strbuf_addf(&b, "%c", (unsigned char)*p < ' ' ? '?' : *p);
	strbuf_addf(&b, "\n");
	for (long i = 0; i < ff->nsw; i++) {
		strbuf_addf(&b, "uplink_rate %s %s\n", ff->sw[i].name, ff->sw[i].rate);
		if (ff->sw[i].parent >= 0)
			strbuf_addf(&b, "parent %s %s\n", ff->sw[i].name, ff->sw[ff->sw[i].parent].name);
		if (ff->sw[i].group >= 0)
			strbuf_addf(&b, "group %s %s\n", ff->sw[i].name, ff->group[ff->sw[i].group]);
	}
	if (ff->ngroup > 0)
		strbuf_addf(&b, "global %ld %s %s\n", ff->global_links, ff->global_rate,
			    ff->adaptive ? "adaptive" : "minimal");
	for (long i = 0; i < n; i++)
		if (fabricfile_gpu_rate(ff, nodes[i]))
			strbuf_addf(&b, "gpu_rate %s %s\n", nodes[i], fabricfile_gpu_rate(ff, nodes[i]));
	for (long i = 0; i < n && ff->nnode > 0; i++)
		for (long r = 0; r < (ff->nrail ? ff->nrail : 1); r++) {
			char name[2 * FABRICFILE_NAME];
			snprintf(name, sizeof(name), "%s%s%s", nodes[i], ff->nrail ? ":" : "", ff->nrail ? ff->rail[r] : "");
			long k = fabricfile_node_at(ff, name);
			if (k < 0)
				continue;
			if (ff->node[k].leaf >= 0)
				strbuf_addf(&b, "switch %s %s\n", name, ff->sw[ff->node[k].leaf].name);
			if (ff->node[k].rate[0])
				strbuf_addf(&b, "nic_rate %s %s\n", name, ff->node[k].rate);
		}
	return strbuf_detach(&b);
}

void fabricfile_free(struct fabricfile *ff)
{
	free(ff->sw);
	free(ff->node);
	free(ff->group);
	free(ff->rail);
	free(ff->gpu);
	namehash_free(&ff->names);
	namehash_free(&ff->swnames);
	namehash_free(&ff->gpunames);
	memset(ff, 0, sizeof(*ff));
}
