#!/usr/bin/env bash
# Builds the images of the agent, the controller and the tap from Containerfile (`make images`), with
# whichever of buildah, podman or docker works here, and prints their sizes.
#   scripts/images.sh [build] [agent|controller|tap ...]   builds (all three when none is named)
#   scripts/images.sh names [agent|controller|tap ...]     prints the references it would build
#   scripts/images.sh size REF                             prints the size of a local image
# Environment:
#   IMAGE_REGISTRY   prefix of the repositories: <IMAGE_REGISTRY>/sluice/agent (default none: sluice/agent)
#   IMAGE_TAG        tag (default: package.json's version, which the charts' appVersion follows)
#   BASE_IMAGE       image every stage starts from (default: Containerfile's, the official Node 20 slim)
#   CONTAINER_TOOL   buildah, podman or docker (default: the first of them that works here)
#   BUILDAH_ISOLATION  buildah's and podman's isolation; chroot when no OCI runtime (runc, crun) is installed
set -euo pipefail
cd "$(dirname "$0")/.."

APPS=(agent controller tap)
version=$(node -p 'require("./package.json").version')
tag=${IMAGE_TAG:-$version}
prefix=${IMAGE_REGISTRY:+${IMAGE_REGISTRY%/}/}

ref_of() { echo "${prefix}sluice/$1:$tag"; }

pick_tool() {
  if [ -n "${CONTAINER_TOOL:-}" ]; then echo "$CONTAINER_TOOL"; return; fi
  for t in buildah podman; do
    if command -v "$t" >/dev/null; then echo "$t"; return; fi
  done
  if command -v docker >/dev/null && docker info >/dev/null 2>&1; then echo docker; return; fi
  echo "images: none of buildah, podman or docker (with its daemon running) is here; bash scripts/setup.sh installs buildah" >&2
  exit 1
}

size_of() {
  case "$1" in
    docker) docker image inspect --format '{{.Size}}' "$2" | awk '{ printf "%.0f MB\n", $1 / 1e6 }' ;;
    # One line per name of the image; sed reads them all (head would leave the tool writing to a
    # closed pipe, which pipefail turns into a failure).
    *) "$1" images --format '{{.Size}}' "$2" | sed -n 1p ;;
  esac
}

cmd=build
case "${1:-}" in build|names|size) cmd=$1; shift ;; esac
if [ "$cmd" = size ]; then size_of "$(pick_tool)" "$1"; exit 0; fi
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=("${APPS[@]}")
for app in "${apps[@]}"; do
  case " ${APPS[*]} " in *" $app "*) ;; *) echo "images: unknown app $app (one of: ${APPS[*]})" >&2; exit 2 ;; esac
done
if [ "$cmd" = names ]; then
  for app in "${apps[@]}"; do ref_of "$app"; done
  exit 0
fi

tool=$(pick_tool)
args=(-f Containerfile --build-arg "VERSION=$version")
[ -z "${BASE_IMAGE:-}" ] || args+=(--build-arg "BASE_IMAGE=$BASE_IMAGE")
source_url=$(node -p 'const r = require("./package.json").repository; (typeof r === "string" ? r : r?.url) ?? ""')
[ -n "$source_url" ] || source_url=$(git config --get remote.origin.url 2>/dev/null || true)
[ -z "$source_url" ] || args+=(--build-arg "SOURCE=$source_url")
revision=$(git rev-parse HEAD 2>/dev/null || true)
[ -z "$revision" ] || args+=(--build-arg "REVISION=$revision")
case "$tool" in
  buildah) build=(buildah bud --layers) ;;
  podman) build=(podman build --layers) ;;
  docker) build=(docker build) ;;
  *) echo "images: CONTAINER_TOOL must be buildah, podman or docker, not $tool" >&2; exit 2 ;;
esac
if [ "$tool" != docker ] && [ -z "${BUILDAH_ISOLATION:-}" ] && ! command -v runc >/dev/null && ! command -v crun >/dev/null; then
  export BUILDAH_ISOLATION=chroot
fi

for app in "${apps[@]}"; do
  echo "images: building $(ref_of "$app") with $tool"
  "${build[@]}" "${args[@]}" --target "$app" -t "$(ref_of "$app")" .
done
echo "images: sizes"
for app in "${apps[@]}"; do printf '  %-48s %s\n' "$(ref_of "$app")" "$(size_of "$tool" "$(ref_of "$app")")"; done
