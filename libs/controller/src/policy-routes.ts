import { InvalidArgumentError } from '@sluice/errors';
import { parseProto3Number } from '@sluice/policies';
import { structToJson, type ProtoStruct } from '@sluice/proto';
import type { GatewayInput, GatewayRoute } from '@sluice/server';
import { POLICY_BODY_LIMIT_BYTES, POLICY_SERVICE_NAME, POLICY_STRUCT_MAX_DEPTH, toStruct } from './policy-grpc.js';

export const POLICIES_PATH = '/v1/policies';
export const POLICY_PATH = '/v1/policies/:name';
export const DECISIONS_PATH = '/v1/decisions/:type';
export const VARIABLE_PATH = '/v1/policies/:name/variables/:signal';
export const DYNAMIC_CONFIG_PATH = '/v1/dynamic-configs/:name';

function objectBody(body: unknown, what: string): Record<string, unknown> {
  if (body === undefined) throw new InvalidArgumentError(`request body is required: ${what}`, 'body');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidArgumentError(`request body must be a JSON object (${what}), got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`, 'body');
  }
  return body as Record<string, unknown>;
}

/** `{"policy": <spec>}`, nothing else. */
function policyRequest({ params, body }: GatewayInput): object {
  const b = objectBody(body, '{"policy": <spec>}');
  const extra = Object.keys(b).filter((k) => k !== 'policy');
  if (extra.length > 0) throw new InvalidArgumentError(`unknown field ${JSON.stringify(extra[0])} in the request body; it holds only "policy"`, extra[0]);
  const policy = b.policy;
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) {
    throw new InvalidArgumentError('policy must be a JSON object: the policy spec, as a Policy resource\'s spec holds it', 'policy');
  }
  return { name: params.name, policy: toStruct(policy as Record<string, unknown>, 'policy') };
}

function variableRequest({ params, body }: GatewayInput): object {
  const b = objectBody(body, '{"value": <number>}');
  const extra = Object.keys(b).filter((k) => k !== 'value');
  if (extra.length > 0) throw new InvalidArgumentError(`unknown field ${JSON.stringify(extra[0])} in the request body; it holds only "value"`, extra[0]);
  // As proto3 JSON takes a double: a number, or a string holding one ("250").
  const value = parseProto3Number(b.value, 'double', false);
  if ('error' in value) throw new InvalidArgumentError(`value: ${value.error}`, 'value');
  return { name: params.name, signal: params.signal, value: value.value };
}

/** `{"dynamic_config": <object>}`, nothing else. */
function dynamicConfigRequest({ params, body }: GatewayInput): object {
  const b = objectBody(body, '{"dynamic_config": <object>}');
  const extra = Object.keys(b).filter((k) => k !== 'dynamic_config');
  if (extra.length > 0) throw new InvalidArgumentError(`unknown field ${JSON.stringify(extra[0])} in the request body; it holds only "dynamic_config"`, extra[0]);
  const doc = b.dynamic_config;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new InvalidArgumentError('dynamic_config must be a JSON object: values by the keys the policy\'s components name', 'dynamic_config');
  }
  return { name: params.name, dynamic_config: toStruct(doc as Record<string, unknown>, 'dynamic_config') };
}

const json = (s: ProtoStruct | null | undefined): Record<string, unknown> => structToJson(s, POLICY_STRUCT_MAX_DEPTH);

/** A policy message as plain JSON (spec and signals out of their Structs). */
function policyJson(p: unknown): object {
  const m = p as { spec?: ProtoStruct; signals?: ProtoStruct } & Record<string, unknown>;
  return { ...m, spec: json(m.spec), signals: json(m.signals) };
}

function dynamicConfigJson(r: unknown): object {
  const m = r as { policy_name: string; dynamic_config?: ProtoStruct };
  return { policy_name: m.policy_name, dynamic_config: json(m.dynamic_config) };
}

/**
 * The policy API's HTTP routes, each through the gateway to PolicyService: create or
 * replace (POST), merge patch (PATCH), get, delete, list, published decisions, and the
 * value of a variable.
 */
export function policyGatewayRoutes(): GatewayRoute[] {
  const service = POLICY_SERVICE_NAME;
  // The gateway's method union names no PATCH yet; express mounts it all the same.
  return [
    { method: 'post', path: POLICY_PATH, service, rpc: 'UpsertPolicy', bodyLimitBytes: POLICY_BODY_LIMIT_BYTES, toRequest: policyRequest, fromResponse: (r) => policyJson((r as { policy: unknown }).policy) },
    { method: 'patch', path: POLICY_PATH, service, rpc: 'PatchPolicy', bodyLimitBytes: POLICY_BODY_LIMIT_BYTES, toRequest: policyRequest, fromResponse: (r) => policyJson((r as { policy: unknown }).policy) },
    { method: 'get', path: POLICY_PATH, service, rpc: 'GetPolicy', toRequest: ({ params }) => ({ name: params.name }), fromResponse: (r) => policyJson((r as { policy: unknown }).policy) },
    { method: 'delete', path: POLICY_PATH, service, rpc: 'DeletePolicy', toRequest: ({ params }) => ({ name: params.name }) },
    { method: 'get', path: POLICIES_PATH, service, rpc: 'ListPolicies', toRequest: () => ({}), fromResponse: (r) => ({ policies: ((r as { policies: unknown[] }).policies).map(policyJson) }) },
    {
      method: 'get', path: DECISIONS_PATH, service, rpc: 'ListDecisions', toRequest: ({ params }) => ({ type: params.type }),
      fromResponse: (r) => ({ decisions: (r as { decisions: { decision: ProtoStruct }[] }).decisions.map((d) => ({ ...d, decision: json(d.decision) })) }),
    },
    { method: 'post', path: VARIABLE_PATH, service, rpc: 'SetVariable', toRequest: variableRequest },
    { method: 'post', path: DYNAMIC_CONFIG_PATH, service, rpc: 'PostDynamicConfig', bodyLimitBytes: POLICY_BODY_LIMIT_BYTES, toRequest: dynamicConfigRequest, fromResponse: dynamicConfigJson },
    { method: 'get', path: DYNAMIC_CONFIG_PATH, service, rpc: 'GetDynamicConfig', toRequest: ({ params }) => ({ name: params.name }), fromResponse: dynamicConfigJson },
    { method: 'delete', path: DYNAMIC_CONFIG_PATH, service, rpc: 'DeleteDynamicConfig', toRequest: ({ params }) => ({ name: params.name }) },
  ];
}
