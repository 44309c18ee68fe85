#!/usr/bin/env bash
# Throwaway MariaDB server for tests: installs Debian's mariadb-server when missing, initialises a data directory
# under a temporary folder, listens on 127.0.0.1 only, and exports MERGE_TEST_MYSQL_* for the tests.
# Usage: source scripts/mariadb.sh; mariadb_start; ...; mariadb_stop
# The server is shared by every package's tests in the run: tests create their own databases and never stop it.

mariadb_install() {
  if command -v mariadbd >/dev/null 2>&1 && command -v mariadb-install-db >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" != "0" ]; then
    echo "mariadb-server is not installed and this is not root: install it with 'apt-get install mariadb-server'" >&2
    return 1
  fi
  echo "installing Debian's mariadb-server ..." >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || return 1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mariadb-server mariadb-client \
    >/dev/null || return 1
}

mariadb_free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# Prints the end of the server's error log (why it did not start or stopped).
mariadb_log_tail() {
  [ -n "${MARIADB_DIR:-}" ] && [ -f "$MARIADB_DIR/error.log" ] && tail -n 30 "$MARIADB_DIR/error.log" >&2
  return 0
}

mariadb_start() {
  # Starting twice would leak the first server: reuse it while it runs.
  if [ -n "${MARIADB_PID:-}" ] && kill -0 "$MARIADB_PID" 2>/dev/null; then
    echo "MariaDB test server already running (pid $MARIADB_PID)" >&2
    return 0
  fi
  mariadb_install || return 1
  MARIADB_DIR=$(mktemp -d /tmp/merge-mariadb.XXXXXX)
  MARIADB_PORT=$(mariadb_free_port)
  mariadb-install-db --no-defaults --datadir="$MARIADB_DIR/data" --user=root --auth-root-authentication-method=normal \
    >"$MARIADB_DIR/install.log" 2>&1 || { cat "$MARIADB_DIR/install.log" >&2; return 1; }
  # Durability settings are relaxed: the data is thrown away after the run.
  mariadbd --no-defaults --datadir="$MARIADB_DIR/data" --user=root --socket="$MARIADB_DIR/sock" \
    --port="$MARIADB_PORT" --bind-address=127.0.0.1 --skip-name-resolve --innodb-buffer-pool-size=64M \
    --innodb-flush-log-at-trx-commit=2 --innodb-doublewrite=0 --max-connections=300 \
    --pid-file="$MARIADB_DIR/mariadbd.pid" --log-error="$MARIADB_DIR/error.log" &
  MARIADB_PID=$!
  local ready=""
  for _ in $(seq 1 150); do
    if mariadb --no-defaults --socket="$MARIADB_DIR/sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; then
      ready=1
      break
    fi
    if ! kill -0 "$MARIADB_PID" 2>/dev/null; then break; fi
    sleep 0.2
  done
  if [ -z "$ready" ]; then
    echo "MariaDB test server did not start:" >&2
    mariadb_log_tail
    mariadb_stop
    return 1
  fi
  mariadb --no-defaults --socket="$MARIADB_DIR/sock" -uroot <<SQL || { mariadb_log_tail; mariadb_stop; return 1; }
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
    # SIGTERM is mariadbd's clean shutdown; SIGKILL only if it does not finish within 10 s.
    kill "$MARIADB_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$MARIADB_PID" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$MARIADB_PID" 2>/dev/null || true
    wait "$MARIADB_PID" 2>/dev/null || true
  fi
  if [ -n "${MARIADB_DIR:-}" ]; then rm -rf "$MARIADB_DIR"; fi
  unset MARIADB_PID MARIADB_DIR MARIADB_PORT
  unset MERGE_TEST_MYSQL_HOST MERGE_TEST_MYSQL_PORT MERGE_TEST_MYSQL_USER MERGE_TEST_MYSQL_PASS
  unset MERGE_TEST_MYSQL_SOCKET MERGE_TEST_MYSQL_PID MERGE_TEST_MYSQL_DATADIR
  return 0
}
