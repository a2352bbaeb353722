/*
 * export.h: collect --openmetrics DIR...: merged campaigns in Prometheus'
 * text exposition format (node_exporter's textfile collector reads it; so
 * does promtool check metrics). Metric names aller_*, in base units; labels
 * campaign, point (its key, n4-contiguous-SERIES), nodes, mode, algo, split,
 * commsize, bytes (per peer). Samples carry no timestamp (the textfile
 * collector refuses them): each point's start is a gauge of its own,
 * aller_point_start_timestamp_seconds, from its output's '# start:'.
 */
#ifndef COLLECT_EXPORT_H
#define COLLECT_EXPORT_H

/* Exit status: 0, 2 (usage), 3 (a merged table unreadable, stdout not written). */
int export_main(int argc, char **argv);

#endif
