#!/usr/bin/env bash
# Desktop end-to-end test: builds the shell, makes sure tauri-driver is
# installed, then runs the node test under a virtual X server.
#
# System packages (Debian/Ubuntu): libwebkit2gtk-4.1-dev libgtk-3-dev
# libayatana-appindicator3-dev librsvg2-dev libsoup-3.0-dev build-essential
# pkg-config file xvfb xauth webkit2gtk-driver dbus-daemon dbus-bin sqlite3;
# Node.js >= 20 and Rust. The run gets its own D-Bus session bus
# (dbus-run-session): the single-instance lock and the notifications use it.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"

missing=()
command -v WebKitWebDriver >/dev/null 2>&1 || missing+=(webkit2gtk-driver)
command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb)
command -v xauth >/dev/null 2>&1 || missing+=(xauth)
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
command -v dbus-run-session >/dev/null 2>&1 || missing+=(dbus-daemon)
if ((${#missing[@]})); then
  echo "paquets manquants : ${missing[*]} (apt-get install ${missing[*]})" >&2
  exit 1
fi

if [[ ! -f ui/dist/index.html ]]; then
  echo "ui/dist absent : construction de l'interface" >&2
  (cd ui && npm ci && npm run build)
fi

# Built by `cargo test --workspace` (the shell has an integration test), with
# the same feature set as the rest of the test build: no second compilation
# of the shared dependencies. A no-op when the test command already ran it.
# LIFTDESK_DESKTOP_BIN names an already built binary instead (quick reruns
# after `cargo build -p liftdesk-desktop`).
if [[ -z "${LIFTDESK_DESKTOP_BIN:-}" ]]; then
  cargo test --workspace --no-run --quiet
fi

cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
if [[ -z "${TAURI_DRIVER:-}" ]]; then
  if [[ -x "$cargo_bin/tauri-driver" ]]; then
    export TAURI_DRIVER="$cargo_bin/tauri-driver"
  elif command -v tauri-driver >/dev/null 2>&1; then
    TAURI_DRIVER="$(command -v tauri-driver)"
    export TAURI_DRIVER
  else
    echo "installation de tauri-driver (cargo install, environ 70 s)" >&2
    cargo install tauri-driver --version '^2' --locked
    export TAURI_DRIVER="$cargo_bin/tauri-driver"
  fi
fi

# Overall bound (the test has its own, shorter one); -k kills a stuck run.
# The file is named rather than the folder: Node >= 21 reads test
# arguments as globs, where a bare folder name no longer works everywhere.
exec timeout -k 10 600 xvfb-run -a -s "-screen 0 1280x800x24" \
  dbus-run-session -- node --test tests/desktop/desktop.test.mjs
