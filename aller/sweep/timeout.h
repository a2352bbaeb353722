/*
 * timeout.h: --timeout, an alarm armed from the fill (or poison) of a call
 * to its end. The handler writes a message prepared before, with the phase
 * it caught, and exits 3. Only one rank should speak: the lowest rank of the
 * communicator speaks at once; the others wait 2 s first (the launcher ends
 * them when the first one exits), and ranks caught in the barrier, who wait
 * for someone else, stay silent but for world rank 0, after 3 s.
 */
#ifndef ALLER_TIMEOUT_H
#define ALLER_TIMEOUT_H

enum timeout_phase { TIMEOUT_FILL, TIMEOUT_BARRIER, TIMEOUT_CALL };

/* Installs the SIGALRM handler. */
void timeout_install(void);
/*
 * The message of the next calls: "...--timeout=SECONDS s in <phase>" and
 * `where` (from " at level ..." to the newline); lowest: this rank speaks
 * first; world0: it speaks for the ranks caught in the barrier.
 */
void timeout_prepare(long seconds, const char *where, int lowest, int world0);
/* Enters a phase; the alarm (seconds > 0) starts with the fill. */
void timeout_arm(long seconds, enum timeout_phase phase);
void timeout_disarm(long seconds);

#endif
