#!/usr/bin/env bash
# The one command that runs every test: type checks, then unit and integration tests.
# It installs what the tests need by itself on a Debian machine and says what to install elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

# better-sqlite3 builds from source when its prebuilt binary cannot be downloaded.
need_build_tools=()
for tool in python3 make g++; do command -v "$tool" >/dev/null || need_build_tools+=("$tool"); done
if [ ${#need_build_tools[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++
  else
    echo "Missing build tools: ${need_build_tools[*]}. Install python3, make and a C++ compiler, then run again." >&2
    exit 1
  fi
fi

node -e 'require("better-sqlite3")' 2>/dev/null || npm rebuild better-sqlite3 >/dev/null

echo "== type check"
npx tsc -p tsconfig.json

echo "== unit and integration tests"
report=$(mktemp)
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" || status=$?
# One closing line in the plain form CI reads: "tests: N passed, N failed, N skipped".
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
' "$report" || true
rm -f "$report"
exit "$status"
