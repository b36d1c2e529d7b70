import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigText } from './file.js';
import { ConfigError, type ConfigProblem } from './problem.js';
import { resolveConfig } from './resolve.js';
import type { ProcessName } from './process.js';

interface BadInput {
  name: string;
  process?: ProcessName;
  env?: Record<string, string>;
  yaml?: string;
  /** Keep the process's own required keys (default: none, to isolate the case). */
  required?: boolean;
  path: string;
  envVar: string;
  rule: ConfigProblem['rule'];
  message: RegExp;
}

const A = 'SLUICE_AGENT_';
const C = 'SLUICE_CONTROLLER_';

const CASES: BadInput[] = [
  { name: 'address without a port', env: { [`${A}SERVER_LISTENER_ADDR`]: 'abc' }, path: 'server.listener.addr', envVar: `${A}SERVER_LISTENER_ADDR`, rule: 'format', message: /value "abc" is not hostname_port \(\[host\]:port/ },
  { name: 'port above 65535', env: { [`${A}SERVER_LISTENER_ADDR`]: 'host:70000' }, path: 'server.listener.addr', envVar: `${A}SERVER_LISTENER_ADDR`, rule: 'format', message: /"host:70000" is not hostname_port/ },
  { name: 'unclosed IPv6 bracket', env: { [`${A}SERVER_LISTENER_ADDR`]: '[::1:8080' }, path: 'server.listener.addr', envVar: `${A}SERVER_LISTENER_ADDR`, rule: 'format', message: /is not hostname_port/ },
  { name: 'IPv6 without brackets', env: { [`${A}DIST_CACHE_BIND_ADDR`]: '::1:8080' }, path: 'dist_cache.bind_addr', envVar: `${A}DIST_CACHE_BIND_ADDR`, rule: 'format', message: /"::1:8080" is not hostname_port/ },
  { name: 'network outside the enum', env: { [`${A}SERVER_LISTENER_NETWORK`]: 'udp' }, path: 'server.listener.network', envVar: `${A}SERVER_LISTENER_NETWORK`, rule: 'enum', message: /value "udp" is not one of: tcp, tcp4, tcp6/ },
  { name: 'duration that is not Go syntax', env: { [`${A}SERVER_LISTENER_KEEP_ALIVE`]: 'forever' }, path: 'server.listener.keep_alive', envVar: `${A}SERVER_LISTENER_KEEP_ALIVE`, rule: 'duration', message: /value "forever" is not duration/ },
  { name: 'negative timeout', env: { [`${A}SERVER_HTTP_IDLE_TIMEOUT`]: '-5s' }, path: 'server.http.idle_timeout', envVar: `${A}SERVER_HTTP_IDLE_TIMEOUT`, rule: 'duration', message: /"-5s" is not duration \(a non-negative Go duration/ },
  { name: 'duration past the longest Go duration', env: { [`${A}SERVER_HTTP_READ_TIMEOUT`]: '3000000h' }, path: 'server.http.read_timeout', envVar: `${A}SERVER_HTTP_READ_TIMEOUT`, rule: 'duration', message: /value "3000000h" is too large: at most 2562047h47m16\.854775807s/ },
  { name: 'huge duration in the file', yaml: 'server:\n  http:\n    read_timeout: 100000000h\n', path: 'server.http.read_timeout', envVar: `${A}SERVER_HTTP_READ_TIMEOUT`, rule: 'duration', message: /value "100000000h" is too large: at most / },
  { name: 'huge negative duration where only non-negative ones are allowed', env: { [`${A}SERVER_HTTP_READ_TIMEOUT`]: '-100000000h' }, path: 'server.http.read_timeout', envVar: `${A}SERVER_HTTP_READ_TIMEOUT`, rule: 'duration', message: /value "-100000000h" is not duration \(a non-negative Go duration/ },
  { name: 'duration without a unit', env: { [`${A}LIVENESS_SERVICE_EXECUTION_TIMEOUT`]: '10' }, path: 'liveness.service.execution_timeout', envVar: `${A}LIVENESS_SERVICE_EXECUTION_TIMEOUT`, rule: 'duration', message: /value "10" is not duration/ },
  { name: 'negative integer under a minimum of 0', env: { [`${A}SERVER_HTTP_MAX_HEADER_BYTES`]: '-1' }, path: 'server.http.max_header_bytes', envVar: `${A}SERVER_HTTP_MAX_HEADER_BYTES`, rule: 'minimum', message: /value -1 is below the minimum 0/ },
  { name: 'fraction for an integer', env: { [`${A}SERVER_HTTP_MAX_HEADER_BYTES`]: '1.5' }, path: 'server.http.max_header_bytes', envVar: `${A}SERVER_HTTP_MAX_HEADER_BYTES`, rule: 'type', message: /value 1\.5 is not an integer \(int64\)/ },
  { name: 'word for a number', env: { [`${A}SERVER_HTTP_MAX_HEADER_BYTES`]: 'lots' }, path: 'server.http.max_header_bytes', envVar: `${A}SERVER_HTTP_MAX_HEADER_BYTES`, rule: 'type', message: /value "lots" is not a number \(int64\)/ },
  { name: 'yes for a boolean', env: { [`${A}SERVER_GRPC_ENABLE_REFLECTION`]: 'yes' }, path: 'server.grpc.enable_reflection', envVar: `${A}SERVER_GRPC_ENABLE_REFLECTION`, rule: 'type', message: /value "yes" is not a boolean \(true, false, 1, 0\)/ },
  { name: 'list that is not JSON', env: { [`${A}SERVER_GRPC_LATENCY_BUCKETS_MS`]: '10,25' }, path: 'server.grpc.latency_buckets_ms', envVar: `${A}SERVER_GRPC_LATENCY_BUCKETS_MS`, rule: 'json', message: /value "10,25" is not valid JSON: want a JSON list/ },
  { name: 'decreasing histogram buckets', env: { [`${A}SERVER_GRPC_LATENCY_BUCKETS_MS`]: '[100,10]' }, path: 'server.grpc.latency_buckets_ms', envVar: `${A}SERVER_GRPC_LATENCY_BUCKETS_MS`, rule: 'increasing', message: /value \[100,10\] is not strictly increasing/ },
  { name: 'min_gogc above 100', env: { [`${A}WATCHDOG_MEMORY_HEAP_MIN_GOGC`]: '101' }, path: 'watchdog.memory.heap.min_gogc', envVar: `${A}WATCHDOG_MEMORY_HEAP_MIN_GOGC`, rule: 'maximum', message: /value 101 is above the maximum 100/ },
  { name: 'adaptive factor above 1', env: { [`${A}WATCHDOG_MEMORY_CGROUP_ADAPTIVE_POLICY_FACTOR`]: '1.5' }, path: 'watchdog.memory.cgroup.adaptive_policy.factor', envVar: `${A}WATCHDOG_MEMORY_CGROUP_ADAPTIVE_POLICY_FACTOR`, rule: 'maximum', message: /value 1\.5 is above the maximum 1/ },
  { name: 'repeated watermark', env: { [`${A}WATCHDOG_MEMORY_SYSTEM_WATERMARKS_POLICY_WATERMARKS`]: '[0.5,0.5]' }, path: 'watchdog.memory.system.watermarks_policy.watermarks', envVar: `${A}WATCHDOG_MEMORY_SYSTEM_WATERMARKS_POLICY_WATERMARKS`, rule: 'increasing', message: /\[0\.5,0\.5\] is not strictly increasing/ },
  { name: 'negative watermark', env: { [`${A}WATCHDOG_MEMORY_HEAP_WATERMARKS_POLICY_WATERMARKS`]: '[-0.1,0.5]' }, path: 'watchdog.memory.heap.watermarks_policy.watermarks[0]', envVar: `${A}WATCHDOG_MEMORY_HEAP_WATERMARKS_POLICY_WATERMARKS`, rule: 'minimum', message: /value -0\.1 is below the minimum 0/ },
  { name: 'log level outside the enum', env: { [`${A}LOG_LEVEL`]: 'verbose' }, path: 'log.level', envVar: `${A}LOG_LEVEL`, rule: 'enum', message: /value "verbose" is not one of: debug, DEBUG, info/ },
  { name: 'object where a list is wanted', env: { [`${A}LOG_WRITERS`]: '{"file":"x"}' }, path: 'log.writers', envVar: `${A}LOG_WRITERS`, rule: 'type', message: /is not a list of LogWriterConfig objects/ },
  { name: 'bound inside a list element', env: { [`${A}LOG_WRITERS`]: '[{"max_size":-1}]' }, path: 'log.writers[0].max_size', envVar: `${A}LOG_WRITERS`, rule: 'minimum', message: /value -1 is below the minimum 0/ },
  { name: 'sample rate above 1', env: { [`${A}CRASH_REPORT_SAMPLE_RATE`]: '2' }, path: 'crash_report.sample_rate', envVar: `${A}CRASH_REPORT_SAMPLE_RATE`, rule: 'maximum', message: /value 2 is above the maximum 1/ },
  { name: 'installation mode outside the enum', env: { [`${A}CLOUDEXT_INSTALLATION_MODE`]: 'DOCKER' }, path: 'cloudext.installation_mode', envVar: `${A}CLOUDEXT_INSTALLATION_MODE`, rule: 'enum', message: /"DOCKER" is not one of: KUBERNETES_SIDECAR, KUBERNETES_DAEMONSET, LINUX_BARE_METAL/ },
  { name: 'cloud endpoint with a space', env: { [`${A}CLOUDEXT_ENDPOINT`]: 'ht tp://x' }, path: 'cloudext.endpoint', envVar: `${A}CLOUDEXT_ENDPOINT`, rule: 'format', message: /is not empty \| hostname_port \| url \| fqdn/ },
  { name: 'proxy that is no address', env: { [`${A}CLIENT_PROXY_HTTP`]: 'not a proxy' }, path: 'client.proxy.http', envVar: `${A}CLIENT_PROXY_HTTP`, rule: 'format', message: /is not empty \| url \| hostname_port/ },
  { name: 'allowed_cn that is no FQDN', env: { [`${A}SERVER_TLS_ALLOWED_CN`]: 'not_fqdn!' }, path: 'server.tls.allowed_cn', envVar: `${A}SERVER_TLS_ALLOWED_CN`, rule: 'format', message: /is not empty \| fqdn/ },
  { name: 'entity with a bad IP', env: { [`${A}SERVICE_DISCOVERY_STATIC_ENTITIES`]: '[{"ip_address":"10.0.0.300","uid":"a"}]' }, path: 'service_discovery.static.entities[0].ip_address', envVar: `${A}SERVICE_DISCOVERY_STATIC_ENTITIES`, rule: 'format', message: /"10\.0\.0\.300" is not ip/ },
  { name: 'entity without uid', env: { [`${A}SERVICE_DISCOVERY_STATIC_ENTITIES`]: '[{"ip_address":"10.0.0.1"}]' }, path: 'service_discovery.static.entities[0].uid', envVar: `${A}SERVICE_DISCOVERY_STATIC_ENTITIES`, rule: 'required', message: /missing required key/ },
  { name: 'replica count 0', env: { [`${A}DIST_CACHE_REPLICA_COUNT`]: '0' }, path: 'dist_cache.replica_count', envVar: `${A}DIST_CACHE_REPLICA_COUNT`, rule: 'minimum', message: /value 0 is below the minimum 1/ },
  { name: 'misspelt variable', env: { [`${A}SERVER_LISTENR_ADDR`]: ':1' }, path: '(env)', envVar: `${A}SERVER_LISTENR_ADDR`, rule: 'unknown-env', message: /unknown variable under SLUICE_AGENT_ .*did you mean SLUICE_AGENT_SERVER_LISTENER_ADDR \(server\.listener\.addr\)\?/ },
  { name: 'etcd endpoint that is no address', env: { [`${A}ETCD_ENDPOINTS`]: '["not a url"]' }, path: 'etcd.endpoints[0]', envVar: `${A}ETCD_ENDPOINTS`, rule: 'format', message: /"not a url" is not url \| hostname_port/ },
  { name: 'header name with a space', env: { [`${A}KUBERNETES_CLIENT_HTTP_CLIENT_PROXY_CONNECT_HEADER`]: '{"Bad Header":["x"]}' }, path: 'kubernetes_client.http_client.proxy_connect_header', envVar: `${A}KUBERNETES_CLIENT_HTTP_CLIENT_PROXY_CONNECT_HEADER`, rule: 'pattern', message: /key "Bad Header" is not a valid HTTP header name/ },
  { name: 'peers Service name that is no DNS label', env: { [`${A}PEER_DISCOVERY_KUBERNETES_SERVICE`]: 'Agents_Peers' }, path: 'peer_discovery.kubernetes_service', envVar: `${A}PEER_DISCOVERY_KUBERNETES_SERVICE`, rule: 'format', message: /value "Agents_Peers" is not dns_label/ },
  { name: 'peers Service name by its old variable', env: { SLUICE_PEERS_SERVICE: 'peers.svc' }, path: 'peer_discovery.kubernetes_service', envVar: `${A}PEER_DISCOVERY_KUBERNETES_SERVICE`, rule: 'format', message: /value "peers\.svc" is not dns_label.*; set by SLUICE_PEERS_SERVICE$/ },
  { name: 'injected tap image with upper case', process: 'controller', env: { [`${C}INJECTOR_TAP_IMAGE`]: 'Sluice/Tap:1' }, path: 'injector.tap_image', envVar: `${C}INJECTOR_TAP_IMAGE`, rule: 'format', message: /value "Sluice\/Tap:1" is not image \(a container image reference/ },
  { name: 'injected agent image with a space', process: 'controller', yaml: 'injector:\n  agent_image: "sluice/agent 0.1"\n', path: 'injector.agent_image', envVar: `${C}INJECTOR_AGENT_IMAGE`, rule: 'format', message: /value "sluice\/agent 0\.1" is not image/ },
  { name: 'injected image with an empty tag', process: 'controller', env: { SLUICE_INJECTOR_TAP_IMAGE: 'sluice/tap:' }, path: 'injector.tap_image', envVar: `${C}INJECTOR_TAP_IMAGE`, rule: 'format', message: /is not image.*; set by SLUICE_INJECTOR_TAP_IMAGE$/ },
  { name: 'alertmanager that is no URL', process: 'controller', env: { [`${C}ALERTS_ALERTMANAGERS`]: '["alertmanager:9093"]' }, path: 'alerts.alertmanagers[0]', envVar: `${C}ALERTS_ALERTMANAGERS`, rule: 'format', message: /value "alertmanager:9093" is not url/ },
  { name: 'alertmanagers that are no list', process: 'controller', yaml: 'alerts:\n  alertmanagers: http://am:9093\n', path: 'alerts.alertmanagers', envVar: `${C}ALERTS_ALERTMANAGERS`, rule: 'type', message: /./ },
  { name: 'tap port 0', process: 'controller', env: { [`${C}INJECTOR_TAP_PORT`]: '0' }, path: 'injector.tap_port', envVar: `${C}INJECTOR_TAP_PORT`, rule: 'minimum', message: /value 0 is below the minimum 1/ },
  { name: 'sidecar agent port above 65535', process: 'controller', yaml: 'injector:\n  sidecar_agent_port: 70000\n', path: 'injector.sidecar_agent_port', envVar: `${C}INJECTOR_SIDECAR_AGENT_PORT`, rule: 'maximum', message: /value 70000 is above the maximum 65535/ },
  { name: 'tap port that is no number, by its old variable', process: 'controller', env: { SLUICE_INJECTOR_TAP_PORT: '80a' }, path: 'injector.tap_port', envVar: `${C}INJECTOR_TAP_PORT`, rule: 'type', message: /value "80a" is not a number \(int64\); set by SLUICE_INJECTOR_TAP_PORT$/ },
  { name: 'tap and sidecar agent on one port', process: 'controller', env: { [`${C}INJECTOR_TAP_PORT`]: '8090' }, path: 'injector.tap_port', envVar: `${C}INJECTOR_TAP_PORT`, rule: 'invalid', message: /value 8090 is also injector\.sidecar_agent_port: the tap and the sidecar agent need ports of their own/ },
  { name: 'injector mode outside the enum', process: 'controller', env: { [`${C}INJECTOR_MODE`]: 'node' }, path: 'injector.mode', envVar: `${C}INJECTOR_MODE`, rule: 'enum', message: /value "node" is not one of: daemonset, sidecar/ },
  { name: 'image pull policy outside the enum', process: 'controller', env: { SLUICE_INJECTOR_IMAGE_PULL_POLICY: 'sometimes' }, path: 'injector.image_pull_policy', envVar: `${C}INJECTOR_IMAGE_PULL_POLICY`, rule: 'enum', message: /"sometimes" is not one of: Always, IfNotPresent, Never/ },
  { name: 'agent address without a port', process: 'controller', env: { [`${C}INJECTOR_AGENT_ADDRESS`]: 'sluice-agent' }, path: 'injector.agent_address', envVar: `${C}INJECTOR_AGENT_ADDRESS`, rule: 'format', message: /"sluice-agent" is not hostname_port/ },
  { name: 'empty control point', process: 'controller', env: { [`${C}INJECTOR_CONTROL_POINT`]: '' }, path: 'injector.control_point', envVar: `${C}INJECTOR_CONTROL_POINT`, rule: 'required', message: /must not be empty/ },
  { name: 'sidecar ConfigMap name with upper case', process: 'controller', env: { [`${C}INJECTOR_SIDECAR_AGENT_CONFIG_MAP`]: 'Agent' }, path: 'injector.sidecar_agent_config_map', envVar: `${C}INJECTOR_SIDECAR_AGENT_CONFIG_MAP`, rule: 'format', message: /"Agent" is not dns_subdomain/ },
  { name: 'sidecar agent env that is not JSON', process: 'controller', env: { SLUICE_INJECTOR_SIDECAR_AGENT_ENV: '{' }, path: 'injector.sidecar_agent_env', envVar: `${C}INJECTOR_SIDECAR_AGENT_ENV`, rule: 'json', message: /value "\{" is not valid JSON: want a JSON object/ },
  { name: 'sidecar agent env with a lower-case name', process: 'controller', env: { [`${C}INJECTOR_SIDECAR_AGENT_ENV`]: '{"a":"x"}' }, path: 'injector.sidecar_agent_env', envVar: `${C}INJECTOR_SIDECAR_AGENT_ENV`, rule: 'pattern', message: /key "a" is not an environment variable name/ },
  { name: 'sidecar agent env with a number', process: 'controller', env: { [`${C}INJECTOR_SIDECAR_AGENT_ENV`]: '{"SLUICE_AGENT_X":1}' }, path: 'injector.sidecar_agent_env.SLUICE_AGENT_X', envVar: `${C}INJECTOR_SIDECAR_AGENT_ENV`, rule: 'type', message: /value 1 is not a string/ },
  { name: 'sidecar agent env naming no agent key', process: 'controller', env: { [`${C}INJECTOR_SIDECAR_AGENT_ENV`]: '{"SLUICE_AGENT_ETCD_ENDPOINT":"[]"}' }, path: 'injector.sidecar_agent_env', envVar: `${C}INJECTOR_SIDECAR_AGENT_ENV`, rule: 'invalid', message: /the injected agent would refuse SLUICE_AGENT_ETCD_ENDPOINT: .*did you mean SLUICE_AGENT_ETCD_ENDPOINTS/ },
  { name: 'sidecar agent env with a value the agent cannot read', process: 'controller', env: { [`${C}INJECTOR_SIDECAR_AGENT_ENV`]: '{"SLUICE_AGENT_ETCD_ENDPOINTS":"http://etcd:2379"}' }, path: 'injector.sidecar_agent_env', envVar: `${C}INJECTOR_SIDECAR_AGENT_ENV`, rule: 'invalid', message: /refuse SLUICE_AGENT_ETCD_ENDPOINTS: etcd\.endpoints \(SLUICE_AGENT_ETCD_ENDPOINTS\): value "http:\/\/etcd:2379" is not valid JSON/ },
  { name: 'sidecar agent env with a boolean that is no string', process: 'controller', env: { [`${C}INJECTOR_SIDECAR_AGENT_ENV`]: '{"SLUICE_AGENT_SERVER_GRPC_ENABLE_REFLECTION":true}' }, path: 'injector.sidecar_agent_env.SLUICE_AGENT_SERVER_GRPC_ENABLE_REFLECTION', envVar: `${C}INJECTOR_SIDECAR_AGENT_ENV`, rule: 'type', message: /value true is not a string/ },
  { name: 'sidecar agent env that is a list', process: 'controller', env: { [`${C}INJECTOR_SIDECAR_AGENT_ENV`]: '[]' }, path: 'injector.sidecar_agent_env', envVar: `${C}INJECTOR_SIDECAR_AGENT_ENV`, rule: 'type', message: /is not a mapping of names to strings/ },
  { name: 'OTLP endpoint that is no URL', env: { [`${A}OTEL_OTLP_ENDPOINT`]: 'collector:4318' }, path: 'otel.otlp_endpoint', envVar: `${A}OTEL_OTLP_ENDPOINT`, rule: 'format', message: /"collector:4318" is not/ },
  { name: 'export interval that is no duration', env: { [`${A}OTEL_EXPORT_INTERVAL`]: 'often' }, path: 'otel.export_interval', envVar: `${A}OTEL_EXPORT_INTERVAL`, rule: 'duration', message: /value "often" is not duration/ },
  { name: 'export interval of zero', process: 'controller', env: { [`${C}PROMETHEUS_ADDRESS`]: 'prom:9090', [`${C}OTEL_EXPORT_INTERVAL`]: '0s' }, path: 'otel.export_interval', envVar: `${C}OTEL_EXPORT_INTERVAL`, rule: 'invalid', message: /value "0s" must be above 0s/ },
  { name: 'batch max size below the send size', env: { [`${A}OTEL_BATCH_PREROLLUP_SEND_BATCH_SIZE`]: '100', [`${A}OTEL_BATCH_PREROLLUP_SEND_BATCH_MAX_SIZE`]: '10' }, path: 'otel.batch_prerollup.send_batch_max_size', envVar: `${A}OTEL_BATCH_PREROLLUP_SEND_BATCH_MAX_SIZE`, rule: 'invalid', message: /value 10 is below otel\.batch_prerollup\.send_batch_size \(100\)/ },
  { name: 'port above 65535 in otel ports', env: { [`${A}OTEL_PORTS_DEBUG_PORT`]: '70000' }, path: 'otel.ports.debug_port', envVar: `${A}OTEL_PORTS_DEBUG_PORT`, rule: 'maximum', message: /value 70000 is above the maximum 65535/ },
  { name: 'TLS enabled without a certificate', env: { [`${A}SERVER_TLS_ENABLED`]: 'true', [`${A}SERVER_TLS_KEY_FILE`]: '/k.pem' }, path: 'server.tls.cert_file', envVar: `${A}SERVER_TLS_CERT_FILE`, rule: 'required', message: /must be set when server\.tls\.enabled is true/ },
  { name: 'agent without etcd endpoints', required: true, path: 'etcd.endpoints', envVar: `${A}ETCD_ENDPOINTS`, rule: 'required', message: /value \[\]: required by the agent, but not set/ },
  { name: 'controller without Prometheus', process: 'controller', required: true, env: { [`${C}ETCD_ENDPOINTS`]: '["http://127.0.0.1:2379"]' }, path: 'prometheus.address', envVar: `${C}PROMETHEUS_ADDRESS`, rule: 'required', message: /required by the controller, but not set/ },
  { name: 'controller Prometheus address that is none', process: 'controller', env: { [`${C}PROMETHEUS_ADDRESS`]: 'http//bad' }, path: 'prometheus.address', envVar: `${C}PROMETHEUS_ADDRESS`, rule: 'format', message: /"http\/\/bad" is not hostname_port \| url \| fqdn/ },
  { name: 'controller boolean', process: 'controller', env: { [`${C}POLICIES_CR_WATCHER_ENABLED`]: 'maybe' }, path: 'policies.cr_watcher.enabled', envVar: `${C}POLICIES_CR_WATCHER_ENABLED`, rule: 'type', message: /"maybe" is not a boolean/ },
  { name: 'controller-only key given to the agent', env: { [`${A}POLICIES_CR_WATCHER_ENABLED`]: 'true' }, path: '(env)', envVar: `${A}POLICIES_CR_WATCHER_ENABLED`, rule: 'unknown-env', message: /unknown variable under SLUICE_AGENT_/ },
  { name: 'unknown key inside an object variable', env: { [`${A}SERVER`]: '{"listener":{"adr":":1"}}' }, path: 'server.listener.adr', envVar: `${A}SERVER_LISTENER_ADR`, rule: 'unknown-key', message: /unknown key \(value ":1"\); did you mean server\.listener\.addr\?; set by SLUICE_AGENT_SERVER$/ },
  { name: 'Prometheus label without a name', env: { [`${A}PROMETHEUS_LABELS`]: '[{"value":"x"}]' }, path: 'prometheus.labels[0].name', envVar: `${A}PROMETHEUS_LABELS`, rule: 'required', message: /missing required key/ },
  { name: 'unknown top-level key in the file', yaml: 'servr:\n  listener: {}\n', path: 'servr', envVar: `${A}SERVR`, rule: 'unknown-key', message: /unknown key \(value \{"listener":\{\}\}\); did you mean server\?; set in \/etc\/test\.yaml:1:1/ },
  { name: 'unknown nested key in the file', yaml: 'server:\n  listener:\n    adress: ":80"\n', path: 'server.listener.adress', envVar: `${A}SERVER_LISTENER_ADRESS`, rule: 'unknown-key', message: /did you mean server\.listener\.addr\?; set in \/etc\/test\.yaml:3:5/ },
  { name: 'unclosed flow sequence', yaml: 'server:\n  listener: [\n', path: '(file)', envVar: '', rule: 'yaml', message: /\/etc\/test\.yaml: malformed YAML at line \d+, column \d+/ },
  { name: 'bad indentation', yaml: 'server:\n  listener:\n    addr: ":1"\n   network: tcp\n', path: '(file)', envVar: '', rule: 'yaml', message: /malformed YAML at line 4, column \d+/ },
  { name: 'duplicate key', yaml: 'log:\n  level: info\nlog:\n  level: debug\n', path: '(file)', envVar: '', rule: 'yaml', message: /malformed YAML at line 3, column 1: Map keys must be unique/ },
  { name: 'top of the file is a list', yaml: '- a\n- b\n', path: '(file)', envVar: '', rule: 'yaml', message: /the top of the file must be a mapping/ },
  { name: 'string for an integer in the file', yaml: 'server:\n  http:\n    max_header_bytes: "big"\n', path: 'server.http.max_header_bytes', envVar: `${A}SERVER_HTTP_MAX_HEADER_BYTES`, rule: 'type', message: /value "big" is not an integer \(int64\); set in \/etc\/test\.yaml:3:5/ },
  { name: 'number for a duration in the file', yaml: 'server:\n  grpc:\n    connection_timeout: 10\n', path: 'server.grpc.connection_timeout', envVar: `${A}SERVER_GRPC_CONNECTION_TIMEOUT`, rule: 'type', message: /value 10 is not a duration string/ },
  { name: 'bound in a list element in the file', yaml: 'log:\n  writers:\n    - file: x\n      max_age: -3\n', path: 'log.writers[0].max_age', envVar: `${A}LOG_WRITERS`, rule: 'minimum', message: /value -3 is below the minimum 0; set in \/etc\/test\.yaml:4:7/ },
  { name: 'scalar where an object is wanted', yaml: 'server: 5\n', path: 'server', envVar: `${A}SERVER`, rule: 'type', message: /value 5 is not a mapping of keys \(object\)/ },
  { name: 'enabled watermarks policy without watermarks', yaml: 'watchdog:\n  memory:\n    heap:\n      watermarks_policy:\n        enabled: true\n        watermarks: []\n', path: 'watchdog.memory.heap.watermarks_policy.watermarks', envVar: `${A}WATCHDOG_MEMORY_HEAP_WATERMARKS_POLICY_WATERMARKS`, rule: 'required', message: /must list at least one watermark/ },
  { name: 'empty Prometheus label name', yaml: 'prometheus:\n  labels:\n    - name: ""\n', path: 'prometheus.labels[0].name', envVar: `${A}PROMETHEUS_LABELS`, rule: 'required', message: /value "" must not be empty/ },
  { name: 'null inside a list', yaml: 'log:\n  writers:\n    -\n', path: 'log.writers[0]', envVar: `${A}LOG_WRITERS`, rule: 'type', message: /value null is not a mapping of keys/ },
  { name: 'string for a boolean in the controller file', process: 'controller', yaml: 'cloudext:\n  enable_cloud_controller: "yes"\n', path: 'cloudext.enable_cloud_controller', envVar: `${C}CLOUDEXT_ENABLE_CLOUD_CONTROLLER`, rule: 'type', message: /value "yes" is not a boolean/ },
  { name: 'hosted controller asked for', process: 'controller', env: { [`${C}CLOUDEXT_ENABLE_CLOUD_CONTROLLER`]: 'true' }, path: 'cloudext.enable_cloud_controller', envVar: `${C}CLOUDEXT_ENABLE_CLOUD_CONTROLLER`, rule: 'invalid', message: /value true is not supported: no hosted controller is available/ },
  { name: 'cloud API key without an endpoint', env: { [`${A}CLOUDEXT_API_KEY`]: 'k-123' }, path: 'cloudext.endpoint', envVar: `${A}CLOUDEXT_ENDPOINT`, rule: 'required', message: /value "" must be set when cloudext\.api_key is set/ },
  { name: 'controller cloud API key without an endpoint', process: 'controller', yaml: 'cloudext:\n  api_key: k-123\n', path: 'cloudext.endpoint', envVar: `${C}CLOUDEXT_ENDPOINT`, rule: 'required', message: /must be set when cloudext\.api_key is set/ },
  { name: 'unknown key named like an Object method', yaml: 'server:\n  constructor: 5\n', path: 'server.constructor', envVar: `${A}SERVER_CONSTRUCTOR`, rule: 'unknown-key', message: /unknown key \(value 5\)/ },
  { name: 'unknown key __proto__ in the file', yaml: '__proto__:\n  server: {}\n', path: '__proto__', envVar: `${A}__PROTO__`, rule: 'unknown-key', message: /unknown key \(value \{"server":\{\}\}\)/ },
  { name: 'unknown key toString in a list element', yaml: 'log:\n  writers:\n    - toString: x\n', path: 'log.writers[0].toString', envVar: `${A}LOG_WRITERS`, rule: 'unknown-key', message: /unknown key \(value "x"\)/ },
  { name: 'unknown key __proto__ inside an object variable', env: { [`${A}SERVER`]: '{"__proto__":{"listener":{}}}' }, path: 'server.__proto__', envVar: `${A}SERVER___PROTO__`, rule: 'unknown-key', message: /unknown key \(value \{"listener":\{\}\}\); .*set by SLUICE_AGENT_SERVER$/ },
  { name: 'tap enabled without an upstream', env: { [`${A}TAP_ENABLED`]: 'true' }, path: 'tap.upstream', envVar: `${A}TAP_UPSTREAM`, rule: 'required', message: /value "" must be set when tap\.enabled is true: the workload the tap forwards to, http:\/\/host:port/ },
  { name: 'tap upstream over https', env: { [`${A}TAP_UPSTREAM`]: 'https://127.0.0.1:3000' }, path: 'tap.upstream', envVar: `${A}TAP_UPSTREAM`, rule: 'invalid', message: /is not http:\/\/host:port: the tap speaks plain HTTP/ },
  { name: 'tap upstream with a path', yaml: 'tap:\n  upstream: http://127.0.0.1:3000/api\n', path: 'tap.upstream', envVar: `${A}TAP_UPSTREAM`, rule: 'invalid', message: /no path, query or credentials/ },
  { name: 'tap upstream not a URL', env: { [`${A}TAP_UPSTREAM`]: '127.0.0.1:3000' }, path: 'tap.upstream', envVar: `${A}TAP_UPSTREAM`, rule: 'format', message: /is not empty \| url/ },
  { name: 'tap listen on the server port', env: { [`${A}TAP_ENABLED`]: 'true', [`${A}TAP_UPSTREAM`]: 'http://127.0.0.1:3000', [`${A}TAP_LISTEN`]: ':8080' }, path: 'tap.listen', envVar: `${A}TAP_LISTEN`, rule: 'invalid', message: /value ":8080" has port 8080, also the port of server\.listener\.addr: the tap needs a port of its own/ },
  { name: 'tap listen on the dist cache port', yaml: 'tap:\n  enabled: true\n  upstream: http://127.0.0.1:3000\n  listen: 127.0.0.1:3320\n', path: 'tap.listen', envVar: `${A}TAP_LISTEN`, rule: 'invalid', message: /also the port of dist_cache\.bind_addr/ },
  { name: 'tap check timeout past 60s', env: { [`${A}TAP_CHECK_TIMEOUT`]: '2m' }, path: 'tap.check_timeout', envVar: `${A}TAP_CHECK_TIMEOUT`, rule: 'invalid', message: /value "2m" is out of range 1ms\.\.60s/ },
  { name: 'tap body bytes past 1 MiB', env: { [`${A}TAP_BODY_BYTES`]: '2000000' }, path: 'tap.body_bytes', envVar: `${A}TAP_BODY_BYTES`, rule: 'maximum', message: /above the maximum 1048576/ },
  { name: 'tap control point with a space', env: { [`${A}TAP_CONTROL_POINT`]: 'in gress' }, path: 'tap.control_point', envVar: `${A}TAP_CONTROL_POINT`, rule: 'invalid', message: /must be 1\.\.256 characters without spaces/ },
  { name: 'infinite float in the file', yaml: 'otel: {}\nserver:\n  http:\n    latency_buckets_ms: [1, .inf]\n', path: 'server.http.latency_buckets_ms[1]', envVar: `${A}SERVER_HTTP_LATENCY_BUCKETS_MS`, rule: 'type', message: /value Infinity is not a number/ },
];

function problemsOf(c: BadInput): readonly ConfigProblem[] {
  const parsed = c.yaml === undefined ? undefined : parseConfigText('/etc/test.yaml', c.yaml);
  try {
    resolveConfig({
      process: c.process ?? 'agent',
      env: c.env ?? {},
      file: parsed?.file,
      problems: parsed?.problems,
      requireKeys: c.required === true ? undefined : [],
    });
  } catch (err) {
    assert.ok(err instanceof ConfigError, `${c.name}: threw ${String(err)}`);
    assert.equal(err.code, 'SLUICE_ERR_CONFIG');
    return err.problems;
  }
  return assert.fail(`${c.name}: was accepted`);
}

test('the table of bad inputs has at least 40 cases, env and YAML', () => {
  assert.ok(CASES.length >= 40);
  assert.ok(CASES.filter((c) => c.yaml !== undefined).length >= 10);
});

for (const c of CASES) {
  test(`bad input: ${c.name}`, () => {
    const problems = problemsOf(c);
    const found = problems.find((p) => p.path === c.path && p.rule === c.rule);
    assert.ok(found, `${c.name}: no ${c.rule} problem at ${c.path} in:\n${problems.map((p) => p.message).join('\n')}`);
    assert.equal(found.env, c.envVar);
    assert.match(found.message, c.message);
    if (c.path.startsWith('(')) {
      assert.ok(found.message.startsWith(c.envVar === '' ? `${c.path}: ` : `${c.envVar}: `), found.message);
    } else {
      assert.ok(found.message.startsWith(`${c.path} (${c.envVar}): `), found.message);
    }
  });
}

test('every problem is collected, not just the first', () => {
  const env: Record<string, string> = {};
  for (const c of CASES) if (c.env !== undefined && (c.process ?? 'agent') === 'agent' && c.required !== true) Object.assign(env, c.env);
  delete env[`${A}SERVER`]; // an object variable would merge over the single-key ones
  let problems: readonly ConfigProblem[] = [];
  try {
    resolveConfig({ process: 'agent', env });
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    problems = err.problems;
  }
  const paths = new Set(problems.map((p) => p.path));
  for (const p of ['server.listener.network', 'log.level', 'crash_report.sample_rate', 'dist_cache.replica_count', 'etcd.endpoints[0]', 'otel.ports.debug_port', '(env)']) {
    assert.ok(paths.has(p), p);
  }
  assert.ok(problems.length >= 20, String(problems.length));
  const err = new ConfigError('agent', problems);
  assert.match(err.message, /^invalid agent configuration \(\d+ problems\):\n {2}/);
});

test('a variable wins over the file, the file over defaults', () => {
  const file = parseConfigText('/etc/test.yaml', 'log:\n  level: debug\n  non_blocking: false\nserver:\n  listener:\n    addr: ":9000"\n').file;
  const c = resolveConfig({ process: 'agent', file, requireKeys: [], env: { [`${A}SERVER_LISTENER_ADDR`]: '127.0.0.1:9100' } });
  assert.equal(c.server.listener.addr, '127.0.0.1:9100');
  assert.equal(c.log.level, 'debug');
  assert.equal(c.log.non_blocking, false);
  assert.equal(c.log.pretty_console, false);
});

test('an object variable merges over the file and leaf variables win over it', () => {
  const file = parseConfigText('/etc/test.yaml', 'server:\n  listener:\n    addr: ":9000"\n    network: tcp4\n').file;
  const c = resolveConfig({
    process: 'agent', file, requireKeys: [],
    env: { [`${A}SERVER_LISTENER`]: '{"addr":":9001","keep_alive":"-1s"}', [`${A}SERVER_LISTENER_KEEP_ALIVE`]: '0s' },
  });
  assert.deepEqual(c.server.listener, { addr: ':9001', keep_alive: '0s', network: 'tcp4' });
});

test('null in the file means not set; negative durations where a key allows them', () => {
  const file = parseConfigText('/etc/test.yaml', 'log:\nserver:\n  listener:\n    keep_alive: -1s\nliveness:\n  service:\n    execution_period: -1s\n').file;
  const c = resolveConfig({ process: 'agent', file, requireKeys: [] });
  assert.equal(c.log.level, 'info');
  assert.equal(c.server.listener.keep_alive, '-1s');
  assert.equal(c.liveness.service.execution_period, '-1s');
});
