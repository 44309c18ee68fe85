#!/usr/bin/env bash
# Runs the whole test suite the way CI does: builds every package, starts a throwaway MariaDB server on loopback
# for the MySQL pillar's integration tests, installs python3-yaml for the YAML oracle tests when missing, runs every
# package's tests, rehearses a release against a throwaway Verdaccio registry on loopback
# (scripts/release/rehearse.mjs), and stops both servers whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
# Every tier (vitest.shared.ts: the everyday tests and the stress tier), and the CLI's cases through the built binary.
export MERGE_TEST_TIER=all MERGE_CLI_TESTS=binary

# shellcheck source=scripts/mariadb.sh
source scripts/mariadb.sh
# shellcheck source=scripts/verdaccio.sh
source scripts/verdaccio.sh
# shellcheck source=scripts/chromium.sh
source scripts/chromium.sh
chromium_install
mariadb_start
trap mariadb_stop EXIT
# Debian's python3-yaml: the oracle of @merge/yaml's PyYAML tests (they fail, not skip, in CI without it).
# shellcheck source=scripts/python-yaml.sh
source scripts/python-yaml.sh
python_yaml_install
# Debian's cloud-init unpacked (CLOUD_INIT_ROOT): the real schema for @merge/mergers-cloudinit's validation test.
# shellcheck source=scripts/cloud-init.sh
source scripts/cloud-init.sh
cloud_init_unpack
trap 'mariadb_stop; cloud_init_clean' EXIT

pnpm run build
pnpm run typecheck
pnpm run lint
results=$(mktemp)
trap 'verdaccio_stop; mariadb_stop; cloud_init_clean; rm -f "$results"' EXIT
status=0
pnpm exec turbo run test --concurrency=1 2>&1 | tee "$results" || status=$?
# The release rehearsal counts as one test in the closing line.
rehearsal=passed
{ verdaccio_start && node scripts/release/rehearse.mjs; } || { rehearsal=failed; status=1; }
verdaccio_stop
# One closing line for the whole run, summed over every package's vitest summary ("Tests  3 failed | 74 passed"),
# the playground's Playwright summary ("  41 passed (3.2m)", "  2 failed") and the release rehearsal.
sed 's/\x1b\[[0-9;]*m//g' "$results" | awk -v rehearsal="$rehearsal" '
  /Tests +[0-9]/ {
    for (i = 1; i <= NF; i++) {
      if ($(i + 1) ~ /^passed/) passed += $i
      if ($(i + 1) ~ /^failed/) failed += $i
    }
  }
  /^playground:test: +[0-9]+ (passed|failed)( \(|$)/ { if ($3 == "passed") passed += $2; else failed += $2 }
  END {
    if (rehearsal == "passed") passed++; else failed++
    printf "%d passed, %d failed\n", passed, failed
  }'
exit "$status"
