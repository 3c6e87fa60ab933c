#!/usr/bin/env bash
# Installs web/node_modules as `npm ci` does, from a tarball of an earlier
# install when one exists for the same lock file, Node.js and platform:
# on a fresh clone, unpacking takes seconds where npm ci took minutes of
# CPU. A tarball unused for a week is deleted; WHITECOAT_CACHE moves them.
set -euo pipefail
cd "$(dirname "$0")/../web"
cache=${WHITECOAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/whitecoat}
key=$( { cat package-lock.json; node -p 'process.version + process.platform + process.arch'; } | sha256sum | cut -c1-16)
tarball=$cache/node_modules-$key.tar
if [[ -f $tarball ]]; then
  rm -rf node_modules
  tar -xf "$tarball"
  touch "$tarball"
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
# Written beside its final name and renamed, so a clone reading the cache
# meanwhile sees a whole tarball or none.
mkdir -p "$cache"
tar -cf "$tarball.$$" node_modules
mv "$tarball.$$" "$tarball"
find "$cache" -maxdepth 1 -name 'node_modules-*.tar' -mtime +7 -delete
