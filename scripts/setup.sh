#!/usr/bin/env bash
# Installs what the build, the tests and the demo need on a fresh machine:
# Debian packages when missing (needs root), then npm packages from the lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v openssl >/dev/null || need+=(openssl)
command -v etcd >/dev/null || need+=(etcd-server)
command -v prometheus >/dev/null || need+=(prometheus)
if [ "${SLUICE_SETUP_BENCH:-0}" = 1 ]; then
  command -v nginx >/dev/null || need+=(nginx)
  command -v wrk >/dev/null || need+=(wrk)
  command -v redis-server >/dev/null || need+=(redis-server)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  if [ "$(id -u)" != 0 ]; then echo "setup: need root to install ${need[*]}" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund
fi
