#!/usr/bin/env bash
# `pnpm release:rehearse`: starts a throwaway Verdaccio, rehearses a release against it (rehearse.mjs) and stops
# it whatever happens. Needs a built tree (`pnpm build`). `scripts/test-all.sh` does the same inside the CI run.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/verdaccio.sh
source scripts/verdaccio.sh
trap verdaccio_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
verdaccio_start
node scripts/release/rehearse.mjs
