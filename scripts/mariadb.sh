#!/usr/bin/env bash
# Throwaway MariaDB server for tests: installs Debian's mariadb-server when missing, initialises a data directory
# under a temporary folder, listens on 127.0.0.1 only, and exports MERGE_TEST_MYSQL_* for the tests.
# Usage: source scripts/mariadb.sh; mariadb_start; ...; mariadb_stop

mariadb_install() {
  if command -v mariadbd >/dev/null 2>&1 && command -v mariadb-install-db >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" != "0" ]; then
    echo "mariadb-server is not installed and this is not root: install it with 'apt-get install mariadb-server'" >&2
    return 1
  fi
  echo "installing Debian's mariadb-server ..." >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mariadb-server mariadb-client >/dev/null
}

mariadb_free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

mariadb_start() {
  mariadb_install
  MARIADB_DIR=$(mktemp -d /tmp/merge-mariadb.XXXXXX)
  MARIADB_PORT=$(mariadb_free_port)
  mariadb-install-db --no-defaults --datadir="$MARIADB_DIR/data" --user=root --auth-root-authentication-method=normal \
    >"$MARIADB_DIR/install.log" 2>&1 || { cat "$MARIADB_DIR/install.log" >&2; return 1; }
  mariadbd --no-defaults --datadir="$MARIADB_DIR/data" --user=root --socket="$MARIADB_DIR/sock" \
    --port="$MARIADB_PORT" --bind-address=127.0.0.1 --skip-name-resolve --innodb-buffer-pool-size=64M \
    --pid-file="$MARIADB_DIR/mariadbd.pid" --log-error="$MARIADB_DIR/error.log" &
  MARIADB_PID=$!
  for _ in $(seq 1 100); do
    if mariadb --no-defaults --socket="$MARIADB_DIR/sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; then break; fi
    sleep 0.2
  done
  mariadb --no-defaults --socket="$MARIADB_DIR/sock" -uroot <<SQL
CREATE USER IF NOT EXISTS 'merge_test'@'127.0.0.1' IDENTIFIED BY 'merge-test-pass';
CREATE USER IF NOT EXISTS 'merge_test'@'localhost' IDENTIFIED BY 'merge-test-pass';
GRANT ALL PRIVILEGES ON *.* TO 'merge_test'@'127.0.0.1' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'merge_test'@'localhost' WITH GRANT OPTION;
FLUSH PRIVILEGES;
SQL
  export MERGE_TEST_MYSQL_HOST=127.0.0.1
  export MERGE_TEST_MYSQL_PORT="$MARIADB_PORT"
  export MERGE_TEST_MYSQL_USER=merge_test
  export MERGE_TEST_MYSQL_PASS=merge-test-pass
  export MERGE_TEST_MYSQL_SOCKET="$MARIADB_DIR/sock"
  export MERGE_TEST_MYSQL_PID="$MARIADB_PID"
  export MERGE_TEST_MYSQL_DATADIR="$MARIADB_DIR/data"
  echo "MariaDB test server on 127.0.0.1:$MARIADB_PORT (pid $MARIADB_PID, data $MARIADB_DIR)" >&2
}

mariadb_stop() {
  if [ -n "${MARIADB_PID:-}" ]; then
    kill "$MARIADB_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$MARIADB_PID" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$MARIADB_PID" 2>/dev/null || true
  fi
  [ -n "${MARIADB_DIR:-}" ] && rm -rf "$MARIADB_DIR"
  return 0
}
