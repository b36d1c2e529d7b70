// cert-manager's Issuer and Certificate (cert-manager.io/v1) have no schema in kubernetes-models:
// the fields the controller chart renders, and their types, as a JSON schema checked with ajv,
// unknown fields refused (as the API server's structural schema of cert-manager's CRDs would prune
// or, with strict field validation, refuse them). Not the whole CRD: a field the chart starts to
// render must be added here, which is the point.
import { Ajv } from 'ajv';
import type { Obj } from './chart-checks.js';

const name = { type: 'string', pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$', maxLength: 253 };
const metadata = {
  type: 'object', required: ['name'], additionalProperties: false,
  properties: { name, namespace: name, labels: { type: 'object', additionalProperties: { type: 'string' } }, annotations: { type: 'object', additionalProperties: { type: 'string' } } },
};
const issuerRef = { type: 'object', required: ['name'], additionalProperties: false, properties: { name, kind: { enum: ['Issuer', 'ClusterIssuer'] }, group: { type: 'string' } } };
const top = (kind: string, spec: object): object => ({
  type: 'object', required: ['apiVersion', 'kind', 'metadata', 'spec'], additionalProperties: false,
  properties: { apiVersion: { const: 'cert-manager.io/v1' }, kind: { const: kind }, metadata, spec },
});

const SCHEMAS: Record<string, object> = {
  Issuer: top('Issuer', {
    type: 'object', additionalProperties: false, minProperties: 1, maxProperties: 1,
    properties: { selfSigned: { type: 'object', additionalProperties: false }, ca: { type: 'object', required: ['secretName'], additionalProperties: false, properties: { secretName: name } } },
  }),
  Certificate: top('Certificate', {
    type: 'object', required: ['secretName', 'issuerRef'], additionalProperties: false,
    properties: {
      secretName: name, commonName: { type: 'string', maxLength: 64 }, isCA: { type: 'boolean' },
      duration: { type: 'string', pattern: '^([0-9]+(\\.[0-9]+)?(h|m|s))+$' },
      dnsNames: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
      usages: { type: 'array', items: { enum: ['server auth', 'client auth', 'digital signature', 'key encipherment', 'cert sign'] } },
      privateKey: { type: 'object', additionalProperties: false, properties: { algorithm: { enum: ['RSA', 'ECDSA', 'Ed25519'] }, size: { type: 'integer' } } },
      issuerRef,
    },
  }),
};

const ajv = new Ajv({ allErrors: true });
const validators = new Map(Object.entries(SCHEMAS).map(([kind, schema]) => [kind, ajv.compile(schema)]));

/** The problems of a cert-manager.io/v1 object; undefined when it is not one (another checker's). */
export function certManagerProblems(o: Obj): string[] | undefined {
  if (typeof o.apiVersion !== 'string' || !o.apiVersion.startsWith('cert-manager.io/')) return undefined;
  const validate = validators.get(String(o.kind));
  if (o.apiVersion !== 'cert-manager.io/v1' || !validate) return [`no schema for ${o.apiVersion}, Kind=${String(o.kind)}`];
  if (validate(o)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''}`);
}
