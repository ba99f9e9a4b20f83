#!/usr/bin/env bash
# The one command that runs every test: type checks, then unit and integration tests.
# It installs what the tests need by itself on a Debian machine and says what to install elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

# What the tests use of the system: build tools (keytar builds from source when its prebuilt
# binary cannot be downloaded), libsecret + gnome-keyring + D-Bus (the real OS keychain),
# notify-send (real desktop notifications), faketime (the tests at a moved clock).
declare -A package_of=(
  [python3]=python3 [make]=make [g++]=g++ [dbus-daemon]=dbus-daemon [dbus-send]=dbus-bin
  [gnome-keyring-daemon]=gnome-keyring [notify-send]=libnotify-bin [secret-tool]=libsecret-tools
  [faketime]=faketime
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
    echo "Install them (Debian/Ubuntu: apt-get install ${missing[*]}; Fedora: dnf install libsecret-devel gnome-keyring dbus-daemon libnotify libfaketime), then run again." >&2
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

echo "== formatting and import boundaries"
npm run --silent check:format
npm run --silent check:boundaries

echo "== unit and integration tests"
status=0
vitest_report=$(mktemp)
npx vitest run --reporter=default --reporter=json --outputFile.json="$vitest_report" || status=$?

# The tests that work with dates, again at a moment chosen to break them: Sunday 2027-03-28 00:58 UTC,
# two minutes before Europe's clocks go forward (the run crosses the change), on a machine in Los
# Angeles, where it is still Saturday evening: a weekend night, a DST change, and a machine zone that
# is neither the users' nor the schedules'. Whatever the real hour, a test that read the wall clock
# or the machine's zone instead of the moment it set fails here.
echo "== the date tests at a moved clock (libfaketime)"
clock_sensitive_tests=(
  test/api/dates.test.ts test/api/durations.test.ts
  test/core/first-run.test.ts test/core/free-now.test.ts test/core/planner.test.ts test/core/poll-plan.test.ts
  test/core/reservation-views.test.ts test/core/series-last-day.test.ts test/core/commands.test.ts
  test/service/demo-seed.test.ts test/service/query-dates.test.ts test/service/schedule-layout.test.ts
  test/service/slots.test.ts test/service/slot-rules.test.ts test/service/availability-rules.test.ts test/service/recurrence.test.ts
  test/core/user-zones.test.ts test/core/demo-any-hour.test.ts test/service/recurrence-caller-zone.test.ts
)
moved_clock_report=$(mktemp)
test/at-moment.sh 2027-03-28T00:58:00Z America/Los_Angeles \
  npx vitest run --reporter=default --reporter=json --outputFile.json="$moved_clock_report" "${clock_sensitive_tests[@]}" || status=$?

echo "== end-to-end tests (Chromium)"
export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium || echo /usr/bin/chromium)}"
e2e_report=$(mktemp)
PLAYWRIGHT_JSON_OUTPUT_NAME="$e2e_report" npx playwright test -c test/e2e/playwright.config.ts --reporter=list,json || status=$?

# One closing line in the plain form CI reads, over all three runs:
# "tests: N passed, N failed, N skipped" (a run whose report is missing counts as one failure).
node -e '
  const fs = require("fs");
  const read = (file) => { try { return JSON.parse(fs.readFileSync(file, "utf8")); } catch { return null; } };
  // A vitest run: a test file that fails outside any test (an error in a hook) counts as one failure.
  const vitestCounts = (file) => {
    const report = read(file);
    if (report === null) return null;
    const fileErrors = report.testResults.filter((result) => result.status === "failed" && !result.assertionResults.some((test) => test.status === "failed")).length;
    return { passed: report.numPassedTests, failed: report.numFailedTests + fileErrors, skipped: report.numPendingTests + report.numTodoTests };
  };
  const playwrightCounts = (file) => {
    const stats = read(file)?.stats;
    return stats ? { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped } : null;
  };
  const runs = [
    ["unit and integration", vitestCounts(process.argv[1])],
    ["at a moved clock", vitestCounts(process.argv[2])],
    ["end-to-end", playwrightCounts(process.argv[3])],
  ];
  const total = (key, missing) => runs.reduce((sum, [, counts]) => sum + (counts ? counts[key] : missing), 0);
  console.log(runs.map(([name, counts]) => `${name}: ${counts ? `${counts.passed} passed, ${counts.failed} failed` : "no report"}`).join("; "));
  console.log(`tests: ${total("passed", 0)} passed, ${total("failed", 1)} failed, ${total("skipped", 0)} skipped`);
' "$vitest_report" "$moved_clock_report" "$e2e_report"
rm -f "$vitest_report" "$moved_clock_report" "$e2e_report"
exit "$status"
