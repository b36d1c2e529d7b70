import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { InvalidArgumentError, NotFoundError } from '@sluice/errors';
import { PROTO_DIR, LOADER_OPTIONS, jsonToStruct, structToJson, StructConversionError, type ProtoStruct } from '@sluice/proto';
import { unary } from '@sluice/server';
import { PUBLISHED_DECISION_KINDS, type PublishedDecision } from '@sluice/policies';
import { checkPolicyName } from './policy-name.js';
import { POLICY_SPEC_MAX_DEPTH } from '@sluice/policies';
import type { PolicyRegistry, PolicyView } from './policy-registry.js';
import type { PolicyStore } from './policy-store.js';
import type { DynamicConfigStore } from './dynamic-config-store.js';

export const POLICY_SERVICE_NAME = 'sluice.policies.v1.PolicyService';
export const POLICIES_PROTO_FILE = 'sluice/policies/v1/policies.proto';
/** How deep a policy spec may nest. */
/** How deep a policy spec may nest in a Struct: the one limit of the policy language. */
export const POLICY_STRUCT_MAX_DEPTH = POLICY_SPEC_MAX_DEPTH;
/** The largest policy accepted, in bytes of JSON. */
export const POLICY_BODY_LIMIT_BYTES = 1 << 20;
/** The kinds ListDecisions answers for: every published kind that takes decisions. */
export const DECISION_KINDS: readonly PublishedDecision['kind'][] = PUBLISHED_DECISION_KINDS;

let definition: grpc.ServiceDefinition | undefined;

/** The PolicyService definition, loaded once from the .proto beside @sluice/proto. */
export function policyServiceDefinition(): grpc.ServiceDefinition {
  if (definition === undefined) {
    const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(path.join(PROTO_DIR, POLICIES_PROTO_FILE), LOADER_OPTIONS));
    const ctor = (((pkg.sluice as grpc.GrpcObject).policies as grpc.GrpcObject).v1 as grpc.GrpcObject).PolicyService as grpc.ServiceClientConstructor;
    definition = ctor.service;
  }
  return definition;
}

/** A JSON value as a Struct field, errors as 400 naming `field`. */
export function toStruct(value: Readonly<Record<string, unknown>>, field: string): ProtoStruct {
  try {
    return jsonToStruct(value, POLICY_STRUCT_MAX_DEPTH);
  } catch (err) {
    if (err instanceof StructConversionError) throw new InvalidArgumentError(`${field}: ${err.message}`, field);
    throw err;
  }
}

function fromStruct(s: ProtoStruct | null | undefined, field: string): Record<string, unknown> | undefined {
  if (s === null || s === undefined) return undefined;
  try {
    return structToJson(s, POLICY_STRUCT_MAX_DEPTH);
  } catch (err) {
    if (err instanceof StructConversionError) throw new InvalidArgumentError(`${field}: ${err.message}`, field);
    throw err;
  }
}

/** A policy for the wire: spec and signals as Structs (a null signal is an invalid one). */
export function policyMessage(v: PolicyView): object {
  const spec = typeof v.spec === 'object' && v.spec !== null && !Array.isArray(v.spec) ? v.spec as Record<string, unknown> : {};
  return { ...v, spec: toStruct(spec, 'spec'), signals: toStruct(v.signals, 'signals') };
}

interface UpsertMessage { name: string; policy: ProtoStruct | null }
interface NameMessage { name: string }
interface DecisionsMessage { type: string }
interface VariableMessage { name: string; signal: string; value: number }
interface DynamicConfigMessage { name: string; dynamic_config: ProtoStruct | null }

/** Any name a policy may carry (API names are DNS-1123 labels, CR names may be qualified). */
function lookupName(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0 || name.length > 253 || name.includes('/')) {
    throw new InvalidArgumentError('name must be a policy name of 1 to 253 characters without "/"', 'name');
  }
  return name;
}

/** sluice.policies.v1.PolicyService over gRPC. */
export function policyServiceImpl(registry: PolicyRegistry, store: PolicyStore, dynamic: DynamicConfigStore): grpc.UntypedServiceImplementation {
  const specOf = (req: UpsertMessage): Record<string, unknown> => {
    const spec = fromStruct(req.policy, 'policy');
    if (spec === undefined) throw new InvalidArgumentError('policy is required: the policy spec, as a Policy resource\'s spec holds it', 'policy');
    return spec;
  };
  const found = (name: string): PolicyView => {
    const v = registry.view(name);
    if (v === undefined) throw new NotFoundError(`no policy named ${JSON.stringify(name)}`);
    return v;
  };
  return {
    UpsertPolicy: unary<UpsertMessage, object>(async (req) => {
      const name = checkPolicyName(req.name);
      return { policy: policyMessage(await store.upsert(name, specOf(req))) };
    }),
    PatchPolicy: unary<UpsertMessage, object>(async (req) => {
      const name = lookupName(req.name);
      return { policy: policyMessage(await store.patch(name, specOf(req))) };
    }),
    GetPolicy: unary<NameMessage, object>((req) => ({ policy: policyMessage(found(lookupName(req.name))) })),
    DeletePolicy: unary<NameMessage, object>(async (req) => {
      await store.remove(lookupName(req.name));
      return {};
    }),
    ListPolicies: unary<object, object>(() => ({ policies: registry.list().map(policyMessage) })),
    ListDecisions: unary<DecisionsMessage, object>((req) => {
      const kind = DECISION_KINDS.find((k) => k === req.type);
      if (kind === undefined) throw new InvalidArgumentError(`type must be one of ${DECISION_KINDS.join(', ')}, got ${JSON.stringify(String(req.type).slice(0, 64))}`, 'type');
      return { decisions: registry.decisions(kind).map((d) => ({ ...d, decision: toStruct(d.decision, 'decision') })) };
    }),
    SetVariable: unary<VariableMessage, object>((req) => {
      const name = lookupName(req.name);
      if (typeof req.signal !== 'string' || req.signal.length === 0) throw new InvalidArgumentError('signal is required', 'signal');
      found(name);
      registry.setVariable(name, req.signal, req.value);
      return { name, signal: req.signal, value: req.value };
    }),
    PostDynamicConfig: unary<DynamicConfigMessage, object>(async (req) => {
      const name = lookupName(req.name);
      const doc = fromStruct(req.dynamic_config, 'dynamic_config');
      if (doc === undefined) throw new InvalidArgumentError('dynamic_config is required: a JSON object of values by the keys the policy\'s components name', 'dynamic_config');
      const effective = await dynamic.set(name, doc);
      return { policy_name: name, dynamic_config: toStruct(effective, 'dynamic_config') };
    }),
    GetDynamicConfig: unary<NameMessage, object>((req) => {
      const name = lookupName(req.name);
      return { policy_name: name, dynamic_config: toStruct(dynamic.get(name), 'dynamic_config') };
    }),
    DeleteDynamicConfig: unary<NameMessage, object>(async (req) => {
      await dynamic.remove(lookupName(req.name));
      return {};
    }),
  };
}
