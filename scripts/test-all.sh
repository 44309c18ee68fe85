#!/usr/bin/env bash
# Runs the whole test suite the way CI does: builds every package, starts a throwaway MariaDB server on loopback
# for the MySQL pillar's integration tests, installs python3-yaml for the YAML oracle tests when missing, runs every
# package's tests, and stops the server whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

# shellcheck source=scripts/mariadb.sh
source scripts/mariadb.sh
mariadb_start
trap mariadb_stop EXIT
# Debian's python3-yaml: the oracle of @merge/yaml's PyYAML tests (they fail, not skip, in CI without it).
# shellcheck source=scripts/python-yaml.sh
source scripts/python-yaml.sh
python_yaml_install

pnpm run build
pnpm run typecheck
pnpm run lint
results=$(mktemp)
trap 'mariadb_stop; rm -f "$results"' EXIT
status=0
pnpm exec turbo run test --concurrency=1 2>&1 | tee "$results" || status=$?
# One closing line for the whole run, summed over every package's vitest summary ("Tests  3 failed | 74 passed").
sed 's/\x1b\[[0-9;]*m//g' "$results" | awk '
  /Tests +[0-9]/ {
    for (i = 1; i <= NF; i++) {
      if ($(i + 1) ~ /^passed/) passed += $i
      if ($(i + 1) ~ /^failed/) failed += $i
    }
  }
  END { printf "%d passed, %d failed\n", passed, failed }'
exit "$status"
