// deploy/istio: the EnvoyFilters for Istio users. No Kubernetes schema exists for EnvoyFilter, so
// the structure is checked field by field: Envoy's type URLs, ext_authz on inbound and outbound
// requests with a gRPC service pointing at the agent's Service in deploy/kubernetes, the control
// point metadata and context extension keys the agent reads, failure_mode_allow, and OpenTelemetry
// access logs whose attributes, once Envoy fills them in, the agent reads as a flow end.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { ENVOY_CONTROL_POINT_KEY, readEnvoyLog } from '@sluice/flowcontrol';
import { messageType } from '@sluice/proto';
import { ROOT } from './support/processes.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (o: unknown, ...path: (string | number)[]): unknown => path.reduce<unknown>((cur, k) => (isObj(cur) || Array.isArray(cur) ? (cur as Obj)[k] : undefined), o);
const docs = (file: string): Obj[] => parseAllDocuments(readFileSync(join(ROOT, file), 'utf8')).map((d) => {
  assert.equal(d.errors.length, 0, `${file}: ${d.errors.join('; ')}`);
  const o: unknown = d.toJS();
  assert.ok(isObj(o), `${file}: a document is an object`);
  return o;
});

const EXT_AUTHZ = 'type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthz';
const HCM = 'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager';
const OTEL_LOG = 'type.googleapis.com/envoy.extensions.access_loggers.open_telemetry.v3.OpenTelemetryAccessLogConfig';

/** host:port of the agent's Service in deploy/kubernetes. */
function agentTarget(): string {
  const svc = docs('deploy/kubernetes/20-sluice-agent.yaml').find((o) => o.kind === 'Service' && at(o, 'metadata', 'name') === 'sluice-agent');
  assert.ok(svc !== undefined, 'the sluice-agent Service');
  const port = (at(svc, 'spec', 'ports') as Obj[]).find((p) => p.name === 'server')?.port;
  return `sluice-agent.${String(at(svc, 'metadata', 'namespace'))}.svc.cluster.local:${String(port)}`;
}

function checkEnvoyFilterHead(o: Obj): Obj[] {
  assert.equal(o.apiVersion, 'networking.istio.io/v1alpha3');
  assert.equal(o.kind, 'EnvoyFilter');
  assert.equal(typeof at(o, 'metadata', 'name'), 'string');
  assert.equal(typeof at(o, 'metadata', 'namespace'), 'string');
  const patches = at(o, 'spec', 'configPatches');
  assert.ok(Array.isArray(patches) && patches.length > 0, 'configPatches');
  for (const p of patches as Obj[]) {
    assert.ok(['NETWORK_FILTER', 'HTTP_FILTER', 'VIRTUAL_HOST'].includes(String(p.applyTo)), `applyTo ${String(p.applyTo)}`);
    assert.ok(['SIDECAR_INBOUND', 'SIDECAR_OUTBOUND'].includes(String(at(p, 'match', 'context'))), 'match.context');
    assert.ok(['MERGE', 'INSERT_BEFORE'].includes(String(at(p, 'patch', 'operation'))), 'patch.operation');
  }
  return patches as Obj[];
}

/** A value as Envoy writes it for a command operator in the access log format. */
function envoyFills(format: string, decision: string): string {
  const known: Record<string, string> = {
    '%DYNAMIC_METADATA(envoy.filters.http.ext_authz:aperture.check_response)%': decision,
    '%DYNAMIC_METADATA(envoy.filters.http.ext_authz:ext_authz_duration)%': '3',
    '%RESPONSE_CODE%': '200', '%DURATION%': '40', '%REQUEST_DURATION%': '1', '%RESPONSE_DURATION%': '30', '%BYTES_RECEIVED%': '0', '%BYTES_SENT%': '12',
  };
  if (!format.includes('%')) return format;
  const v = known[format];
  assert.ok(v !== undefined, `a command operator the test knows: ${format}`);
  return v;
}

test('deploy/istio/envoy-filter.yaml: ext_authz and OpenTelemetry access logs, inbound and outbound, to the agent', () => {
  const all = docs('deploy/istio/envoy-filter.yaml');
  assert.equal(all.length, 1);
  const patches = checkEnvoyFilterHead(all[0]);
  const target = agentTarget();
  const authz = patches.filter((p) => p.applyTo === 'HTTP_FILTER');
  const logs = patches.filter((p) => p.applyTo === 'NETWORK_FILTER');
  assert.deepEqual(authz.map((p) => at(p, 'match', 'context')), ['SIDECAR_INBOUND', 'SIDECAR_OUTBOUND']);
  assert.deepEqual(logs.map((p) => at(p, 'match', 'context')), ['SIDECAR_INBOUND', 'SIDECAR_OUTBOUND']);

  const controlPoints: unknown[] = [];
  for (const p of authz) {
    assert.equal(at(p, 'match', 'listener', 'filterChain', 'filter', 'subFilter', 'name'), 'envoy.filters.http.router');
    assert.equal(at(p, 'patch', 'operation'), 'INSERT_BEFORE');
    assert.equal(at(p, 'patch', 'value', 'name'), 'envoy.filters.http.ext_authz');
    const tc = at(p, 'patch', 'value', 'typed_config') as Obj;
    assert.equal(tc['@type'], EXT_AUTHZ);
    assert.equal(tc.transport_api_version, 'V3');
    assert.equal(typeof tc.failure_mode_allow, 'boolean', 'failure_mode_allow is stated');
    assert.equal(at(tc, 'grpc_service', 'google_grpc', 'target_uri'), target);
    assert.match(String(at(tc, 'grpc_service', 'timeout')), /^\d+(\.\d+)?s$/);
    assert.equal(at(tc, 'with_request_body', 'pack_as_bytes'), false);
    const md = at(tc, 'grpc_service', 'initial_metadata') as Obj[];
    assert.equal(md.length, 1);
    assert.equal(md[0].key, ENVOY_CONTROL_POINT_KEY);
    controlPoints.push(md[0].value);
  }
  assert.deepEqual(controlPoints, ['ingress', 'egress']);

  const type = messageType('aperture.flowcontrol.check.v1.CheckResponse');
  const decision = Buffer.from(type.encode(type.fromObject({ control_point: 'ingress', flux_meter_infos: [{ flux_meter_name: 'm' }] })).finish()).toString('base64');
  for (const p of logs) {
    assert.equal(at(p, 'patch', 'operation'), 'MERGE');
    assert.equal(at(p, 'patch', 'value', 'typed_config', '@type'), HCM);
    const loggers = at(p, 'patch', 'value', 'typed_config', 'access_log') as Obj[];
    assert.equal(loggers.length, 1);
    assert.equal(loggers[0].name, 'envoy.access_loggers.open_telemetry');
    const tc = loggers[0].typed_config as Obj;
    assert.equal(tc['@type'], OTEL_LOG);
    assert.equal(at(tc, 'common_config', 'transport_api_version'), 'V3');
    assert.equal(at(tc, 'common_config', 'grpc_service', 'google_grpc', 'target_uri'), target);
    const values = at(tc, 'attributes', 'values') as { key: string; value: { string_value: string } }[];
    const attrs = new Map(values.map((v) => [v.key, envoyFills(v.value.string_value, decision)]));
    const r = readEnvoyLog(attrs);
    assert.equal(r.reading.kind, 'flow', 'the agent reads the record as a flow end');
    if (r.reading.kind === 'flow') {
      assert.equal(r.reading.flow.durationMs, 27, 'RESPONSE_DURATION less authz_duration');
      assert.deepEqual(r.reading.flow.fluxMeters, ['m']);
    }
    assert.equal(r.statusCode, 200);
  }
});

test('deploy/istio/envoy-filter-per-route.yaml: a control point per route through context_extensions', () => {
  const all = docs('deploy/istio/envoy-filter-per-route.yaml');
  assert.equal(all.length, 1);
  const [patch] = checkEnvoyFilterHead(all[0]);
  assert.equal(patch.applyTo, 'VIRTUAL_HOST');
  const perRoute = at(patch, 'patch', 'value', 'typed_per_filter_config', 'envoy.filters.http.ext_authz') as Obj;
  assert.equal(perRoute['@type'], 'type.googleapis.com/envoy.extensions.filters.http.ext_authz.v3.ExtAuthzPerRoute');
  const ext = at(perRoute, 'check_settings', 'context_extensions') as Obj;
  assert.deepEqual(Object.keys(ext), [ENVOY_CONTROL_POINT_KEY]);
  assert.equal(ext[ENVOY_CONTROL_POINT_KEY], 'checkout');
});
