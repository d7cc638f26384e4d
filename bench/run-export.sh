#!/usr/bin/env bash
# Quarry's download benchmarks (not part of `mvn verify`). Each prints a RESULT line with a ratio against a baseline
# measured in the same run. Usage: bench/run-export.sh [csv|overhead|xlsx-heap|all]   (default: all)
#   csv        1,000,000-row CSV: POST /api/dataset/csv (curl) vs psql \copy (same query) TO STDOUT   target <= 1.5x
#   overhead   one-row query: POST /api/dataset vs raw JDBC, median of 3,000 interleaved runs      target <= 1 ms added
#   xlsx-heap  1,000,000-row XLSX export in a JVM limited to -Xmx256m: peak and live heap           target < 256 MiB
# Needs: JDK 17, Maven, curl and Debian's psql client. Starts its own embedded PostgreSQL and Quarry on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}"
source bench/classpath.sh
run() {
  java $quarry_dirs "$@" -Djava.io.tmpdir=target -Xshare:off -Dlogback.configurationFile=bench/logback-bench.xml \
    -cp "$classpath" io.quarry.bench.ExportBenchmark "$bench"
}
for bench in csv overhead xlsx-heap; do
  if [[ "$which" == all || "$which" == "$bench" ]]; then
    if [[ "$bench" == xlsx-heap ]]; then run -Xmx256m; else run -Xmx1g; fi
  fi
done
