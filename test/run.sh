#!/usr/bin/env bash
# The one command that runs every test: type checks, then unit and integration tests.
# It installs what the tests need by itself on a Debian machine and says what to install elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

# What the tests use of the system: build tools (keytar builds from source when its prebuilt
# binary cannot be downloaded), libsecret + gnome-keyring + D-Bus (the real OS keychain),
# notify-send (real desktop notifications).
declare -A package_of=(
  [python3]=python3 [make]=make [g++]=g++ [dbus-daemon]=dbus-daemon [dbus-send]=dbus-bin
  [gnome-keyring-daemon]=gnome-keyring [notify-send]=libnotify-bin [secret-tool]=libsecret-tools
)
missing=()
for tool in "${!package_of[@]}"; do command -v "$tool" >/dev/null || missing+=("${package_of[$tool]}"); done
pkg-config --exists libsecret-1 2>/dev/null || missing+=(libsecret-1-dev)
# The popover's end-to-end tests drive a real Chromium (Debian's; CHROMIUM_PATH overrides).
[ -n "${CHROMIUM_PATH:-}" ] || command -v chromium >/dev/null || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "== installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends pkg-config "${missing[@]}" >/dev/null
  else
    echo "Missing system packages: ${missing[*]}." >&2
    echo "Install them (Debian/Ubuntu: apt-get install ${missing[*]}; Fedora: dnf install libsecret-devel gnome-keyring dbus-daemon libnotify), then run again." >&2
    exit 1
  fi
fi

# Dependencies from the lockfile, installed after the system packages so native modules build
# (keytar is optional for users, who fall back to memory, but the tests need it).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] \
  || ! node -e 'require("libsql"); require("keytar")' 2>/dev/null; then
  echo "== npm ci"
  npm ci --no-audit --no-fund
fi

echo "== type check"
npx tsc -p tsconfig.json
npx svelte-check --tsconfig renderer/tsconfig.json --fail-on-warnings

echo "== unit and integration tests"
status=0
vitest_report=$(mktemp)
npx vitest run --reporter=default --reporter=json --outputFile.json="$vitest_report" || status=$?

echo "== end-to-end tests (Chromium)"
export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium || echo /usr/bin/chromium)}"
e2e_report=$(mktemp)
PLAYWRIGHT_JSON_OUTPUT_NAME="$e2e_report" npx playwright test -c test/e2e/playwright.config.ts --reporter=list,json || status=$?

# One closing line in the plain form CI reads, over both runners:
# "tests: N passed, N failed, N skipped" (a runner whose report is missing counts as one failure).
node -e '
  const fs = require("fs");
  const read = (file) => { try { return JSON.parse(fs.readFileSync(file, "utf8")); } catch { return null; } };
  const v = read(process.argv[1]);
  const e = read(process.argv[2])?.stats;
  // A test file that fails outside any test (an error in a hook) counts as one failure.
  const fileErrors = v ? v.testResults.filter((file) => file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed")).length : 0;
  const passed = (v ? v.numPassedTests : 0) + (e ? e.expected + e.flaky : 0);
  const failed = (v ? v.numFailedTests + fileErrors : 1) + (e ? e.unexpected : 1);
  const skipped = (v ? v.numPendingTests + v.numTodoTests : 0) + (e ? e.skipped : 0);
  console.log(`unit and integration: ${v ? `${v.numPassedTests} passed, ${v.numFailedTests + fileErrors} failed` : "no report"}; end-to-end: ${e ? `${e.expected + e.flaky} passed, ${e.unexpected} failed` : "no report"}`);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
' "$vitest_report" "$e2e_report"
rm -f "$vitest_report" "$e2e_report"
exit "$status"
