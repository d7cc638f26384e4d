#!/usr/bin/env bash
# Server-side chart rendering (issue #11): 100 chart PNGs of mixed displays, 600 px wide, through CardRenderer.png,
# beside the floor of encoding a blank PNG of the same sizes, measured in the same run. Prints a RESULT line with
# ms per chart and the ratio. Usage: bench/run-render.sh [rounds, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -o -B -q -DskipTests process-test-classes dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
classpath="target/classes:target/test-classes:$(cat target/bench.classpath):target/test-binaries/*"
java -Xmx512m -Djava.awt.headless=true -Djava.io.tmpdir="$PWD/target" -Xshare:off ${BENCH_JAVA_OPTS:-} -cp "$classpath" \
  io.quarry.bench.RenderBenchmark "$@"
