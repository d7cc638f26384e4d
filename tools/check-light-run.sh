#!/usr/bin/env bash
# Issue #16's proof that `mvn jetty:run` is light on a fresh machine: a copy of the checkout (pom.xml, server/, tests/)
# run with plain `mvn jetty:run` on an EMPTY local Maven repository, until Quarry answers /api/health. Fails when that run
#   - resolved (downloaded) any test-scoped artifact: a library only the tests module declares (JUnit, Mockito,
#     Selenium, GreenMail, embedded PostgreSQL, fastexcel's reader) or a database server binary the tests start,
#   - compiled a test (tests/target or server/target/test-classes exists),
#   - printed an XML-schema warning.
# It prints what the fresh run downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/quarry-light-run.XXXXXX")
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/project" "$work/repository"
(cd "${QUARRY_SOURCES:-.}" && tar -cf - --exclude=target pom.xml server tests) | tar -xf - -C "$work/project"
settings="$work/settings.xml"
# The local repository ~/.m2/repository serves as the first remote (file://: no bandwidth, and offline as far as it
# goes); what it lacks comes from Maven Central as usual.
if [ -d "$HOME/.m2/repository" ]; then
  cat > "$settings" <<XML
<settings>
  <profiles><profile><id>local-cache-first</id>
    <repositories>
      <repository><id>local-cache</id><url>file://$HOME/.m2/repository</url>
        <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots></repository>
      <repository><id>central</id><url>https://repo.maven.apache.org/maven2</url><snapshots><enabled>false</enabled></snapshots></repository>
    </repositories>
    <pluginRepositories>
      <pluginRepository><id>local-cache</id><url>file://$HOME/.m2/repository</url>
        <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots></pluginRepository>
      <pluginRepository><id>central</id><url>https://repo.maven.apache.org/maven2</url><snapshots><enabled>false</enabled></snapshots></pluginRepository>
    </pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>local-cache-first</activeProfile></activeProfiles>
</settings>
XML
else
  echo '<settings/>' > "$settings"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
log="$work/jetty-run.log"
(cd "$work/project" && set -m && exec setsid mvn -B -s "$settings" -Dmaven.repo.local="$work/repository" \
   -Djetty.http.port="$port" jetty:run >"$log" 2>&1) &
pid=$!
healthy=""
for _ in $(seq 1 600); do
  if curl -fs "http://127.0.0.1:$port/api/health" >/dev/null 2>&1; then healthy=yes; break; fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 1
done
failed=0
if [ -z "$healthy" ]; then
  echo "FAIL: mvn jetty:run did not serve /api/health on port $port; its output:"; tail -50 "$log"; exit 1
fi
testonly=$(cd "$work/repository" && find org/junit org/mockito org/seleniumhq com/icegreen io/zonky ch/vorburger \
  org/dhatim/fastexcel-reader -name '*.jar' 2>/dev/null || true)
if [ -n "$testonly" ]; then
  echo "FAIL: jetty:run downloaded test-scoped artifacts:"; echo "$testonly"; failed=1
fi
if [ -d "$work/project/tests/target" ] || [ -d "$work/project/server/target/test-classes" ]; then
  echo "FAIL: jetty:run built the tests (tests/target or server/target/test-classes exists)"; failed=1
fi
if grep -E '^\[(WARNING|ERROR)\]' "$log" | grep -iE 'schema|xsd|dtd'; then
  echo "FAIL: XML-schema warnings on the console of jetty:run (above)"; failed=1
fi
jars=$(find "$work/repository" -name '*.jar' | wc -l)
size=$(du -sm "$work/repository" | cut -f1)
echo "largest downloads:"
# awk reads the whole sorted list (no `head`): under pipefail a reader that stops early kills sort with SIGPIPE (141).
find "$work/repository" -name '*.jar' -printf '%s %P\n' | sort -rn | awk 'NR <= 8 {printf "  %6.1f MB  %s\n", $1/1e6, $2}'
echo "mvn jetty:run on an empty local repository: ${size} MB downloaded (${jars} jars)"
[ $failed -eq 0 ] && echo "OK: no test-scoped artifact, no test compiled, no XML-schema warning"
exit $failed
