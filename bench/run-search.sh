#!/usr/bin/env bash
# Search at scale (not part of `mvn verify`): 10,000 collections and 100,000 cards seeded into the application
# database; GET /api/search?q=<word>&limit=50 (a common, a rare and a collection word; admin and ordinary user) through
# HTTP beside one raw SQL LIKE query over the same rows (median of N rounds each, same run). Prints RESULT lines with the ratio.
# Usage: bench/run-search.sh [--appdb=postgres] [rounds]     (default: H2 application database, 15 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
appdb=h2
rounds=15
for arg in "$@"; do
  case "$arg" in
    --appdb=*) appdb="${arg#--appdb=}" ;;
    *) rounds="$arg" ;;
  esac
done
source bench/classpath.sh
java $quarry_dirs -Xmx1g -Djava.io.tmpdir="$PWD/target" -Xshare:off -Dlogback.configurationFile=bench/logback-bench.xml \
  -Dquarry.test.appdb="$appdb" ${BENCH_JAVA_OPTS:-} -cp "$classpath" io.quarry.bench.SearchBenchmark "$rounds"
