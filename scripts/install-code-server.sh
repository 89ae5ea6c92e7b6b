#!/usr/bin/env bash
# Installs code-server VERSION into .cache/code-server/<VERSION>/ from the lock committed in
# scripts/code-server/<VERSION>/, on the Node line that VERSION requires. Used by `npm run test:e2e` and `npm start`.
#
#   bash scripts/install-code-server.sh            # 4.139.1 (VS Code 1.139.1, Node 24): what the e2e tests run
#   bash scripts/install-code-server.sh 4.103.2    # VS Code 1.103.2 on Node 22: the floor line
#
# Every version lives in its own folder, the default one included: .cache/code-server/<VERSION>/. What it holds:
#   node_modules/code-server/out/node/entry.js   code-server's entry (run it with the Node in node-path)
#   node-path                                    the Node binary code-server must run on (one line, absolute)
#   bin/code-server                              launcher: runs the entry on that Node, its bin dir first on PATH
#   .persona-lab-installed                       the stamp
# Callers must start code-server with bin/code-server (or `$(cat node-path) .../entry.js`), never through
# node_modules/.bin/code-server, whose `#!/usr/bin/env node` takes whatever Node is first on PATH.
#
# scripts/code-server/<VERSION>/ holds package.json + package-lock.json (made with `npm install --package-lock-only`
# on that Node) and install.env: NODE_LINE (22 or 24) and the @vscode/ripgrep cache to seed (RG_PKG_VERSION, RG_TAG;
# empty when that VS Code ships rg in its npm tarball, as the @vscode/ripgrep-universal of VS Code 1.139 does).
#
# The Node comes from the npm registry: `node scripts/node-runtime.mjs <NODE_LINE>` (under .cache/node/). npm and
# every native build (node-gyp for kerberos, node-pty, @parcel/watcher, spdlog, sqlite3, ...) run on it: its bin dir
# is put first on PATH (code-server's postinstall reads the Node major from npm's user agent and reruns `npm` from
# PATH) and npm_config_nodedir points at its own headers (never /usr, whose headers are the system Node's).
#
# Works offline from GitHub (only the npm registry and Debian's apt are needed), as root from a clean clone:
#   1. kerberos needs gssapi headers              -> apt libkrb5-dev
#   2. @vscode/ripgrep (VS Code 1.103) downloads rg from GitHub -> pre-seed its download cache with Debian's rg
#      (not needed for 4.139.1: @vscode/ripgrep-universal ships the binaries)
#   3. older node-pty postinstalls ran `npx node-gyp` -> npm_config_yes=true (neither 1.103 nor 1.139 does now)
#   4. native builds need that Node's headers     -> npm_config_nodedir=<runtime>/ (has include/node)
#   5. npm scripts would find the repository's node_modules/.bin/node (the toolchain's Node 24) before PATH's
#      -> npm_config_script_shell: a shell that puts the install's Node first again
# A second run is a fast no-op (a stamp records the lock's hash, install.env's hash, the Node ABI and the machine).
#
# Environment:
#   PERSONA_LAB_CODE_SERVER_VERSION  VERSION when no argument is given (default 4.139.1)
#   PERSONA_LAB_CODE_SERVER_DIR      install folder (default: <repo>/.cache/code-server/<VERSION>)
#   SKIP_APT=1                       never call apt-get (fail instead when a package is missing)
set -euo pipefail

# Started from an npm script (`npm start`, `npm run test:e2e`), this shell carries the outer npm's npm_* variables,
# and an npm started below reads npm_config_* from the environment as its own config: code-server's postinstall takes
# the Node major from npm_config_user_agent, so the outer npm's "node/v20" made it refuse Node 24. Start from the
# environment of the Node the install runs on: drop every npm_* variable except the registry's connection settings.
while IFS= read -r name; do
  case "$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]')" in
    npm_config_registry | npm_config_proxy | npm_config_https_proxy | npm_config_cafile | npm_config_strict_ssl) ;;
    npm_*) unset "$name" ;;
  esac
done < <(compgen -e)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="${1:-${PERSONA_LAB_CODE_SERVER_VERSION:-4.139.1}}"
SRC="$ROOT/scripts/code-server/$VERSION"
DEST="${PERSONA_LAB_CODE_SERVER_DIR:-$ROOT/.cache/code-server/$VERSION}"
ENTRY="$DEST/node_modules/code-server/out/node/entry.js"
LAUNCHER="$DEST/bin/code-server"
STAMP="$DEST/.persona-lab-installed"

log() { printf '[install-code-server %s] %s\n' "$VERSION" "$*"; }
# One line per stage of a fresh install; the compilers' output goes to install.log, named when something fails.
STAGES=5
stage() { printf '[install-code-server %s] [%s/%s] %s\n' "$VERSION" "$1" "$STAGES" "$2"; }
die() { printf '[install-code-server %s] ERROR: %s\n' "$VERSION" "$*" >&2; exit 1; }

if [ ! -f "$SRC/package-lock.json" ] || [ ! -f "$SRC/install.env" ]; then
  known="$(cd "$ROOT/scripts/code-server" && ls -d */ 2>/dev/null | tr -d / | tr '\n' ' ')"
  die "no lock for code-server $VERSION in scripts/code-server/$VERSION/ (known: ${known:-none})"
fi
NODE_LINE="" RG_PKG_VERSION="" RG_TAG=""
# shellcheck disable=SC1091
. "$SRC/install.env"
[ -n "$NODE_LINE" ] || die "$SRC/install.env does not set NODE_LINE"

# One install of a version at a time (two test runs or `npm start`s racing on a fresh checkout): the lock is taken
# before anything else, so a second run waits for the first and then finds it installed (fast when no one holds it).
mkdir -p "$(dirname "$DEST")"
if command -v flock >/dev/null; then
  exec 9>"$DEST.lock"
  flock -n 9 || { log "waiting for another install of $VERSION to finish"; flock 9; }
fi

# --- the Node that npm, the native builds and code-server itself run on ------------------------------------------
command -v node >/dev/null || die "node is not on PATH (needed to run scripts/node-runtime.mjs)"
NODE_BIN="$(node "$ROOT/scripts/node-runtime.mjs" "$NODE_LINE")" || die "could not install Node $NODE_LINE (node scripts/node-runtime.mjs $NODE_LINE)"
NODE_HEADERS="$(node "$ROOT/scripts/node-runtime.mjs" "$NODE_LINE" --headers)" || die "Node $NODE_LINE has no headers"
[ -x "$NODE_BIN" ] || die "$NODE_BIN is not executable"
[ -f "$NODE_HEADERS/include/node/node.h" ] || die "$NODE_HEADERS/include/node/node.h is missing"
NODE_DIR="$(dirname "$NODE_BIN")"
node_major="$("$NODE_BIN" -p 'process.versions.node.split(".")[0]')"
[ "$node_major" = "$NODE_LINE" ] || die "$NODE_BIN is Node $node_major, code-server $VERSION needs Node $NODE_LINE"
NODE_VERSION="$("$NODE_BIN" -v)"

# Writes node-path and bin/code-server (atomically: a concurrent no-op run may rewrite them with the same text).
write_launcher() {
  mkdir -p "$DEST/bin"
  printf '%s\n' "$NODE_BIN" >"$DEST/node-path.tmp.$$" && mv -f "$DEST/node-path.tmp.$$" "$DEST/node-path"
  cat >"$LAUNCHER.tmp.$$" <<EOF
#!/bin/sh
# Written by scripts/install-code-server.sh: code-server $VERSION on Node $NODE_VERSION, whatever the caller's PATH.
PATH='$NODE_DIR':"\$PATH"
export PATH
exec '$NODE_BIN' '$ENTRY' "\$@"
EOF
  chmod +x "$LAUNCHER.tmp.$$"
  mv -f "$LAUNCHER.tmp.$$" "$LAUNCHER"
}

want="$(cat "$SRC/package-lock.json" "$SRC/install.env" | sha256sum | cut -d' ' -f1) abi-$("$NODE_BIN" -p process.versions.modules) $(uname -m)"
installed() { [ -f "$ENTRY" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; }
if installed; then
  write_launcher
  log "already installed: $LAUNCHER (Node $NODE_VERSION)"
  exit 0
fi

begin=$(date +%s)
stage 1 "Node $NODE_VERSION for code-server: $NODE_BIN"
# --- system packages -----------------------------------------------------------------------------------------
case "$(uname -m)" in
  x86_64) RG_TARGET="x86_64-unknown-linux-musl" ;;
  aarch64 | arm64) RG_TARGET="aarch64-unknown-linux-musl" ;;
  *) die "unsupported machine $(uname -m)" ;;
esac

need=()
pkgs=(libkrb5-dev build-essential python3)
[ -n "$RG_TAG" ] && pkgs+=(ripgrep)
pkg_ok() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
if command -v dpkg-query >/dev/null; then
  for p in "${pkgs[@]}"; do pkg_ok "$p" || need+=("$p"); done
elif [ -n "$RG_TAG" ]; then
  command -v rg >/dev/null || need+=(ripgrep)
fi
stage 2 "system packages (${pkgs[*]})${need[*]:+: apt-get install ${need[*]}}"
if [ "${#need[@]}" -gt 0 ]; then
  [ "${SKIP_APT:-0}" = 1 ] && die "missing packages: ${need[*]} (SKIP_APT=1)"
  command -v apt-get >/dev/null || die "missing packages: ${need[*]}, and there is no apt-get"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then command -v sudo >/dev/null && SUDO="sudo" || die "missing packages ${need[*]}; run as root"; fi
  log "apt-get install ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# A private TMPDIR: the ripgrep seed must not depend on (or litter) the machine's /tmp, nor node-gyp's scratch.
TMP_ROOT="$DEST.tmp"
rm -rf "$TMP_ROOT"
mkdir -p "$TMP_ROOT"
export TMPDIR="$TMP_ROOT"

# --- workaround 2: seed @vscode/ripgrep's download cache with Debian's rg --------------------------------------
# @vscode/ripgrep's postinstall looks for os.tmpdir()/vscode-ripgrep-cache-<package version>/ripgrep-<tag>-<target>
# .tar.gz before asking GitHub.
if [ -n "$RG_TAG" ]; then
  [ -n "$RG_PKG_VERSION" ] || die "$SRC/install.env sets RG_TAG but not RG_PKG_VERSION"
  RG="$(command -v rg)" || die "rg (ripgrep) not found"
  mkdir -p "$TMP_ROOT/vscode-ripgrep-cache-$RG_PKG_VERSION" "$TMP_ROOT/rg"
  cp "$RG" "$TMP_ROOT/rg/rg"
  tar -czf "$TMP_ROOT/vscode-ripgrep-cache-$RG_PKG_VERSION/ripgrep-$RG_TAG-$RG_TARGET.tar.gz" -C "$TMP_ROOT/rg" rg
fi

# --- workarounds 3 and 4, and npm on the right Node ------------------------------------------------------------
export PATH="$NODE_DIR:$PATH"
export npm_config_nodedir="$NODE_HEADERS"
export npm_config_yes=true
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# code-server's postinstall refused to run as root without this up to 4.10x (npm 7+ no longer has the option itself,
# but the variable reaches the script).
export npm_config_unsafe_perm=true
# npm puts the node_modules/.bin of every folder above a package before PATH in its scripts, and the repository's
# node_modules/.bin holds the toolchain's `node` (the `node` devDependency): without this, node-gyp and nested npm
# calls in the install scripts below .cache/ would run on that Node, not on this one. Every script (nested npm
# runs inherit the setting) goes through a shell that puts this Node's bin dir back in front.
printf '#!/bin/sh\nPATH=%s:"$PATH"\nexport PATH\nexec /bin/sh "$@"\n' "'$NODE_DIR'" >"$TMP_ROOT/script-shell"
chmod +x "$TMP_ROOT/script-shell"
export npm_config_script_shell="$TMP_ROOT/script-shell"
# Run npm's own script with that Node (not through npm's shebang, which could name another Node); the postinstalls'
# nested `npm` calls find the same Node first on PATH.
NPM="$(command -v npm)" || die "npm is not on PATH"
NPM_CLI="$(dirname "$(readlink -f "$NPM")")/npm-cli.js"
[ -f "$NPM_CLI" ] || die "cannot find npm-cli.js next to $(readlink -f "$NPM")"
[ "$(command -v node)" = "$NODE_BIN" ] || die "PATH's node is $(command -v node), not $NODE_BIN"

# --- install ---------------------------------------------------------------------------------------------------
mkdir -p "$DEST"
rm -f "$STAMP" "$DEST/node-path" "$LAUNCHER"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
LOG="$DEST/install.log"
start=$(date +%s)
stage 3 "npm ci from scripts/code-server/$VERSION/package-lock.json into $DEST (npm $("$NODE_BIN" "$NPM_CLI" -v); downloads and compiles native modules; output in $LOG)"
set +e
(cd "$DEST" && "$NODE_BIN" "$NPM_CLI" ci --foreground-scripts --no-audit --no-fund) >"$LOG" 2>&1
rc=$?
set -e
if [ "$rc" != 0 ]; then
  grep -nE 'gyp ERR!|npm error|ERROR|fatal error|Error:' "$LOG" | head -20 >&2 || true
  die "npm ci failed (exit $rc); full log: $LOG"
fi
log "npm ci done in $(( $(date +%s) - start )) s"
stage 4 "checking the native builds, ripgrep and the native modules on Node $NODE_VERSION"
[ -f "$ENTRY" ] || die "npm ci finished but $ENTRY is missing"

# Check the pieces that the workarounds are for: every node-gyp ran on this Node and found its headers, ...
other="$(grep -oE '(pre-)?gyp info using node@[0-9.]+' "$LOG" | grep -v "node@${NODE_VERSION#v}\$" | sort -u | tr '\n' ' ' || true)"
[ -z "$other" ] || die "native builds ran on another Node ($other); see $LOG"
other="$(grep -oE "node_root_dir=[^' ]*" "$LOG" | grep -vxF "node_root_dir=$NODE_HEADERS" | sort -u | tr '\n' ' ' || true)"
[ -z "$other" ] || die "native builds used other Node headers ($other); see $LOG"
VS="$DEST/node_modules/code-server/lib/vscode"
if [ -n "$RG_TAG" ]; then
  rg_bin="$VS/node_modules/@vscode/ripgrep/bin/rg"
else
  rg_bin="$(find "$VS/node_modules/@vscode/ripgrep-universal/bin" -path "*/linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')/rg" 2>/dev/null | head -1)"
fi
[ -n "$rg_bin" ] && [ -x "$rg_bin" ] && "$rg_bin" --version >/dev/null || die "code-server's ripgrep ($rg_bin) is missing or broken"
for m in kerberos node-pty @parcel/watcher @vscode/spdlog; do
  [ -d "$VS/node_modules/$m" ] || continue
  (cd "$VS" && "$NODE_BIN" -e "require('$m')") 2>/dev/null || die "$m does not load on Node $NODE_VERSION (native build?)"
done
stage 5 "writing the launcher $LAUNCHER and starting it once"
write_launcher
"$LAUNCHER" --version >/dev/null || die "code-server does not start: $LAUNCHER --version"

echo "$want" >"$STAMP"
rm -rf "$TMP_ROOT"
# (4.103.2's --version also prints an i18next advert on stdout: keep the "x.y.z <commit> with Code x.y.z" line)
log "done in $(( $(date +%s) - begin )) s (install log: $LOG): code-server $("$LAUNCHER" --version | grep -E '^[0-9]+\.[0-9]+\.[0-9]+ ' | head -1) on Node $NODE_VERSION -> $LAUNCHER"
