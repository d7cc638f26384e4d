#!/usr/bin/env bash
# Server-side chart rendering (issue #11): 100 chart PNGs of mixed displays, 600 px wide, through CardRenderer.png,
# beside the floor of encoding a blank PNG of the same sizes, measured in the same run. Prints a RESULT line with
# ms per chart and the ratio. Usage: bench/run-render.sh [rounds, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/classpath.sh
java $quarry_dirs -Xmx512m -Djava.awt.headless=true -Djava.io.tmpdir="$PWD/target" -Xshare:off ${BENCH_JAVA_OPTS:-} -cp "$classpath" \
  io.quarry.bench.RenderBenchmark "$@"
