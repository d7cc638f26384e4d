#!/usr/bin/env bash
# Soak (not part of `mvn verify`): 64 connections of mixed reads, card queries, writes and searches against Quarry in
# embedded Jetty for a few minutes; prints throughput, p50/p99 (overall and per kind), errors, and the live heap after
# a full GC at the start and the end, then the server's own metrics (one scrape of /api/metrics). Bounded: the run stops after [seconds] (+ at most 2 min for requests in flight).
# Usage: bench/run-soak.sh [--appdb=postgres] [seconds=180] [connections=64]
#        BENCH_HEAP=512m bench/run-soak.sh 60     (default -Xmx1g)
set -euo pipefail
cd "$(dirname "$0")/.."
appdb=h2
args=()
for arg in "$@"; do
  case "$arg" in
    --appdb=*) appdb="${arg#--appdb=}" ;;
    *) args+=("$arg") ;;
  esac
done
source bench/classpath.sh
java $quarry_dirs -Xmx"${BENCH_HEAP:-1g}" -Djava.io.tmpdir="$PWD/target" -Xshare:off -Dlogback.configurationFile=bench/logback-bench.xml \
  -DMB_LOAD_SAMPLE_CONTENT=false -Dquarry.test.appdb="$appdb" ${BENCH_JAVA_OPTS:-} -cp "$classpath" \
  io.quarry.bench.SoakBenchmark "${args[@]}"
