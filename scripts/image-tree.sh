#!/bin/sh
# Lays out the production tree of each app in OUT/<app>, for the images (Containerfile's `trees` stage):
# run at the repository root after `npm ci` and `tsc -b` of the apps.
#   OUT/<app>/node_modules  the app's dependencies and those of the workspaces it links, without
#                           devDependencies (npm ci --omit=dev --workspace, from the npm cache)
#   OUT/<app>/{apps,libs}/<name>/  package.json and dist of each linked workspace (no declarations,
#                           no build info), and libs/proto/proto (the .proto files read at run time)
#   OUT/<app>/bin/sluice-<app>     the start script (Node flags), the images' entrypoint
# Usage: sh scripts/image-tree.sh OUT APP...
set -eu
out=$1
shift
src=$(pwd)
# The workspace folders (package.json's workspaces: libs/*, apps/*, e2e, bench).
workspaces=$(node -e 'const fs = require("node:fs"); const path = require("node:path");
  for (const w of require("./package.json").workspaces) {
    const [dir, star] = w.split("/");
    const found = star === "*" ? fs.readdirSync(dir).map((n) => path.join(dir, n)) : [dir];
    for (const f of found) if (fs.existsSync(path.join(f, "package.json"))) console.log(f);
  }')

for app in "$@"; do
  dest="$out/$app"
  rm -rf "$dest"
  mkdir -p "$dest/bin"
  # npm ci checks the lockfile against every workspace, so every package.json comes along first.
  cp package.json package-lock.json "$dest/"
  for ws in $workspaces; do
    mkdir -p "$dest/$ws"
    cp "$ws/package.json" "$dest/$ws/"
  done
  (cd "$dest" && npm ci --omit=dev --workspace "apps/$app" --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error)

  # The workspaces the app links; the others leave.
  linked=""
  for link in "$dest"/node_modules/@sluice/*; do
    target=$(cd "$link" && pwd -P)
    linked="$linked ${target#"$dest"/}"
  done
  for ws in $workspaces; do
    case " $linked " in *" $ws "*) ;; *) rm -rf "${dest:?}/$ws" ;; esac
  done
  for ws in $linked; do
    cp -R "$src/$ws/dist" "$dest/$ws/dist"
    if [ -d "$src/$ws/proto" ]; then cp -R "$src/$ws/proto" "$dest/$ws/proto"; fi
  done
  find "$dest/libs" "$dest/apps" \( -name '*.d.ts' -o -name '*.d.ts.map' -o -name '.tsbuildinfo' \) -type f -delete
  rm "$dest/package-lock.json"
  cp "bin/sluice-$app" "$dest/bin/"
  chmod -R a+rX,go-w "$dest"
done
