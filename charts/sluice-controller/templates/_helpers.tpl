{{/*
The chart name, overridable with .Values.nameOverride.
*/}}
{{- define "sluice-controller.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The fully qualified name of the release's objects. When the release name already contains the
chart name it is used as it is (`helm install sluice-controller ...` gives `sluice-controller`).
*/}}
{{- define "sluice-controller.fullname" -}}
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
{{- define "sluice-controller.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels of every object.
*/}}
{{- define "sluice-controller.labels" -}}
helm.sh/chart: {{ include "sluice-controller.chart" . }}
{{ include "sluice-controller.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: controller
app.kubernetes.io/part-of: sluice
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
Labels that select the controller pods.
*/}}
{{- define "sluice-controller.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sluice-controller.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
The ServiceAccount the controller runs as.
*/}}
{{- define "sluice-controller.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "sluice-controller.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Cluster-scoped names carry the namespace, so releases in several namespaces do not collide.
*/}}
{{- define "sluice-controller.clusterRoleName" -}}
{{- printf "%s-%s" (include "sluice-controller.fullname" .) .Release.Namespace | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
An image reference from (dict "image" <registry/repository/tag values> "root" $):
`<registry>/<repository>:<tag>`, the registry from the image or global.imageRegistry (none when
both are empty), the tag defaulting to the chart's appVersion.
*/}}
{{- define "sluice-controller.image" -}}
{{- $registry := .root.Values.global.imageRegistry | default .image.registry | default "" }}
{{- $ref := printf "%s:%s" .image.repository (default .root.Chart.AppVersion .image.tag | toString) }}
{{- if $registry }}{{ printf "%s/%s" (trimSuffix "/" $registry) $ref }}{{ else }}{{ $ref }}{{ end }}
{{- end }}

{{/*
"true" when the controller serves TLS (config.server.tls.enabled), else "".
*/}}
{{- define "sluice-controller.tls" -}}
{{- if dig "server" "tls" "enabled" false .Values.config }}true{{ end }}
{{- end }}

{{/*
A Service's DNS name in a namespace, from (list $ <service> <namespace>).
*/}}
{{- define "sluice-controller.serviceHost" -}}
{{- $root := index . 0 }}
{{- printf "%s.%s.svc.%s" (index . 1) (index . 2) (trimSuffix "." $root.Values.clusterDomain) }}
{{- end }}

{{/*
The agent chart's full name and namespace (values `agent`), as that chart names its objects.
*/}}
{{- define "sluice-controller.agentFullname" -}}
{{- if .Values.agent.fullnameOverride }}
{{- .Values.agent.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains "sluice-agent" .Values.agent.releaseName }}
{{- .Values.agent.releaseName | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-sluice-agent" .Values.agent.releaseName | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "sluice-controller.agentNamespace" -}}
{{- default .Release.Namespace .Values.agent.namespace }}
{{- end }}

{{/*
The configuration file: .Values.config with the addresses it leaves out derived from the
release: etcd.endpoints, prometheus.address, injector.agent_address, injector.controller_address
(this release's Service), injector.tap_image and agent_image, and the sidecar agents' etcd and
Prometheus variables.
*/}}
{{- define "sluice-controller.config" -}}
{{- $config := deepCopy .Values.config }}
{{- $etcd := printf "http://%s:2379" (include "sluice-controller.serviceHost" (list . "etcd" .Release.Namespace)) }}
{{- $prometheus := printf "http://%s:9090" (include "sluice-controller.serviceHost" (list . "prometheus" .Release.Namespace)) }}
{{- if not (hasKey $config "etcd") }}{{ $_ := set $config "etcd" dict }}{{ end }}
{{- if not $config.etcd.endpoints }}
{{- if not .Values.etcd.enabled }}{{ fail "config.etcd.endpoints is required when etcd.enabled is false" }}{{ end }}
{{- $_ := set $config.etcd "endpoints" (list $etcd) }}
{{- else }}
{{- $etcd = first $config.etcd.endpoints }}
{{- end }}
{{- if not (hasKey $config "prometheus") }}{{ $_ := set $config "prometheus" dict }}{{ end }}
{{- if not $config.prometheus.address }}
{{- if not .Values.prometheus.enabled }}{{ fail "config.prometheus.address is required when prometheus.enabled is false" }}{{ end }}
{{- $_ := set $config.prometheus "address" $prometheus }}
{{- else }}
{{- $prometheus = $config.prometheus.address }}
{{- end }}
{{- if not (hasKey $config "injector") }}{{ $_ := set $config "injector" dict }}{{ end }}
{{- $injector := $config.injector }}
{{- if not $injector.tap_image }}{{ $_ := set $injector "tap_image" (include "sluice-controller.image" (dict "image" .Values.injector.tapImage "root" .)) }}{{ end }}
{{- if not $injector.agent_image }}{{ $_ := set $injector "agent_image" (include "sluice-controller.image" (dict "image" .Values.injector.agentImage "root" .)) }}{{ end }}
{{- if not $injector.agent_address }}
{{- $_ := set $injector "agent_address" (printf "%s:%v" (include "sluice-controller.serviceHost" (list . (include "sluice-controller.agentFullname" .) (include "sluice-controller.agentNamespace" .))) .Values.agent.port) }}
{{- end }}
{{- if not (hasKey $injector "controller_address") }}
{{- /* Injected agents dial this release's Service for agent functions. */}}
{{- $_ := set $injector "controller_address" (printf "%s:%v" (include "sluice-controller.serviceHost" (list . (include "sluice-controller.fullname" .) .Release.Namespace)) .Values.service.port) }}
{{- end }}
{{- $env := deepCopy ($injector.sidecar_agent_env | default dict) }}
{{- if not (hasKey $env "SLUICE_AGENT_ETCD_ENDPOINTS") }}{{ $_ := set $env "SLUICE_AGENT_ETCD_ENDPOINTS" (toJson $config.etcd.endpoints) }}{{ end }}
{{- if not (hasKey $env "SLUICE_AGENT_PROMETHEUS_ADDRESS") }}{{ $_ := set $env "SLUICE_AGENT_PROMETHEUS_ADDRESS" $prometheus }}{{ end }}
{{- $_ := set $injector "sidecar_agent_env" $env }}
{{- toYaml $config }}
{{- end }}

{{/*
A probe of the controller from (list $ <probe values>): httpGet.scheme follows server.tls.enabled.
*/}}
{{- define "sluice-controller.probe" -}}
{{- $root := index . 0 }}
{{- $probe := deepCopy (index . 1) }}
{{- if $probe.httpGet }}
{{- $_ := set $probe.httpGet "scheme" (ternary "HTTPS" "HTTP" (eq (include "sluice-controller.tls" $root) "true")) }}
{{- end }}
{{- toYaml $probe }}
{{- end }}

{{/*
The controller pod's annotations: Prometheus's (scheme from server.tls.enabled), then .Values.podAnnotations.
*/}}
{{- define "sluice-controller.podAnnotations" -}}
{{- $a := dict "prometheus.io/scrape" "true" "prometheus.io/port" (include "sluice-controller.serverPort" .) "prometheus.io/path" "/metrics" "prometheus.io/scheme" (ternary "https" "http" (eq (include "sluice-controller.tls" .) "true")) }}
{{- toYaml (merge (deepCopy .Values.podAnnotations) $a) }}
{{- end }}

{{/*
Stops the render on values the chart cannot honour.
*/}}
{{- define "sluice-controller.validate" -}}
{{- if and .Values.webhook.enabled (ne (include "sluice-controller.tls" .) "true") }}
{{- fail "webhook.enabled needs config.server.tls.enabled: the API server calls webhooks over HTTPS only (or set webhook.enabled: false)" }}
{{- end }}
{{- end }}

{{/*
The port of server.listener.addr (":8080", "0.0.0.0:8080"), 8080 when unset.
*/}}
{{- define "sluice-controller.serverPort" -}}
{{- $addr := dig "server" "listener" "addr" ":8080" .Values.config | toString }}
{{- default "8080" (regexFind "[0-9]+$" $addr) }}
{{- end }}

{{/*
The controller's environment: pod name and namespace from the downward API, then .Values.env
(name -> value; non-strings are written as JSON) and .Values.extraEnv.
*/}}
{{- define "sluice-controller.env" -}}
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ if kindIs "string" $value }}{{ $value | quote }}{{ else }}{{ $value | toJson | quote }}{{ end }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Name of the Secret holding the webhook's serving certificate.
*/}}
{{- define "sluice-controller.webhookSecretName" -}}
{{- .Values.webhook.certificate.existingSecret | default (printf "%s-webhook-tls" (include "sluice-controller.fullname" .) | trunc 63 | trimSuffix "-") }}
{{- end }}

{{/*
Labels of the embedded etcd or Prometheus, from (list $ "etcd"|"prometheus").
*/}}
{{- define "sluice-controller.bundledLabels" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
helm.sh/chart: {{ include "sluice-controller.chart" $root }}
app.kubernetes.io/name: {{ $name }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ $name }}
app.kubernetes.io/part-of: sluice
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
{{- end }}

