/* nics.c: a node's network counters from its nic_counters lines (see nics.h). */
#include "nics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One "key=value" of a node's line onto s. */
static void one(struct nic_sums *s, const char *key, size_t klen, double v)
{
#define IS(name) (klen == strlen(name) && !strncmp(key, name, klen))
#define ENDS(name) (klen >= strlen(name) && !strncmp(key + klen - strlen(name), name, strlen(name)))
	if (IS("retrans_segs"))
		s->retrans += v;
	else if (IS("qdisc_drops"))
		s->qdrops += v;
	else if (ENDS("_dropped"))
		s->dropped += v;
	else if (ENDS("_errors") || IS("symbol_error"))
		s->errors += v;
	else if (IS("link_downed"))
		s->link_downed += v;
	else if (IS("port_xmit_wait"))
		s->xmit_wait += v;
	else if (IS("tx_bytes") || IS("port_xmit_data"))
		s->tx_bytes += v, s->has_tx = 1;
	else if (IS("offnode_tx_B"))
		s->aller_tx += v;
#undef IS
#undef ENDS
}

void nic_sums_add(const char *lines, const char *node, struct nic_sums *s)
{
	size_t nl = strlen(node);

	for (const char *l = lines; l && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		size_t len = strcspn(l, "\n");
		if (len <= nl || strncmp(l, node, nl) || l[nl] != ' ')
			continue;
		s->found = 1;
		for (const char *w = l + nl; w < l + len;) {
			w += strspn(w, " ;");
			size_t wl = strcspn(w, " ;\n");
			const char *eq = memchr(w, '=', wl);
			if (eq && eq[1] != '-')
				one(s, w, (size_t)(eq - w), strtod(eq + 1, NULL));
			w += wl ? wl : 1;
		}
	}
}

/* "1,234" */
static void grouped(char *buf, size_t len, double v)
{
	char digits[32];
	int n = snprintf(digits, sizeof(digits), "%.0f", v), o = 0;

	for (int i = 0; i < n && o + 2 < (int)len; i++) {
		buf[o++] = digits[i];
		if ((n - i - 1) % 3 == 0 && i < n - 1)
			buf[o++] = ',';
	}
	buf[o] = '\0';
}

void nic_words(const struct nic_sums *s, char *buf, size_t len)
{
	char r[32], d[32], e[32], x[32];

	buf[0] = '\0';
	if (!s->found)
		return;
	grouped(r, sizeof(r), s->retrans);
	grouped(d, sizeof(d), s->dropped);
	grouped(e, sizeof(e), s->errors);
	snprintf(buf, len, "%s TCP segment%s retransmitted, %s packet%s dropped, %s error%s", r,
		 s->retrans == 1 ? "" : "s", d, s->dropped == 1 ? "" : "s", e, s->errors == 1 ? "" : "s");
	if (s->link_downed > 0) {
		grouped(x, sizeof(x), s->link_downed);
		snprintf(buf + strlen(buf), len - strlen(buf), ", %s link down%s", x, s->link_downed == 1 ? "" : "s");
	}
	if (s->qdrops > 0) {
		grouped(x, sizeof(x), s->qdrops);
		snprintf(buf + strlen(buf), len - strlen(buf), ", %s packet%s dropped by its NICs' queues (qdisc)", x,
			 s->qdrops == 1 ? "" : "s");
	}
	if (s->xmit_wait > 0) {
		grouped(x, sizeof(x), s->xmit_wait);
		snprintf(buf + strlen(buf), len - strlen(buf), ", %s ticks waiting to send (port_xmit_wait)", x);
	}
}
