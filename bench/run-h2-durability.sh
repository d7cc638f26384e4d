#!/usr/bin/env bash
# The cost of durable H2 commits (WRITE_DELAY=0, Quarry's setting) against H2's default WRITE_DELAY=500: committed
# single-row inserts per second with 1 and 8 writers. Prints RESULT lines with the ratio.
# Usage: bench/run-h2-durability.sh [seconds per run, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests process-test-classes dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
classpath="target/classes:target/test-classes:$(cat target/bench.classpath):target/test-binaries/*"
java -Xmx512m -Djava.io.tmpdir="$PWD/target" -Xshare:off ${BENCH_JAVA_OPTS:-} -cp "$classpath" \
  io.quarry.bench.H2DurabilityBenchmark "$@"
