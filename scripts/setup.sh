#!/bin/sh
# Installs what Deckhand needs on Debian: Chromium, curl and python3 from apt (when missing) and the npm dependencies;
# as root, also the unprivileged user Chromium runs as (deckhand-browser), so the browser never runs as root.
set -eu
cd "$(dirname "$0")/.."
# curl: the README's walk-through (and the test that runs it) uses it. python3: the Python client's tests (test/python).
if ! command -v chromium-headless-shell >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = "0" ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell curl python3 >/dev/null
fi
[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund
# A server running as root launches Chromium as this user (packages/core/src/host/browser-user.ts): a system
# user with no login shell and a home of its own (Chromium keeps its caches there), in no group of the server's.
if [ "$(id -u)" = "0" ] && ! id deckhand-browser >/dev/null 2>&1; then
  useradd --system --user-group --create-home --home-dir /var/lib/deckhand-browser --shell /usr/sbin/nologin deckhand-browser
fi
