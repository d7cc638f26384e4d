#!/usr/bin/env bash
# Browser proof of signed-out embedding with Metabase's React SDK (issue #12, Proof): installs
# @metabase/embedding-sdk-react 0.56.3 with npm into a temporary directory, bundles tools/sdk-proof/page.jsx with esbuild,
# then io.quarry.tools.SdkProof starts Quarry (embedded Jetty, H2 application database, the Sample Database, a saved
# question, an API key), serves the page on a second port and host name (another origin) and drives Debian's headless
# Chromium with its normal security. Prints what the page shows and PASS or FAIL (exit status 0 or 1).
# Needs: JDK 17, Maven (the project's dependencies in ~/.m2), Node 20 + npm (registry reachable), chromium and
# chromium-driver (apt-get install -y chromium chromium-driver).
# Usage: tools/sdk-proof.sh            SDK_PROOF_DIR=/some/dir reuses an install there (kept when given)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
work="${SDK_PROOF_DIR:-$(mktemp -d)}"
[[ -z "${SDK_PROOF_DIR:-}" ]] && trap 'rm -rf "$work"' EXIT
if [[ ! -d "$work/node_modules/@metabase/embedding-sdk-react" ]]; then
  echo "npm install into $work ..."
  (cd "$work" && echo '{"name":"quarry-sdk-proof","private":true,"version":"0.0.0"}' > package.json \
    && npm install --no-audit --no-fund --loglevel=error \
         @metabase/embedding-sdk-react@0.56.3 react@18.3.1 react-dom@18.3.1 esbuild@0.28.2)
fi
mkdir -p "$work/site"
cp tools/sdk-proof/index.html "$work/site/"
cp tools/sdk-proof/page.jsx "$work/page.jsx"
(cd "$work" && ./node_modules/.bin/esbuild page.jsx --bundle --outfile=site/bundle.js --loader:.js=jsx \
   --define:process.env.NODE_ENV='"production"' --log-level=warning)
source bench/classpath.sh
mkdir -p target/sdk-proof
java $quarry_dirs -Djava.io.tmpdir=target -Dlogback.configurationFile=bench/logback-bench.xml \
  -cp "$classpath" io.quarry.tools.SdkProof "$work/site"
