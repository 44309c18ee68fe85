#!/usr/bin/env bash
# Throwaway npm registry for the release rehearsal: Verdaccio (a devDependency of scripts/release) on
# 127.0.0.1 at a free port, with its storage, users and log in a temporary folder. `@merge/*` lives only there;
# every other package is fetched from npm's registry through it. Exports MERGE_REHEARSAL_REGISTRY (the URL) and
# MERGE_REHEARSAL_TOKEN (a publish token of a throwaway user).
# Usage: source scripts/verdaccio.sh; verdaccio_start; ...; verdaccio_stop

verdaccio_free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

verdaccio_log_tail() {
  [ -n "${VERDACCIO_DIR:-}" ] && [ -f "$VERDACCIO_DIR/verdaccio.log" ] && tail -n 30 "$VERDACCIO_DIR/verdaccio.log" >&2
  return 0
}

verdaccio_start() {
  if [ -n "${VERDACCIO_PID:-}" ] && kill -0 "$VERDACCIO_PID" 2>/dev/null; then
    echo "Verdaccio already running (pid $VERDACCIO_PID)" >&2
    return 0
  fi
  local root bin upstream
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  bin="$root/scripts/release/node_modules/verdaccio/bin/verdaccio"
  if [ ! -f "$bin" ]; then
    echo "Verdaccio is not installed: run 'pnpm install' (it is a devDependency of scripts/release)" >&2
    return 1
  fi
  upstream="$(npm config get registry 2>/dev/null || true)"
  case "$upstream" in http*) ;; *) upstream="https://registry.npmjs.org/" ;; esac
  VERDACCIO_DIR=$(mktemp -d /tmp/merge-verdaccio.XXXXXX)
  VERDACCIO_PORT=$(verdaccio_free_port)
  cat >"$VERDACCIO_DIR/config.yaml" <<YAML
storage: $VERDACCIO_DIR/storage
self_path: $VERDACCIO_DIR
auth:
  htpasswd:
    file: $VERDACCIO_DIR/htpasswd
    max_users: 1
uplinks:
  upstream:
    url: $upstream
    timeout: 60s
    max_fails: 5
packages:
  "@merge/*":
    access: \$all
    publish: \$authenticated
  "**":
    access: \$all
    publish: \$authenticated
    proxy: upstream
server:
  # Longer than any client's idle keep-alive, so no request is sent on a socket the server is closing.
  keepAliveTimeout: 60
middlewares:
  audit:
    enabled: false
log: { type: stdout, format: pretty, level: warn }
YAML
  # Run from the storage folder so nothing Verdaccio writes can land in the repository.
  (cd "$VERDACCIO_DIR" && exec node "$bin" --config "$VERDACCIO_DIR/config.yaml" --listen "127.0.0.1:$VERDACCIO_PORT" \
    >"$VERDACCIO_DIR/verdaccio.log" 2>&1) &
  VERDACCIO_PID=$!
  local url="http://127.0.0.1:$VERDACCIO_PORT/" ready=""
  for _ in $(seq 1 300); do
    if node -e 'fetch(process.argv[1]).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))' "$url-/ping" 2>/dev/null; then
      ready=1
      break
    fi
    if ! kill -0 "$VERDACCIO_PID" 2>/dev/null; then break; fi
    sleep 0.2
  done
  if [ -z "$ready" ]; then
    echo "Verdaccio did not start:" >&2
    verdaccio_log_tail
    verdaccio_stop
    return 1
  fi
  # A throwaway user; its token is what `npm publish` presents.
  MERGE_REHEARSAL_TOKEN=$(node -e '
    const [url, password] = process.argv.slice(1);
    fetch(url + "-/user/org.couchdb.user:rehearsal", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "rehearsal", password }),
    }).then(async (r) => {
      const body = await r.json();
      if (!r.ok || !body.token) throw new Error(r.status + " " + JSON.stringify(body));
      console.log(body.token);
    }).catch((e) => { console.error(e.message); process.exit(1); });' "$url" "rehearsal-$RANDOM-$RANDOM") || {
    echo "Verdaccio refused to create the rehearsal user" >&2
    verdaccio_log_tail
    verdaccio_stop
    return 1
  }
  export MERGE_REHEARSAL_REGISTRY="$url" MERGE_REHEARSAL_TOKEN
  echo "Verdaccio on $url (pid $VERDACCIO_PID, storage $VERDACCIO_DIR)" >&2
}

verdaccio_stop() {
  if [ -n "${VERDACCIO_PID:-}" ]; then
    kill "$VERDACCIO_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$VERDACCIO_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$VERDACCIO_PID" 2>/dev/null || true
    wait "$VERDACCIO_PID" 2>/dev/null || true
  fi
  if [ -n "${VERDACCIO_DIR:-}" ]; then rm -rf "$VERDACCIO_DIR"; fi
  unset VERDACCIO_PID VERDACCIO_DIR VERDACCIO_PORT MERGE_REHEARSAL_REGISTRY MERGE_REHEARSAL_TOKEN
  return 0
}
