#!/usr/bin/env bash
# Debian's Chromium for the playground's browser tests (Playwright drives it through executablePath; Playwright's
# own browser download is not used). Installs the package when it is missing.
# Usage: source scripts/chromium.sh; chromium_install

chromium_install() {
  if command -v chromium >/dev/null 2>&1; then
    export PLAYGROUND_CHROMIUM="${PLAYGROUND_CHROMIUM:-$(command -v chromium)}"
    return 0
  fi
  if [ "$(id -u)" != "0" ]; then
    echo "chromium is not installed and this is not root: install it with 'apt-get install chromium'" >&2
    return 1
  fi
  echo "installing Debian's chromium ..." >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || return 1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null || return 1
  export PLAYGROUND_CHROMIUM="${PLAYGROUND_CHROMIUM:-$(command -v chromium)}"
}
