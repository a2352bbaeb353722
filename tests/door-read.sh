#!/usr/bin/env bash
# tests/door-read.sh [TREE]: every place aller, collect, common and simulate open a
# file (fopen, freopen, fdopen, open, openat, opendir) outside the door
# that reads a user's file (common/text.h: text_open, text_load,
# text_lines; docs/security.md, "Reading a user's file"). Prints one line
# per call the list below does not allow ("FILE:LINE: CALL outside the
# door") and exits 1; silent and 0 when every call is the door's or allowed.
# A call is allowed by its file and how many of it that file has: a new one
# in an allowed file is still refused.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
# FILE CALL COUNT   why it may go around the door
allowed='
common/text.c open 1            the door itself
aller/world/counters.c fopen 4  sysfs counters and names (/sys/class/infiniband, net): the kernel writes them
aller/world/counters.c opendir 2  sysfs directories, listed
aller/world/limits.c fopen 1    sysfs link speeds
aller/world/limits.c opendir 5  sysfs directories, listed
aller/buffers/memcheck.c fopen 1  sysfs cache sizes
aller/buffers/gpuinfo.c fopen 1 sysfs numa_node
aller/buffers/gpuinfo.c opendir 1  sysfs directories, listed
aller/buffers/buffers_host.c fopen 1  /proc/meminfo
collect/read/input.c opendir 1  a directory of outputs, listed: each file then read through the door
collect/read/samples.c opendir 1  a directory of samples files, listed: each read through the door
collect/export/plots.c fopen 1  writes a plot data set (a write: replace.h and the result directory check)
collect/export/plots.c opendir 1  a plot directory, listed
collect/merge/merge.c open 1    the merge directory lock (O_DIRECTORY, flock)
common/replace.c open 1         the writer O_EXCL temporary file
common/replace.c fdopen 1       ... as a stream
common/replace.c fopen 1        the writer check that a regular file it replaces is its kind (magic)
simulate/main.c opendir 2       a campaign directory, listed: whether it is empty; removed (links not followed)
'
find aller collect common simulate \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) -print | sort |
	xargs grep -nEo '\b(fopen|freopen|fdopen|open|openat|opendir)[[:space:]]*\(' |
	sed 's/[[:space:]]*($//' | awk -v allowed="$allowed" '
	BEGIN {
		n = split(allowed, line, "\n")
		for (i = 1; i <= n; i++) if (split(line[i], w, " ") >= 3) want[w[1] " " w[2]] = w[3]
	}
	{
		split($0, p, ":")   # FILE:LINE:CALL
		key = p[1] " " p[3]; seen[key]++; where[key] = where[key] " " p[1] ":" p[2]
	}
	END {
		bad = 0
		for (k in seen) if (seen[k] > want[k] + 0) {
			split(k, w, " ")
			printf "%s: %s outside the door (%d, allowed %d):%s\n", w[1], w[2], seen[k], want[k] + 0, where[k]
			bad = 1
		}
		exit bad
	}'
