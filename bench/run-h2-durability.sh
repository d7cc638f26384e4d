#!/usr/bin/env bash
# The cost of durable H2 commits (WRITE_DELAY=0, Quarry's setting) against H2's default WRITE_DELAY=500: committed
# single-row inserts per second with 1 and 8 writers. Prints RESULT lines with the ratio.
# Usage: bench/run-h2-durability.sh [seconds per run, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/classpath.sh
java $quarry_dirs -Xmx512m -Djava.io.tmpdir="$PWD/target" -Xshare:off ${BENCH_JAVA_OPTS:-} -cp "$classpath" \
  io.quarry.bench.H2DurabilityBenchmark "$@"
