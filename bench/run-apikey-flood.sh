#!/usr/bin/env bash
# Anonymous API-key flood (issue #25 item 5; not part of `mvn verify`). One command: starts Quarry in embedded Jetty
# (real web.xml, H2 application database), then 24 anonymous clients send bogus X-Api-Key headers of the real shape
# while one signed-in client makes requests and a probe polls GET /api/health. Prints the signed-in p95 with the flood
# against the same request alone (measured in the same run), the health answers that were not 200 and the bcrypt
# checks the flood cost; with the per-address throttle, then without it.
# Usage: bench/run-apikey-flood.sh      BENCH_JAVA_OPTS="-Dseconds=30 -Dclients=60" for a longer or larger flood
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/classpath.sh
java $quarry_dirs -Xmx1g -Djava.io.tmpdir="$PWD/target" -Xshare:off -Dlogback.configurationFile=bench/logback-bench.xml \
  -DMB_LOAD_SAMPLE_CONTENT=false ${BENCH_JAVA_OPTS:-} -cp "$classpath" io.quarry.bench.ApiKeyFloodBenchmark
