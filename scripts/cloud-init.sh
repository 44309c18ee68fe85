#!/usr/bin/env bash
# Debian's cloud-init package unpacked (never installed) into a temporary directory, for the test of
# @merge/mergers-cloudinit that validates against cloud-init's own schema (schema-cloud-config-v1.json, which this
# repository does not copy). Exports CLOUD_INIT_ROOT, where findCloudInitSchema looks. Sourced by scripts/test-all.sh.
# Usage: source scripts/cloud-init.sh; cloud_init_unpack; ...; cloud_init_clean

cloud_init_unpack() {
  if [ -n "${CLOUD_INIT_ROOT:-}" ] && [ -d "$CLOUD_INIT_ROOT/usr/lib/python3/dist-packages/cloudinit" ]; then
    return 0
  fi
  local dir
  dir=$(mktemp -d) || return 1
  CLOUD_INIT_TMP="$dir"
  echo "unpacking Debian's cloud-init into $dir ..." >&2
  if ! (cd "$dir" && apt-get download cloud-init >/dev/null 2>&1); then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || return 1
    (cd "$dir" && apt-get download cloud-init >/dev/null) || return 1
  fi
  dpkg -x "$dir"/cloud-init_*.deb "$dir/root" || return 1
  export CLOUD_INIT_ROOT="$dir/root"
}

cloud_init_clean() {
  if [ -n "${CLOUD_INIT_TMP:-}" ]; then
    rm -rf "$CLOUD_INIT_TMP"
  fi
}
