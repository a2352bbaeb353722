/* health.c: the share of the bound the network-bound rows reach (see health.h). */
#include "health.h"

#include <math.h>
#include <string.h>

void health_init(struct health *h)
{
	memset(h, 0, sizeof(*h));
	h->weakest.point = -1;
}

/* Whether a row speaks for the network: a NIC, an uplink or global links bound it, whole, and it has a share. */
static int network_bound(const struct mrow *r)
{
	return (!strncmp(r->BOTTLENECK, "nic:", 4) || !strncmp(r->BOTTLENECK, "up:", 3) ||
		!strncmp(r->BOTTLENECK, "global:", 7)) &&
	       !strstr(r->BOTTLENECK, "(partial") && r->bytes >= HEALTH_MIN_BYTES &&
	       isfinite(r->eff_bound) && r->eff_bound > 0;
}

void health_end(struct health *h)
{
	if (!h->have)
		return;
	if (h->rows == 0 || h->cur.eff_bound < h->lo) {
		h->lo = h->cur.eff_bound;
		h->weakest = h->cur;
	}
	if (h->rows == 0 || h->cur.eff_bound > h->hi)
		h->hi = h->cur.eff_bound;
	h->rows++;
	h->have = 0;
}

void health_row(struct health *h, const struct mrow *r)
{
	if (h->have && (r->point != h->cur.point || r->level != h->cur.level))
		health_end(h);
	if (!network_bound(r))
		return;
	if (!h->have || r->bytes > h->cur.bytes ||
	    (r->bytes == h->cur.bytes && r->eff_bound > h->cur.eff_bound))
		h->cur = *r;
	h->have = 1;
}
