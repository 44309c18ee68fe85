#!/usr/bin/env bash
# Runs the whole test suite the way CI does: builds every package, starts a throwaway MariaDB server on loopback
# for the MySQL pillar's integration tests, runs every package's tests, and stops the server whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

# shellcheck source=scripts/mariadb.sh
source scripts/mariadb.sh
# shellcheck source=scripts/chromium.sh
source scripts/chromium.sh
chromium_install
mariadb_start
trap mariadb_stop EXIT

pnpm run build
pnpm run typecheck
pnpm run lint
results=$(mktemp)
trap 'mariadb_stop; rm -f "$results"' EXIT
status=0
pnpm exec turbo run test --concurrency=1 2>&1 | tee "$results" || status=$?
# One closing line for the whole run, summed over every package's vitest summary ("Tests  3 failed | 74 passed")
# and the playground's Playwright summary ("  41 passed (3.2m)", "  2 failed").
sed 's/\x1b\[[0-9;]*m//g' "$results" | awk '
  /Tests +[0-9]/ {
    for (i = 1; i <= NF; i++) {
      if ($(i + 1) ~ /^passed/) passed += $i
      if ($(i + 1) ~ /^failed/) failed += $i
    }
  }
  /^playground:test: +[0-9]+ (passed|failed)( \(|$)/ { if ($3 == "passed") passed += $2; else failed += $2 }
  END { printf "%d passed, %d failed\n", passed, failed }'
exit "$status"
