#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3, the newest release that runs on Node 20) into
# .cache/code-server/ from the lock committed in scripts/code-server/. Used by `npm run test:e2e` and `npm start`.
#
# Works offline from GitHub (only the npm registry and Debian's apt are needed), as root from a clean clone:
#   1. kerberos needs gssapi headers             -> apt libkrb5-dev
#   2. @vscode/ripgrep downloads rg from GitHub  -> pre-seed its download cache with Debian's rg
#   3. node-pty's postinstall runs `npx node-gyp` -> npm_config_yes=true
#   4. native builds need local Node headers     -> npm_config_nodedir=/usr (when /usr/include/node exists)
#   (5. as root, code-server's postinstall insists on npm_config_unsafe_perm=true)
# A second run is a fast no-op (a stamp records the lock's hash, the Node ABI and the machine).
#
# Environment:
#   PERSONA_LAB_CODE_SERVER_DIR  install folder (default: <repo>/.cache/code-server)
#   SKIP_APT=1                   never call apt-get (fail instead when a package is missing)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/scripts/code-server"
DEST="${PERSONA_LAB_CODE_SERVER_DIR:-$ROOT/.cache/code-server}"
BIN="$DEST/node_modules/.bin/code-server"
STAMP="$DEST/.persona-lab-installed"
RG_VERSION="v13.0.0-10"           # what @vscode/ripgrep 1.15.11 (inside VS Code 1.100.3) downloads
RG_PKG_VERSION="1.15.11"

log() { printf '[install-code-server] %s\n' "$*"; }
die() { printf '[install-code-server] ERROR: %s\n' "$*" >&2; exit 1; }

command -v node >/dev/null || die "node is not on PATH"
command -v npm >/dev/null || die "npm is not on PATH"
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
[ "$NODE_MAJOR" = 20 ] || log "warning: code-server 4.100.3 is meant for Node 20; this is Node $(node -v)"

want="$(sha256sum "$SRC/package-lock.json" | cut -d' ' -f1) abi-$(node -p process.versions.modules) $(uname -m)"
if [ -x "$BIN" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then
  log "code-server $(node -p "require('$DEST/node_modules/code-server/package.json').version") already installed: $BIN"
  exit 0
fi

# One install at a time (two test runs or `npm start`s racing on a fresh checkout); recheck after waiting.
mkdir -p "$(dirname "$DEST")"
if command -v flock >/dev/null; then
  exec 9>"$DEST.lock"
  flock 9
  if [ -x "$BIN" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then
    log "code-server already installed (by a concurrent run): $BIN"
    exit 0
  fi
fi

# --- system packages -----------------------------------------------------------------------------------------
case "$(uname -m)" in
  x86_64) RG_TARGET="x86_64-unknown-linux-musl" ;;
  aarch64 | arm64) RG_TARGET="aarch64-unknown-linux-musl" ;;
  *) die "unsupported machine $(uname -m)" ;;
esac

need=()
pkg_ok() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
if command -v dpkg-query >/dev/null; then
  for p in libkrb5-dev ripgrep build-essential python3; do pkg_ok "$p" || need+=("$p"); done
else
  command -v rg >/dev/null || need+=(ripgrep)
fi
if [ "${#need[@]}" -gt 0 ]; then
  [ "${SKIP_APT:-0}" = 1 ] && die "missing packages: ${need[*]} (SKIP_APT=1)"
  command -v apt-get >/dev/null || die "missing packages: ${need[*]}, and there is no apt-get"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then command -v sudo >/dev/null && SUDO="sudo" || die "missing packages ${need[*]}; run as root"; fi
  log "apt-get install ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
RG="$(command -v rg)" || die "rg (ripgrep) not found"

# --- workaround 2: seed @vscode/ripgrep's download cache with Debian's rg --------------------------------------
# @vscode/ripgrep looks in os.tmpdir()/vscode-ripgrep-cache-<version>/ before downloading. Use a private TMPDIR
# so the seed does not depend on (or litter) the machine's /tmp.
TMP_ROOT="$DEST.tmp"
rm -rf "$TMP_ROOT"
mkdir -p "$TMP_ROOT/vscode-ripgrep-cache-$RG_PKG_VERSION" "$TMP_ROOT/rg"
cp "$RG" "$TMP_ROOT/rg/rg"
tar -czf "$TMP_ROOT/vscode-ripgrep-cache-$RG_PKG_VERSION/ripgrep-$RG_VERSION-$RG_TARGET.tar.gz" -C "$TMP_ROOT/rg" rg
export TMPDIR="$TMP_ROOT"

# --- workarounds 3 and 4 ---------------------------------------------------------------------------------------
export npm_config_yes=true
if [ -f /usr/include/node/node.h ]; then
  export npm_config_nodedir=/usr
else
  log "warning: /usr/include/node/node.h not found; node-gyp will fetch headers for $(node -v)"
fi
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# code-server's postinstall refuses to run as root unless this is set (npm 7+ no longer has the option itself,
# but the variable reaches the script).
export npm_config_unsafe_perm=true

# --- install ---------------------------------------------------------------------------------------------------
log "installing code-server from $SRC/package-lock.json into $DEST"
start=$(date +%s)
mkdir -p "$DEST"
rm -f "$STAMP"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
(cd "$DEST" && npm ci --foreground-scripts --no-audit --no-fund)
[ -x "$BIN" ] || die "npm ci finished but $BIN is missing"

# Check the pieces that the workarounds are for.
VS="$DEST/node_modules/code-server/lib/vscode"
rg_bin="$(find "$VS/node_modules/@vscode/ripgrep/bin" -maxdepth 1 -name rg 2>/dev/null | head -1)"
[ -n "$rg_bin" ] && "$rg_bin" --version >/dev/null || die "code-server's ripgrep is missing or broken"
"$BIN" --version >/dev/null || die "code-server does not start"

echo "$want" >"$STAMP"
rm -rf "$TMP_ROOT"
log "done in $(( $(date +%s) - start )) s: $("$BIN" --version | head -1)"
