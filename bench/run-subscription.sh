#!/usr/bin/env bash
# Delivering one subscription of a 10-card dashboard (charts rendered, CSV attachments, two emails over a real SMTP
# server) against a floor measured in the same run: the ten dashcard queries over HTTP. Prints a RESULT line.
# Usage: bench/run-subscription.sh   (BENCH_JAVA_OPTS=-Drounds=9 for more rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/classpath.sh
java $quarry_dirs -Xmx1g ${BENCH_JAVA_OPTS:-} -Djava.awt.headless=true -Djava.io.tmpdir=target -Xshare:off \
  -Dlogback.configurationFile=bench/logback-bench.xml -cp "$classpath" io.quarry.bench.SubscriptionBenchmark
