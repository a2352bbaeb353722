/* Unit tests: a node's network counters from a point's nic_counters lines (collect/judge/nics.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "judge/nics.h"

static const char lines[] =
	"n1 aller offnode_tx_B=100000000; eth0 tx_bytes=104000000 rx_bytes=9 tx_dropped=0 rx_dropped=2 "
	"tx_errors=0 rx_errors=0; tcp retrans_segs=12\n"
	"n3 aller offnode_tx_B=100000000; eth0 tx_bytes=310000000 rx_dropped=-; mlx5_0:1 symbol_error=3 "
	"link_downed=1 port_xmit_wait=5000 port_xmit_data=4; tcp retrans_segs=1234\n"
	"n30 aller offnode_tx_B=1; tcp retrans_segs=99999\n"
	"2 more nodes not listed\n";

static void sums_of_a_node(void **state)
{
	struct nic_sums s = { 0 };
	char words[256];

	(void)state;
	nic_sums_add(lines, "n3", &s);
	assert_true(s.found && s.has_tx);
	assert_true(s.retrans == 1234 && s.errors == 3 && s.link_downed == 1 && s.xmit_wait == 5000);
	assert_true(s.tx_bytes == 310000004 && s.aller_tx == 100000000 && s.dropped == 0);
	nic_words(&s, words, sizeof(words));
	assert_string_equal(words, "1,234 TCP segments retransmitted, 0 packets dropped, 3 errors, 1 link down, "
			    "5,000 ticks waiting to send (port_xmit_wait)");
	/* two points' lines add up; n1 is not n10 nor n30 */
	memset(&s, 0, sizeof(s));
	nic_sums_add(lines, "n1", &s);
	nic_sums_add(lines, "n1", &s);
	assert_true(s.retrans == 24 && s.dropped == 4);
	nic_words(&s, words, sizeof(words));
	assert_string_equal(words, "24 TCP segments retransmitted, 4 packets dropped, 0 errors");
	memset(&s, 0, sizeof(s));
	nic_sums_add(lines, "n2", &s);
	nic_words(&s, words, sizeof(words));
	assert_false(s.found);
	assert_string_equal(words, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sums_of_a_node),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
