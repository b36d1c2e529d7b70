{{/*
The chart name, overridable with .Values.nameOverride.
*/}}
{{- define "sluice-agent.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The fully qualified name of the release's objects. When the release name already contains the
chart name it is used as it is, so `helm install sluice-agent ./charts/sluice-agent` gives
`sluice-agent`, not `sluice-agent-sluice-agent`.
*/}}
{{- define "sluice-agent.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Chart name and version, for the helm.sh/chart label.
*/}}
{{- define "sluice-agent.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels of every object.
*/}}
{{- define "sluice-agent.labels" -}}
helm.sh/chart: {{ include "sluice-agent.chart" . }}
{{ include "sluice-agent.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: agent
app.kubernetes.io/part-of: sluice
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
Labels that select the agent pods (immutable once a DaemonSet exists).
*/}}
{{- define "sluice-agent.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sluice-agent.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
The ServiceAccount the agent runs as.
*/}}
{{- define "sluice-agent.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "sluice-agent.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
An image reference from (dict "image" <repository/tag values> "root" $); the tag defaults to
the chart's appVersion.
*/}}
{{- define "sluice-agent.image" -}}
{{- $registry := .root.Values.global.imageRegistry | default .image.registry | default "" }}
{{- $ref := printf "%s:%s" .image.repository (default .root.Chart.AppVersion .image.tag | toString) }}
{{- if $registry }}{{ printf "%s/%s" (trimSuffix "/" $registry) $ref }}{{ else }}{{ $ref }}{{ end }}
{{- end }}

{{/*
"true" when the agent serves TLS (config.server.tls.enabled), else "".
*/}}
{{- define "sluice-agent.tls" -}}
{{- if dig "server" "tls" "enabled" false .Values.config }}true{{ end }}
{{- end }}

{{/*
"true" when the agents dial the controller's Service over TLS with the CA of controller.caSecret
mounted at /etc/sluice/agent/controller-ca (daemonset mode, agent_functions.endpoints left out).
*/}}
{{- define "sluice-agent.controllerCa" -}}
{{- if and (eq .Values.mode "daemonset") .Values.controller.tls .Values.controller.caSecret (not (hasKey (dig "agent_functions" dict .Values.config) "endpoints")) }}true{{ end }}
{{- end }}

{{/*
A Service's DNS name in the controller's namespace, from (list $ <service>).
*/}}
{{- define "sluice-agent.controllerHost" -}}
{{- $root := index . 0 }}
{{- printf "%s.%s.svc.%s" (index . 1) (default $root.Release.Namespace $root.Values.controller.namespace) (trimSuffix "." $root.Values.clusterDomain) }}
{{- end }}

{{/*
The configuration file: .Values.config with etcd.endpoints and prometheus.address, when left out,
the controller chart's (its Services etcd and prometheus), agent_functions.endpoints the
controller's Service (plaintext unless controller.tls), and the TLS files of the mounted
Secret (tls.secretName) when server.tls is on without them.
*/}}
{{- define "sluice-agent.config" -}}
{{- $config := deepCopy .Values.config }}
{{- if not (hasKey $config "etcd") }}{{ $_ := set $config "etcd" dict }}{{ end }}
{{- if not $config.etcd.endpoints }}
{{- $_ := set $config.etcd "endpoints" (list (printf "http://%s:2379" (include "sluice-agent.controllerHost" (list . "etcd")))) }}
{{- end }}
{{- if not (hasKey $config "prometheus") }}{{ $_ := set $config "prometheus" dict }}{{ end }}
{{- if not $config.prometheus.address }}
{{- $_ := set $config.prometheus "address" (printf "http://%s:9090" (include "sluice-agent.controllerHost" (list . "prometheus"))) }}
{{- end }}
{{- if not (hasKey $config "agent_functions") }}{{ $_ := set $config "agent_functions" dict }}{{ end }}
{{- if not (hasKey $config.agent_functions "endpoints") }}
{{- /* Agent functions: the agents dial the controller's Service, which then reaches them (previews, control points). */}}
{{- $_ := set $config.agent_functions "endpoints" (list (printf "%s:%v" (include "sluice-agent.controllerHost" (list . .Values.controller.serviceName)) .Values.controller.port)) }}
{{- if not (hasKey $config.agent_functions "client") }}{{ $_ := set $config.agent_functions "client" dict }}{{ end }}
{{- if not (hasKey $config.agent_functions.client "grpc") }}{{ $_ := set $config.agent_functions.client "grpc" dict }}{{ end }}
{{- $grpc := $config.agent_functions.client.grpc }}
{{- if not .Values.controller.tls }}
{{- if not (hasKey $grpc "insecure") }}{{ $_ := set $grpc "insecure" true }}{{ end }}
{{- else if eq (include "sluice-agent.controllerCa" .) "true" }}
{{- if not (hasKey $grpc "tls") }}{{ $_ := set $grpc "tls" dict }}{{ end }}
{{- if not $grpc.tls.ca_file }}{{ $_ := set $grpc.tls "ca_file" "/etc/sluice/agent/controller-ca/ca.crt" }}{{ end }}
{{- end }}
{{- end }}
{{- if eq (include "sluice-agent.tls" .) "true" }}
{{- $tls := $config.server.tls }}
{{- if .Values.tls.secretName }}
{{- if not $tls.cert_file }}{{ $_ := set $tls "cert_file" "/etc/sluice/agent/tls/tls.crt" }}{{ end }}
{{- if not $tls.key_file }}{{ $_ := set $tls "key_file" "/etc/sluice/agent/tls/tls.key" }}{{ end }}
{{- else if not (and $tls.cert_file $tls.key_file) }}
{{- fail "config.server.tls.enabled needs tls.secretName (a kubernetes.io/tls Secret) or config.server.tls.cert_file and key_file" }}
{{- end }}
{{- end }}
{{- if .Values.distCache.auth.enabled }}
{{- if not (hasKey $config "dist_cache") }}{{ $_ := set $config "dist_cache" dict }}{{ end }}
{{- if not (hasKey $config.dist_cache "auth") }}{{ $_ := set $config.dist_cache "auth" dict }}{{ end }}
{{- if not $config.dist_cache.auth.key_file }}{{ $_ := set $config.dist_cache.auth "key_file" "/etc/sluice/agent/dist-cache/keys" }}{{ end }}
{{- end }}
{{- if eq .Values.mode "sidecar" }}
{{- /* Sidecar mode: the agent serves the traffic tap itself (tap.*), in front of the application. */}}
{{- if not (hasKey $config "tap") }}{{ $_ := set $config "tap" dict }}{{ end }}
{{- if not (hasKey $config.tap "enabled") }}{{ $_ := set $config.tap "enabled" true }}{{ end }}
{{- if not $config.tap.listen }}{{ $_ := set $config.tap "listen" (printf "0.0.0.0:%v" .Values.sidecar.tap.listenPort) }}{{ end }}
{{- if not $config.tap.upstream }}{{ $_ := set $config.tap "upstream" (printf "http://127.0.0.1:%v" .Values.sidecar.appPort) }}{{ end }}
{{- if not $config.tap.control_point }}{{ $_ := set $config.tap "control_point" .Values.sidecar.tap.controlPoint }}{{ end }}
{{- end }}
{{- toYaml $config }}
{{- end }}

{{/*
The Secret holding the dist cache's group keys: distCache.auth.existingSecret, else the chart's
own, <fullname>-dist-cache-key.
*/}}
{{- define "sluice-agent.distCacheKeySecret" -}}
{{- .Values.distCache.auth.existingSecret | default (printf "%s-dist-cache-key" (include "sluice-agent.fullname" .) | trunc 63 | trimSuffix "-") }}
{{- end }}

{{/*
The data (base64) of the chart's key Secret: the stored Secret's when the cluster has it (so an
upgrade keeps the key), else 32 random bytes as base64 text, drawn once per render (the Secret and
the pods' checksum see the same key).
*/}}
{{- define "sluice-agent.distCacheKeyData" -}}
{{- $auth := .Values.distCache.auth }}
{{- if not (hasKey $auth "renderedKeys") }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "sluice-agent.distCacheKeySecret" .) }}
{{- $stored := "" }}
{{- if $existing }}{{ $stored = index ($existing.data | default dict) "keys" | default "" }}{{ end }}
{{- $_ := set $auth "renderedKeys" ($stored | default (randBytes 32 | b64enc)) }}
{{- end }}
{{- $auth.renderedKeys }}
{{- end }}

{{/*
The pods' checksum of the group keys, so a changed key rolls them: of the chart's Secret's data, or of
the existing Secret's data when the cluster has it (else of its name).
*/}}
{{- define "sluice-agent.distCacheKeyChecksum" -}}
{{- if .Values.distCache.auth.existingSecret }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace .Values.distCache.auth.existingSecret }}
{{- if $existing }}{{ toJson ($existing.data | default dict) | sha256sum }}{{ else }}{{ .Values.distCache.auth.existingSecret | sha256sum }}{{ end }}
{{- else }}
{{- include "sluice-agent.distCacheKeyData" . | sha256sum }}
{{- end }}
{{- end }}

{{/*
A probe of the agent from (list $ <probe values>): httpGet.scheme follows server.tls.enabled.
*/}}
{{- define "sluice-agent.probe" -}}
{{- $root := index . 0 }}
{{- $probe := deepCopy (index . 1) }}
{{- if $probe.httpGet }}
{{- $_ := set $probe.httpGet "scheme" (ternary "HTTPS" "HTTP" (eq (include "sluice-agent.tls" $root) "true")) }}
{{- end }}
{{- toYaml $probe }}
{{- end }}

{{/*
The agent pod's annotations: Prometheus's (port and scheme from the server), then .Values.podAnnotations.
*/}}
{{- define "sluice-agent.podAnnotations" -}}
{{- $a := dict "prometheus.io/scrape" "true" "prometheus.io/port" (include "sluice-agent.serverPort" .) "prometheus.io/path" "/metrics" "prometheus.io/scheme" (ternary "https" "http" (eq (include "sluice-agent.tls" .) "true")) }}
{{- toYaml (merge (deepCopy .Values.podAnnotations) $a) }}
{{- end }}

{{/*
The port of a hostname_port address such as ":8080" or "0.0.0.0:3320", from
(list <address> <default port>).
*/}}
{{- define "sluice-agent.portOf" -}}
{{- $port := regexFind "[0-9]+$" (index . 0 | default "" | toString) }}
{{- default (index . 1) $port }}
{{- end }}

{{- define "sluice-agent.serverPort" -}}
{{- include "sluice-agent.portOf" (list (dig "server" "listener" "addr" ":8080" .Values.config) 8080) }}
{{- end }}

{{- define "sluice-agent.distCachePort" -}}
{{- include "sluice-agent.portOf" (list (dig "dist_cache" "bind_addr" ":3320" .Values.config) 3320) }}
{{- end }}

{{- define "sluice-agent.memberlistPort" -}}
{{- include "sluice-agent.portOf" (list (dig "dist_cache" "memberlist_bind_addr" ":3322" .Values.config) 3322) }}
{{- end }}

{{/*
Stops the render on values the chart cannot honour.
*/}}
{{- define "sluice-agent.validate" -}}
{{- if not (has .Values.mode (list "daemonset" "sidecar")) }}
{{- fail (printf "mode must be \"daemonset\" or \"sidecar\", got %q" (toString .Values.mode)) }}
{{- end }}
{{- end }}

{{/*
The agent container, shared by the DaemonSet and the sidecar snippet in NOTES.txt (which also
serves the traffic tap's port: tap.* is set in sidecar mode).
*/}}
{{- define "sluice-agent.container" -}}
name: agent
image: {{ include "sluice-agent.image" (dict "image" .Values.image "root" .) }}
imagePullPolicy: {{ .Values.image.pullPolicy }}
command:
  {{- toYaml .Values.command | nindent 2 }}
{{- with .Values.args }}
args:
  {{- toYaml . | nindent 2 }}
{{- end }}
ports:
  - name: server
    containerPort: {{ include "sluice-agent.serverPort" . }}
    protocol: TCP
  - name: dist-cache
    containerPort: {{ include "sluice-agent.distCachePort" . }}
    protocol: TCP
  - name: memberlist
    containerPort: {{ include "sluice-agent.memberlistPort" . }}
    protocol: TCP
  - name: memberlist-udp
    containerPort: {{ include "sluice-agent.memberlistPort" . }}
    protocol: UDP
  {{- if eq .Values.mode "sidecar" }}
  - name: tap
    containerPort: {{ .Values.sidecar.tap.listenPort }}
    protocol: TCP
  {{- end }}
env:
  {{- include "sluice-agent.env" . | nindent 2 }}
{{- with .Values.livenessProbe }}
livenessProbe:
  {{- include "sluice-agent.probe" (list $ .) | nindent 2 }}
{{- end }}
{{- with .Values.readinessProbe }}
readinessProbe:
  {{- include "sluice-agent.probe" (list $ .) | nindent 2 }}
{{- end }}
{{- with .Values.resources }}
resources:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.securityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
volumeMounts:
  - name: config
    mountPath: /etc/sluice/agent/config
    readOnly: true
  - name: tmp
    mountPath: /tmp
  - name: logs
    mountPath: /var/log/sluice
  {{- if .Values.tls.secretName }}
  - name: tls
    mountPath: /etc/sluice/agent/tls
    readOnly: true
  {{- end }}
  {{- if .Values.distCache.auth.enabled }}
  - name: dist-cache-key
    mountPath: /etc/sluice/agent/dist-cache
    readOnly: true
  {{- end }}
  {{- if eq (include "sluice-agent.controllerCa" .) "true" }}
  - name: controller-ca
    mountPath: /etc/sluice/agent/controller-ca
    readOnly: true
  {{- end }}
  {{- with .Values.extraVolumeMounts }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}


{{/*
The agent's environment: the downward API (node name, pod name/namespace/IP), the pod IP
advertised to peers, then .Values.env (name -> value; non-strings are written as JSON) and
.Values.extraEnv. $(POD_IP) works because POD_IP is declared first.
*/}}
{{- define "sluice-agent.env" -}}
- name: NODE_NAME
  valueFrom:
    fieldRef:
      fieldPath: spec.nodeName
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: POD_IP
  valueFrom:
    fieldRef:
      fieldPath: status.podIP
{{- if and (eq .Values.mode "daemonset") (not (dig "peer_discovery" "kubernetes_service" "" .Values.config)) }}
- name: SLUICE_AGENT_PEER_DISCOVERY_KUBERNETES_SERVICE
  value: {{ include "sluice-agent.fullname" . }}-peers
{{- end }}
{{- if .Values.advertisePodIP }}
{{- if not (dig "peer_discovery" "advertisement_addr" "" .Values.config) }}
- name: SLUICE_AGENT_PEER_DISCOVERY_ADVERTISEMENT_ADDR
  value: "$(POD_IP):{{ include "sluice-agent.distCachePort" . }}"
{{- end }}
{{- if not (dig "dist_cache" "memberlist_advertise_addr" "" .Values.config) }}
- name: SLUICE_AGENT_DIST_CACHE_MEMBERLIST_ADVERTISE_ADDR
  value: "$(POD_IP):{{ include "sluice-agent.memberlistPort" . }}"
{{- end }}
{{- end }}
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ if kindIs "string" $value }}{{ $value | quote }}{{ else }}{{ $value | toJson | quote }}{{ end }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
The pod volumes the agent container mounts.
*/}}
{{- define "sluice-agent.volumes" -}}
- name: config
  configMap:
    name: {{ include "sluice-agent.fullname" . }}
    items:
      - key: agent.yaml
        path: agent.yaml
- name: tmp
  emptyDir: {}
- name: logs
  emptyDir: {}
{{- if .Values.tls.secretName }}
- name: tls
  secret:
    secretName: {{ .Values.tls.secretName }}
{{- end }}
{{- if .Values.distCache.auth.enabled }}
- name: dist-cache-key
  secret:
    secretName: {{ include "sluice-agent.distCacheKeySecret" . }}
    defaultMode: {{ .Values.distCache.auth.defaultMode }}
    items:
      - key: {{ .Values.distCache.auth.secretKey }}
        path: keys
{{- end }}
{{- if eq (include "sluice-agent.controllerCa" .) "true" }}
- name: controller-ca
  secret:
    secretName: {{ .Values.controller.caSecret }}
    # Optional: without it the agents still start (agent functions then fail to verify the controller and say so).
    optional: true
    items:
      - key: ca.crt
        path: ca.crt
{{- end }}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Cluster-scoped names carry the namespace, so releases of the same name in several namespaces
(one per workload namespace in sidecar mode) do not collide.
*/}}
{{- define "sluice-agent.clusterRoleName" -}}
{{- printf "%s-%s" (include "sluice-agent.fullname" .) .Release.Namespace | trunc 63 | trimSuffix "-" }}
{{- end }}
