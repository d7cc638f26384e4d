#!/usr/bin/env bash
# Model persistence benchmark (not part of `mvn verify`): an aggregation over a model of a 1,000,000-row PostgreSQL
# table, persisted vs not (speed-up), and the refresh time against PostgreSQL's CREATE TABLE AS of the same SQL.
# Usage: bench/run-persist.sh     Needs: JDK 17, Maven. Starts its own embedded PostgreSQL and Quarry on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/classpath.sh
java $quarry_dirs -Xmx1g -Djava.io.tmpdir=target -Xshare:off -Dlogback.configurationFile=bench/logback-bench.xml \
  -cp "$classpath" io.quarry.bench.PersistBenchmark
