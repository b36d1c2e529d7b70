#!/bin/sh
# Creates the admission webhooks' serving certificate for the plain manifests (the Helm chart
# generates it at install): a CA and a certificate for sluice-controller.sluice-system.svc, the
# Secret sluice-controller-webhook-tls the controller mounts, and the CA in the
# MutatingWebhookConfiguration (sidecar injection) and the ValidatingWebhookConfiguration (Policies). Needs openssl and kubectl. Run it again to renew.
set -eu
ns=${NAMESPACE:-sluice-system}
svc=sluice-controller.$ns.svc
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=sluice-controller-webhook-ca" \
  -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=$svc" -keyout "$dir/tls.key" -out "$dir/tls.csr" 2>/dev/null
printf 'subjectAltName=DNS:%s,DNS:sluice-controller.%s,DNS:sluice-controller,DNS:%s.cluster.local\nextendedKeyUsage=serverAuth\n' \
  "$svc" "$ns" "$svc" > "$dir/ext"
openssl x509 -req -in "$dir/tls.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 3650 \
  -extfile "$dir/ext" -out "$dir/tls.crt" 2>/dev/null
kubectl -n "$ns" create secret generic sluice-controller-webhook-tls --type=kubernetes.io/tls \
  --from-file=tls.crt="$dir/tls.crt" --from-file=tls.key="$dir/tls.key" --from-file=ca.crt="$dir/ca.crt" \
  --dry-run=client -o yaml | kubectl apply -f -
ca=$(base64 < "$dir/ca.crt" | tr -d '\n')
kubectl patch mutatingwebhookconfiguration "sluice-controller-$ns" --type=json -p \
  "[{\"op\":\"add\",\"path\":\"/webhooks/0/clientConfig/caBundle\",\"value\":\"$ca\"},{\"op\":\"add\",\"path\":\"/webhooks/1/clientConfig/caBundle\",\"value\":\"$ca\"}]"
kubectl patch validatingwebhookconfiguration "sluice-controller-$ns" --type=json -p \
  "[{\"op\":\"add\",\"path\":\"/webhooks/0/clientConfig/caBundle\",\"value\":\"$ca\"}]"
kubectl -n "$ns" rollout restart deployment/sluice-controller
