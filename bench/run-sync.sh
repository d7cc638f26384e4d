#!/usr/bin/env bash
# Schema sync benchmark: Quarry's sync of a 1,000-table x 20-column PostgreSQL schema (embedded PostgreSQL) timed
# against the raw JDBC metadata calls for the same schema, measured in the same run; plus the sample-database
# generation time. Not part of `mvn verify`.
#
#   bench/run-sync.sh                    # H2 application database (the default deployment)
#   bench/run-sync.sh --appdb=postgres   # PostgreSQL application database (in the same embedded server)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target/bench/classes
source bench/classpath.sh
CP="$classpath"
javac -nowarn -d target/bench/classes -cp "$CP" bench/SyncBench.java
exec java $quarry_dirs -Xmx1g ${BENCH_JAVA_OPTS:-} -Djava.io.tmpdir="$PWD/target" -cp "target/bench/classes:$CP" io.quarry.sync.SyncBench "$@"
