#!/bin/sh
# Installs what Deckhand needs on Debian: Chromium, curl, python3 and redis-server from apt (when missing) and the npm dependencies;
# as root, also the unprivileged user Chromium runs as (deckhand-browser), so the browser never runs as root.
set -eu
cd "$(dirname "$0")/.."
# curl: the README's walk-through (and the test that runs it) uses it. python3: the Python client's tests (test/python).
# redis-server: the cluster tests (test/cluster) start their own; its system service is not started here.
if ! command -v chromium-headless-shell >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1 || ! command -v redis-server >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = "0" ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # policy-rc.d answering 101 keeps the package's post-install from starting the redis-server service.
  POLICY=/usr/sbin/policy-rc.d
  [ -e "$POLICY" ] || { printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null && $SUDO chmod +x "$POLICY" && REMOVE_POLICY=1; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell curl python3 redis-server >/dev/null
  [ -z "${REMOVE_POLICY:-}" ] || $SUDO rm -f "$POLICY"
fi
[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund
# A server running as root launches Chromium as this user (packages/core/src/host/browser-user.ts): a system
# user with no login shell and a home of its own (Chromium keeps its caches there), in no group of the server's.
if [ "$(id -u)" = "0" ] && ! id deckhand-browser >/dev/null 2>&1; then
  useradd --system --user-group --create-home --home-dir /var/lib/deckhand-browser --shell /usr/sbin/nologin deckhand-browser
fi
