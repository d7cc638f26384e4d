#!/usr/bin/env bash
# Throughput under concurrency (issue 14; not part of `mvn verify`). One command: starts an embedded PostgreSQL with a
# 1,000,000-row table and Quarry in embedded Jetty (real web.xml, H2 application database) and prints, each with its
# floor measured in the same run and the goal:
#   card query (SELECT 1 card) under wrk -t2 -c32  vs  GET /api/health under the same wrk  vs  raw JDBC SELECT 1 x32
#     vs  pgbench -c32 SELECT 1 (and the issue's 8,000 req/s scaled by this machine's floors against its reference run)
#   one card query alone vs raw JDBC SELECT 1 (median of interleaved runs)
#   a 10-card dashboard opened by 32 viewers at once (every dashcard query answered, p99)
#   then bench/run-sync.sh: sync of 1,000 tables x 20 columns vs the JDBC metadata walk   (skip with --no-sync)
# Usage: bench/run-throughput.sh [--no-sync]      BENCH_JAVA_OPTS=-Dseconds=30 for longer wrk runs (default 15 s)
# Needs JDK 17, Maven, wrk and pgbench (installed from Debian's packages when missing, as .ci/run installs packages).
set -euo pipefail
cd "$(dirname "$0")/.."
sync=yes
for arg in "$@"; do
  case "$arg" in
    --no-sync) sync=no ;;
    *) echo "unknown argument $arg" >&2; exit 2 ;;
  esac
done
packages=()
command -v wrk >/dev/null || packages+=(wrk)
# Debian (bookworm) ships pgbench with the server package, not postgresql-client
command -v pgbench >/dev/null || packages+=(postgresql)
if (( ${#packages[@]} )); then
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get install -y -q "${packages[@]}" >/dev/null || { $SUDO apt-get update -q && $SUDO apt-get install -y -q "${packages[@]}"; }
fi
source bench/classpath.sh
java $quarry_dirs -Xmx1g -Djava.io.tmpdir="$PWD/target" -Xshare:off -Dlogback.configurationFile=bench/logback-bench.xml \
  -DMB_LOAD_SAMPLE_CONTENT=false ${BENCH_JAVA_OPTS:-} -cp "$classpath" io.quarry.bench.ThroughputBenchmark
if [[ $sync == yes ]]; then
  echo
  echo "== (4) schema sync: bench/run-sync.sh (goal: a new database's full first sync <= 2x the per-table JDBC metadata walk)"
  bench/run-sync.sh | tee target/bench-sync.out | grep -E '^(Baseline|Quarry|Ratio|RESULT)'
fi
