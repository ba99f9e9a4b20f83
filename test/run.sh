#!/usr/bin/env bash
# The one command that runs every test: type checks, then unit and integration tests.
# It installs what the tests need by itself on a Debian machine and says what to install elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

# What the tests use of the system: build tools (native modules build from source when no
# prebuilt binary can be downloaded), libsecret + gnome-keyring + D-Bus (the real OS keychain),
# notify-send (real desktop notifications).
declare -A package_of=(
  [python3]=python3 [make]=make [g++]=g++ [dbus-daemon]=dbus-daemon [dbus-send]=dbus-bin
  [gnome-keyring-daemon]=gnome-keyring [notify-send]=libnotify-bin [secret-tool]=libsecret-tools
)
missing=()
for tool in "${!package_of[@]}"; do command -v "$tool" >/dev/null || missing+=("${package_of[$tool]}"); done
pkg-config --exists libsecret-1 2>/dev/null || missing+=(libsecret-1-dev)
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
  || ! node -e 'require("better-sqlite3"); require("keytar")' 2>/dev/null; then
  echo "== npm ci"
  npm ci --no-audit --no-fund
fi

echo "== type check"
npx tsc -p tsconfig.json
npx svelte-check --tsconfig renderer/tsconfig.json --fail-on-warnings

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
