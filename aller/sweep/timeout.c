/* timeout.c: see timeout.h. */
#include "timeout.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const phase_name[] = { "preparing the buffers", "MPI_Barrier",
					  "the all-to-all call" };
static volatile sig_atomic_t phase;
static char head[128], tail[1536];
static size_t head_len, tail_len;
static int lowest_rank, world_rank0;

static void say(const char *s, size_t n)
{
	if (write(STDERR_FILENO, s, n) < 0) {
		/* nothing left to do */
	}
}

static void on_alarm(int sig)
{
	const char *p = phase_name[phase];

	(void)sig;
	if (phase == TIMEOUT_BARRIER) {
		sleep(3);
		if (!world_rank0)
			_exit(3);
	} else if (!lowest_rank) {
		sleep(2);
	}
	say(head, head_len);
	say(p, strlen(p));
	say(tail, tail_len);
	_exit(3);
}

void timeout_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
}

static size_t clamp(int n, size_t size)
{
	return n < 0 ? 0 : (size_t)n >= size ? size - 1 : (size_t)n;
}

void timeout_prepare(long seconds, const char *where, int lowest, int world0)
{
	head_len = clamp(snprintf(head, sizeof(head), "aller: error: no progress within "
				  "--timeout=%ld s in ", seconds), sizeof(head));
	tail_len = clamp(snprintf(tail, sizeof(tail), "%s", where), sizeof(tail));
	lowest_rank = lowest;
	world_rank0 = world0;
}

void timeout_arm(long seconds, enum timeout_phase ph)
{
	phase = ph;
	if (seconds > 0 && ph == TIMEOUT_FILL)
		alarm((unsigned)seconds);
}

void timeout_disarm(long seconds)
{
	if (seconds > 0)
		alarm(0);
}
