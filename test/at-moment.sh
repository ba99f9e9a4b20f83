#!/usr/bin/env bash
# Runs a command as if it were a given moment, in a given zone, under libfaketime (Debian `faketime`):
#   test/at-moment.sh 2026-11-28T22:30:00Z Pacific/Auckland npx vitest run test/core
# The moment is an instant (UTC or with an offset), whatever zone the command runs in. The fake
# clock is a fixed offset from the real one rather than faketime's '@' start time, because '@' is
# read in the zone of each process and restarts in every child process: the vitest workers and the
# service processes they fork would each start at the moment again, minutes apart from each other.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 MOMENT ZONE COMMAND [ARGUMENT...]   (MOMENT like 2027-03-28T00:58:00Z)" >&2
  exit 2
fi
moment=$1 zone=$2
shift 2
command -v faketime >/dev/null || { echo "faketime is missing (Debian/Ubuntu: apt-get install faketime)" >&2; exit 1; }
target=$(date -u -d "$moment" +%s)
offset=$((target - $(date -u +%s)))
# Signed seconds: faketime reads '+N' and '-N' as an offset from the real clock.
[ "$offset" -ge 0 ] && offset="+$offset"
TZ=$zone exec faketime -f "$offset" "$@"
