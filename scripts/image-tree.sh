#!/bin/sh
# Lays out the production tree of each app, for the images (Containerfile), in two parts: what the
# manifests alone decide (taken from the build cache while no package.json and the lockfile change),
# then the compiled code.
#   sh scripts/image-tree.sh deps OUT APP...
#       at the root of a tree of every workspace's package.json and the lockfile:
#       OUT/<app>/node_modules  the app's dependencies and those of the workspaces it links, without
#                               devDependencies (npm ci --omit=dev --workspace, from the npm cache)
#       OUT/<app>/package.json and OUT/<app>/{apps,libs}/<name>/package.json of each linked workspace
#       OUT/<app>.linked        the linked workspaces' folders, one a line (not part of the tree)
#   sh scripts/image-tree.sh app DEPS OUT APP...
#       at the repository root after `npm ci` and `tsc -b` of the apps, DEPS being the first part's OUT:
#       OUT/<app>/{apps,libs}/<name>/dist  of each linked workspace (no declarations, no build info),
#                               and libs/proto/proto (the .proto files read at run time)
#       OUT/<app>/bin/sluice-<app>  the start script (Node flags), the images' entrypoint
# The image's /app is OUT/<app> of the first part with OUT/<app> of the second copied over it.
set -eu
mode=$1
shift

deps() {
  out=$1
  shift
  # The workspace folders (package.json's workspaces: libs/*, apps/*, e2e, bench).
  workspaces=$(node -e 'const fs = require("node:fs"); const path = require("node:path");
    for (const w of require("./package.json").workspaces) {
      const [dir, star] = w.split("/");
      const found = star === "*" ? fs.readdirSync(dir).map((n) => path.join(dir, n)) : [dir];
      for (const f of found) if (fs.existsSync(path.join(f, "package.json"))) console.log(f);
    }')
  for name in "$@"; do
    dest="$out/$name"
    rm -rf "$dest"
    mkdir -p "$dest"
    # npm ci checks the lockfile against every workspace, so every package.json comes along first.
    cp package.json package-lock.json "$dest/"
    for ws in $workspaces; do
      mkdir -p "$dest/$ws"
      cp "$ws/package.json" "$dest/$ws/"
    done
    (cd "$dest" && npm ci --omit=dev --workspace "apps/$name" --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error)

    # The workspaces the app links; the others leave.
    linked=""
    for link in "$dest"/node_modules/@sluice/*; do
      target=$(cd "$link" && pwd -P)
      linked="$linked ${target#"$dest"/}"
    done
    for ws in $workspaces; do
      case " $linked " in *" $ws "*) ;; *) rm -rf "${dest:?}/$ws" ;; esac
    done
    for ws in $linked; do echo "$ws"; done >"$out/$name.linked"
    rm "$dest/package-lock.json"
    chmod -R a+rX,go-w "$dest"
  done
}

app() {
  depsdir=$1
  out=$2
  shift 2
  for name in "$@"; do
    dest="$out/$name"
    rm -rf "$dest"
    mkdir -p "$dest/bin"
    while read -r ws; do
      mkdir -p "$dest/$ws"
      cp -R "$ws/dist" "$dest/$ws/dist"
      if [ -d "$ws/proto" ]; then cp -R "$ws/proto" "$dest/$ws/proto"; fi
    done <"$depsdir/$name.linked"
    find "$dest" \( -name '*.d.ts' -o -name '*.d.ts.map' -o -name '.tsbuildinfo' \) -type f -delete
    cp "bin/sluice-$name" "$dest/bin/"
    chmod -R a+rX,go-w "$dest"
  done
}

case "$mode" in
  deps) deps "$@" ;;
  app) app "$@" ;;
  *) echo "usage: sh scripts/image-tree.sh deps OUT APP... | app DEPS OUT APP..." >&2; exit 2 ;;
esac
