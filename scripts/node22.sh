#!/usr/bin/env bash
# Runs a command with Node 22 first on PATH, for the dev tools that need it (the MCP conformance suite, the
# MCP Inspector CLI). Node 22 is the npm registry's `node` package at a pinned 22.x version, installed once
# into .cache/node22/<version>/ inside the project (git-ignored), so a fresh clone needs nothing beside it.
# Usage: scripts/node22.sh npx -y @modelcontextprotocol/conformance server --url http://127.0.0.1:3000/mcp
#        scripts/node22.sh node --version
# NODE22_VERSION picks another 22.x release; NODE22_CACHE another cache folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${NODE22_VERSION:-22.23.3}
[[ $version == 22.* ]] || { echo "node22: NODE22_VERSION must be a 22.x release, not $version" >&2; exit 2; }
dir=${NODE22_CACHE:-$root/.cache/node22}/$version
bin=$dir/node_modules/node/bin
if [[ ! -x $bin/node ]] || ! "$bin/node" --version 2>/dev/null | grep -qx "v$version"; then
  # Install into a fresh folder and move it into place, so an interrupted download never looks complete.
  mkdir -p "${dir%/*}"
  tmp=$(mktemp -d "${dir%/*}/.tmp.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "node22: installing node@$version from the npm registry into $dir" >&2
  (cd "$tmp" && echo '{"private":true}' >package.json &&
    npm install --no-save --no-audit --no-fund --no-package-lock --loglevel=error "node@$version" >&2)
  "$tmp/node_modules/node/bin/node" --version | grep -qx "v$version" ||
    { echo "node22: the installed node is not v$version" >&2; exit 1; }
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
fi
# npm/npx stay the machine's, but every `node` they start (and a bare `node`) is Node 22.
export PATH="$bin:$PATH"
exec "$@"
