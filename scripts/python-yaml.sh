#!/usr/bin/env bash
# Debian's python3-yaml (PyYAML with libyaml) for the YAML oracle tests of @merge/yaml (packages/yaml/test/oracle):
# installs it when /usr/bin/python3 cannot import yaml with libyaml. Sourced by scripts/test-all.sh, or run alone.
# Usage: source scripts/python-yaml.sh; python_yaml_install

python_yaml_ready() {
  /usr/bin/python3 -c 'import yaml, sys; sys.exit(0 if yaml.__with_libyaml__ else 1)' >/dev/null 2>&1
}

python_yaml_install() {
  if python_yaml_ready; then
    return 0
  fi
  if [ "$(id -u)" != "0" ]; then
    echo "python3-yaml is not installed and this is not root: install it with 'apt-get install python3-yaml'" >&2
    return 1
  fi
  echo "installing Debian's python3-yaml ..." >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || return 1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-yaml >/dev/null || return 1
  python_yaml_ready || { echo "python3-yaml was installed but /usr/bin/python3 cannot import yaml with libyaml" >&2; return 1; }
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  python_yaml_install
fi
