#!/usr/bin/env bash
# Installs the Debian packages named as arguments when any is missing:
# `apt-get update` once, then `apt-get install`. Without root it prints
# the exact command to run instead, and fails.
set -euo pipefail
missing=()
for pkg in "$@"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
((${#missing[@]} == 0)) && exit 0
echo "Installing missing system packages: ${missing[*]}" >&2
if [[ $(id -u) -ne 0 ]]; then
  echo "Not running as root. Install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
stamp=/var/lib/apt/periodic/whitecoat-update-stamp
if [[ ! -f $stamp ]] || [[ -n $(find "$stamp" -mmin +1440 2>/dev/null) ]]; then
  apt-get update -qq
  mkdir -p "$(dirname "$stamp")" && touch "$stamp"
fi
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "Installed: ${missing[*]}" >&2
