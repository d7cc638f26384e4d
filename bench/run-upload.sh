#!/usr/bin/env bash
# CSV upload memory (issue #25 item 6; not part of `mvn verify`). One command: starts Quarry in embedded Jetty (real
# web.xml, H2 application database, uploads into an embedded PostgreSQL; -Dtarget=h2 for an H2 file) in this JVM and uploads CSV files of 5, 20 and 43 MB,
# each streamed by the client from disk; prints per file the heap the upload held (largest heap live after a GC,
# above the heap live before) and the largest heap used at any sample, each over the file's size.
# Usage: bench/run-upload.sh      BENCH_JAVA_OPTS=-Dsizes=5,43,150 for other sizes (MB)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/classpath.sh
java $quarry_dirs -Xmx1g -Djava.io.tmpdir="$PWD/target" -Xshare:off -Dlogback.configurationFile=bench/logback-bench.xml \
  -DMB_LOAD_SAMPLE_CONTENT=false ${BENCH_JAVA_OPTS:-} -cp "$classpath" io.quarry.bench.UploadBenchmark
