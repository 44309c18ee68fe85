#!/usr/bin/env bash
# Runs the whole test suite the way CI does: builds every package, starts a throwaway MariaDB server on loopback
# for the MySQL pillar's integration tests, runs every package's tests, and stops the server whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

# shellcheck source=scripts/mariadb.sh
source scripts/mariadb.sh
mariadb_start
trap mariadb_stop EXIT

pnpm run build
pnpm run typecheck
pnpm run lint
pnpm exec turbo run test --concurrency=1
