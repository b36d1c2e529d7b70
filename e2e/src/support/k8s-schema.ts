// Checks a Kubernetes object against the published schemas of its kind, the way a real API server
// with strict field validation would: types, formats, enums and required fields by the JSON schema
// of the kind (kubernetes-models, generated from Kubernetes' OpenAPI and checked with ajv), and
// every field name by the same OpenAPI's models in @kubernetes/client-node (an unknown field is a
// problem, as `fieldValidation=Strict` refuses it). A kind with no schema is a problem too.
import { k8s } from '@sluice/kube';
import { certManagerProblems } from './cert-manager-schema.js';
import type { Obj } from './chart-checks.js';

interface Attribute { baseName: string; type: string }
type ModelClass = { getAttributeTypeMap(): Attribute[] };
type Validated = new (data: Obj) => { validate(): void };

const models = k8s as unknown as Record<string, ModelClass | undefined>;

/** kubernetes-models' module of a group-version: `v1` for the core group, else `<group>/<version>`. */
async function validatedClass(apiVersion: string, kind: string): Promise<Validated | undefined> {
  const mod = `kubernetes-models/${apiVersion}`;
  try {
    const m = (await import(mod)) as Record<string, Validated | undefined>;
    return m[kind];
  } catch {
    return undefined;
  }
}

/** client-node's model of a kind: V1Secret, V1Deployment, V1PodDisruptionBudget, ... */
function modelName(apiVersion: string, kind: string): string {
  const version = apiVersion.split('/').pop() ?? '';
  return `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
}

/** Field names not in the schema, as `path: unknown field "x"`; nested through lists and maps. */
function unknownFields(value: unknown, type: string, path: string, out: string[]): void {
  if (value === null || value === undefined) return;
  const list = /^Array<(.+)>$/.exec(type);
  if (list) {
    if (Array.isArray(value)) value.forEach((v, i) => unknownFields(v, list[1], `${path}[${i}]`, out));
    return;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (typeof value === 'object') for (const [k, v] of Object.entries(value)) unknownFields(v, map[1], `${path}.${k}`, out);
    return;
  }
  const model = models[type];
  if (!model || typeof model.getAttributeTypeMap !== 'function' || typeof value !== 'object' || Array.isArray(value)) return;
  const attrs = new Map(model.getAttributeTypeMap().map((a) => [a.baseName, a.type]));
  for (const [k, v] of Object.entries(value as Obj)) {
    const t = attrs.get(k);
    if (t === undefined) out.push(`${path === '' ? '' : `${path}.`}${k}: unknown field "${k}"`);
    else unknownFields(v, t, path === '' ? k : `${path}.${k}`, out);
  }
}

/** The problems of one object ([] when it is valid for its kind). */
export async function schemaProblems(o: Obj): Promise<string[]> {
  // cert-manager's kinds are not in kubernetes-models: their own schema (support/cert-manager-schema.ts).
  const certManager = certManagerProblems(o);
  if (certManager !== undefined) return certManager;
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const Cls = await validatedClass(apiVersion, kind);
  const model = modelName(apiVersion, kind);
  if (!Cls || !models[model]) return [`no schema for ${apiVersion}, Kind=${kind}`];
  const out: string[] = [];
  try {
    new Cls(structuredClone(o)).validate();
  } catch (err) {
    out.push(...String((err as Error).message).split('\n').filter((l) => l.trim() !== ''));
  }
  unknownFields(o, model, '', out);
  return out;
}
