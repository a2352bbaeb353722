/*
 * status.h: 'collect --status', a campaign's status table (campaigns/status.sh
 * asks Slurm and hands its answers here): one row per point of the manifest,
 * in its order: the key, its job, Slurm's state and exit code, elapsed time,
 * node list, its output's files and the output's state (state.h's, over the
 * raw outputs), with how each earlier attempt of its job ended.
 *
 * Slurm's record of a job is sacct's where sacct has it ended under its own
 * name, else the controller's live one (slurmdbd's lags), else sacct's, else
 * UNKNOWN. A job whose name is not the one submitted (its id was reused) is
 * 'unknown'; one pending for a reason that will not clear 'stuck (reason)';
 * one Slurm has no record of is as its output says it ended, marked
 * '(output)' (one line on stderr counts them); a point of a running job
 * whose output has no end yet is 'running'.
 */
#ifndef COLLECT_STATUS_H
#define COLLECT_STATUS_H

/*
 * collect --status [--tsv] MANIFEST RAW SACCT SCONTROL: SACCT the output of
 * 'sacct -X -n -P -o JobID,JobName%200,State,ExitCode,Elapsed,NodeList,Reason',
 * SCONTROL of 'scontrol -o show job' (either may be empty or missing).
 * Returns 0 when every point is complete, 1 otherwise, 2 usage, 3 out of memory.
 */
int status_main(int argc, char **argv);

#endif
