#!/usr/bin/env bash
# tests/soak.sh [ROUNDS]: make soak. The files that run MPI and the local
# cluster (tests/e2e, tests/mpi, tests/mpich, tests/timed) ROUNDS times (3),
# each round beside `stress-ng --cpu 2` (both cores busy), through
# tests/repeat.sh; prints per round its exit and time, then per test passes
# and runs, failures first. Needs the test build and the cluster's packages
# (make soak builds and brings the cluster up). Exit 0 when nothing failed.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-${SOAK_ROUNDS:-3}}
files=(tests/e2e/*.bats tests/timed/*.bats tests/mpich/*.bats tests/mpi/*.bats)
LOAD_CPUS=2 exec bash tests/repeat.sh --load "$rounds" "${files[@]}"
