# Sourced by the bench scripts, from the checkout's root. Builds Quarry (server/) and the tests module (tests/) without
# running a test and sets:
#   classpath    the tests' classes (the benchmark programs live there), Quarry's classes and every test dependency,
#                and the database server binaries the tests start
#   quarry_dirs  the system properties that tell the test harness where the checkout and the server module are
mkdir -p target
mvn -B -q ${BENCH_MVN_OPTS:-} -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/bench.classpath \
  -Dmdep.includeScope=test
classpath="tests/target/test-classes:$(cat tests/target/bench.classpath):tests/target/test-binaries/*"
quarry_dirs="-Dquarry.repo.dir=$PWD -Dquarry.server.dir=$PWD/server"
