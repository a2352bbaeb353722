/* findings_topology.c: the topology's outcome as a finding and the verdict's words (topology.h). */
#include <stdio.h>
#include <string.h>

#include "findings_impl.h"
#include "topology.h"

#define TOPO_NAMED 4   /* alternatives named at once, at most */

/* What was judged, in words: "4 rows of 1 MiB per peer or more", "12 --pairs links of 1 MiB or more", or both. */
static void judged_words(const struct topo *t, char *buf, size_t len)
{
	if (t->pairs == 0)
		snprintf(buf, len, "%ld row%s of 1 MiB per peer or more", t->rows, t->rows == 1 ? "" : "s");
	else if (t->rows == 0)
		snprintf(buf, len, "%ld --pairs link%s of 1 MiB or more", t->pairs, t->pairs == 1 ? "" : "s");
	else
		snprintf(buf, len, "%ld row%s of 1 MiB per peer or more and %ld --pairs link%s", t->rows,
			 t->rows == 1 ? "" : "s", t->pairs, t->pairs == 1 ? "" : "s");
}

/* What the move m changes and does not fit, in words: "none stops fitting", or how many, outvoted. */
static void against_words(const struct topo *t, const struct topo_move *m, char *buf, size_t len)
{
	if (m->bad == 0)
		snprintf(buf, len, "none stops fitting");
	else
		snprintf(buf, len, "%ld it changes %s not fit it (%ld of them fitted as declared), outvoted %ld to %ld",
			 m->bad, m->bad == 1 ? "does" : "do", m->losses, topo_won(t, m), m->bad);
}

int find_topology(struct fout *o, const struct topo *t, char *words, size_t len)
{
	const struct topo_move *best[TOPO_NAMED];
	int nb = topo_outcome(t, best, TOPO_NAMED);
	char who[TOPO_NAMED * (TOPO_NAME + 8)] = "", text[1536], what[160], against[160];
	const char *kinds = t->pairs == 0 ? "rows" : t->rows == 0 ? "--pairs links" : "rows and --pairs links";

	if (nb < 0 && (t->nodes > TOPO_NODES || (t->past && t->nodes == 0))) {
		snprintf(words, len, "the topology taken as declared (checked on the points of at most %d nodes, %d "
			 "in all; this campaign has %s)", TOPO_NODES, TOPO_NODES, t->nodes ? "more" : "no such point");
		return 0;
	}
	if (nb < 0) {
		snprintf(words, len, "%s", t->n > 0 ? "the topology taken as declared (no row of 1 MiB per peer or "
			 "more that a link bounds, nor --pairs link of 1 MiB or more, to check it by)" : "");
		return 0;
	}
	judged_words(t, what, sizeof(what));
	if (t->past)   /* its larger points not checked */
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " of its points of at most %d nodes", TOPO_NODES);
	if (nb == 0) {
		snprintf(words, len, "the topology verified (%s at %.0f%%-%.0f%% of their bound; no node moved to "
			 "another leaf fits them better)", what, 100 * t->lo, 100 * t->hi);
		return 1;
	}
	against_words(t, best[0], against, sizeof(against));
	for (int i = 0; i < nb; i++)
		snprintf(who + strlen(who), sizeof(who) - strlen(who), "%s%s on %s", i == 0 ? "" : i == nb - 1 ? " or " : ", ",
			 best[i]->node, best[i]->to);
	if (nb == 1) {
		snprintf(words, len, "the topology NOT as declared: %s measures as on %s (below)", best[0]->node, best[0]->to);
		snprintf(text, sizeof(text), "%s measures as on %s, not on %s as the topology says (Slurm's topology.conf "
			 "or the fabric file): with %s there, %ld more of the %s fit their bound (%.0f%%-%.0f%% of "
			 "those it changes) and %s; as declared they read %.0f%%-%.0f%%. Check its "
			 "cable: every bound through it is wrong until the topology says where it is.", best[0]->node,
			 best[0]->to, best[0]->from, best[0]->node, topo_won(t, best[0]), what, 100 * best[0]->lo,
			 100 * best[0]->hi, against, 100 * t->lo, 100 * t->hi);
	} else {
		snprintf(words, len, "the topology NOT as declared: one node measures as on another leaf, %s on %s or %d "
			 "more (below)", best[0]->node, best[0]->to, nb - 1);
		snprintf(text, sizeof(text), "The %s fit one node on another leaf, not the topology as declared "
			 "(Slurm's topology.conf or the fabric file): %s, and no point of this campaign tells them apart: "
			 "with any of them, %ld more of the %s fit their bound (%.0f%%-%.0f%% of those it changes) and "
			 "%s; as declared they read %.0f%%-%.0f%%. Check those cables: every bound "
			 "through the one moved is wrong until the topology says where it is.", kinds, who, topo_won(t, best[0]),
			 what, 100 * best[0]->lo, 100 * best[0]->hi, against, 100 * t->lo, 100 * t->hi);
	}
	find_emit(o, FK_topology, "warning", text, NULL, 0, "candidates", (double)nb, "rows_won", (double)topo_won(t, best[0]),
		  "rows", (double)t->rows, "pairs", (double)t->pairs, NULL);
	return -1;
}
