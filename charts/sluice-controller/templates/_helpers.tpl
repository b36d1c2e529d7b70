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
The controller image; the tag defaults to the chart's appVersion.
*/}}
{{- define "sluice-controller.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag | toString) }}
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
{{- printf "%s-webhook-tls" (include "sluice-controller.fullname" .) | trunc 63 | trimSuffix "-" }}
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

{{/*
A probe of the controller's server port: its httpGet scheme follows config.server.tls.enabled (HTTPS when on,
HTTP when off), whatever the probe's values say.
*/}}
{{- define "sluice-controller.probe" -}}
{{- $p := deepCopy .probe -}}
{{- if hasKey $p "httpGet" -}}
{{- if dig "server" "tls" "enabled" false .root.Values.config -}}
{{- $_ := set $p.httpGet "scheme" "HTTPS" -}}
{{- else if hasKey $p.httpGet "scheme" -}}
{{- $_ := set $p.httpGet "scheme" "HTTP" -}}
{{- end -}}
{{- end -}}
{{- toYaml $p -}}
{{- end -}}
