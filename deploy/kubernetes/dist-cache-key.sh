#!/bin/sh
# Creates the agents' dist cache group key for the plain manifests (the Helm chart generates it at
# install): Secret sluice-agent-dist-cache-key, data `keys`, 32 random bytes as base64 text. An
# existing Secret is left as it is (every agent must hold the same key). Needs openssl and kubectl.
# Rotation: edit the Secret's `keys` to `old` and `new` on two lines, roll the DaemonSet, then
# `new` and `old`, roll, then `new` alone, roll (kubectl -n sluice-system rollout restart daemonset/sluice-agent).
set -eu
ns=${NAMESPACE:-sluice-system}
name=sluice-agent-dist-cache-key
if kubectl -n "$ns" get secret "$name" >/dev/null 2>&1; then
  echo "secret $ns/$name exists: kept"
  exit 0
fi
key=$(openssl rand -base64 32)
kubectl -n "$ns" create secret generic "$name" --from-literal=keys="$key"
