import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { compilePolicy } from '../compile.js';
import { policyCrd, policyCrdYaml } from './crd.js';
import { renderPolicyDocs } from './docs.js';
import { EXAMPLES_DIR, POLICY_CRD_PATH, POLICY_DOCS_PATH } from './paths.js';

const REGENERATE = 'run: node libs/policies/dist/generate/write-generated.js';

test('crds/policies.sluice.dev.yaml is not stale', () => {
  assert.equal(readFileSync(POLICY_CRD_PATH, 'utf8'), policyCrdYaml(), `the CRD is stale; ${REGENERATE}`);
});

test('docs/policies.md is not stale', () => {
  assert.equal(readFileSync(POLICY_DOCS_PATH, 'utf8'), renderPolicyDocs(), `docs/policies.md is stale; ${REGENERATE}`);
});

type Schema = Record<string, unknown>;

/** Paths of schema nodes that break Kubernetes' structural-schema rules. */
function structuralViolations(node: Schema, path: string, out: string[]): string[] {
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  if (typeof node.type !== 'string' && !preserve && !intOrString) out.push(`${path}: no type`);
  if (intOrString && node.type !== undefined) out.push(`${path}: int-or-string with a type`);
  for (const forbidden of ['anyOf', 'oneOf', 'allOf', 'not', '$ref', 'patternProperties', 'propertyNames', 'definitions', 'format_unknown']) {
    if (node[forbidden] !== undefined) out.push(`${path}: ${forbidden}`);
  }
  if (node.additionalProperties === false) out.push(`${path}: additionalProperties false`);
  if (node.additionalProperties !== undefined && node.properties !== undefined) out.push(`${path}: properties and additionalProperties`);
  if (node.exclusiveMinimum !== undefined && typeof node.exclusiveMinimum !== 'boolean') out.push(`${path}: numeric exclusiveMinimum`);
  if (node.format !== undefined && !['int64', 'date-time'].includes(String(node.format))) out.push(`${path}: format ${String(node.format)}`);
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) structuralViolations(child, `${path}.${name}`, out);
  if (node.items !== undefined) structuralViolations(node.items as Schema, `${path}[]`, out);
  if (typeof node.additionalProperties === 'object') structuralViolations(node.additionalProperties as Schema, `${path}.*`, out);
  return out;
}

test('the CRD is a namespaced sluice.dev/v1alpha1 Policy with a status subresource and a structural schema', () => {
  const crd = parse(readFileSync(POLICY_CRD_PATH, 'utf8')) as {
    metadata: { name: string };
    spec: { group: string; scope: string; names: { kind: string; plural: string }; versions: { name: string; subresources: unknown; additionalPrinterColumns: { jsonPath: string }[]; schema: { openAPIV3Schema: Schema } }[] };
  };
  assert.equal(crd.metadata.name, 'policies.sluice.dev');
  assert.equal(crd.spec.group, 'sluice.dev');
  assert.equal(crd.spec.scope, 'Namespaced');
  assert.equal(crd.spec.names.kind, 'Policy');
  assert.equal(crd.spec.names.plural, 'policies');
  const [v] = crd.spec.versions;
  assert.equal(v.name, 'v1alpha1');
  assert.deepEqual(v.subresources, { status: {} });
  assert.ok(v.additionalPrinterColumns.some((c) => c.jsonPath === '.status.status'));
  const root = v.schema.openAPIV3Schema;
  assert.deepEqual(structuralViolations(root, 'openAPIV3Schema', []), []);
  // The checker itself catches what it looks for.
  assert.deepEqual(structuralViolations({ type: 'object', properties: { a: { anyOf: [] }, b: { type: 'object', additionalProperties: false }, c: { type: 'integer', 'x-kubernetes-int-or-string': true } } }, 'x', []), [
    'x.a: no type',
    'x.a: anyOf',
    'x.b: additionalProperties false',
    'x.c: int-or-string with a type',
  ]);
  // Numeric fields take proto3 JSON strings: integers as int-or-string, doubles as any value.
  const spec = root.properties as Record<string, Schema>;
  const path = (node: Schema, ...names: string[]): Schema => names.reduce<Schema>((n, name) => {
    if (name === '[]') return n.items as Schema;
    if (name === '*') return n.additionalProperties as Schema;
    return (n.properties as Record<string, Schema>)[name];
  }, node);
  const meter = path(spec.spec, 'resources', 'flow_control', 'flux_meters', '*');
  assert.equal(path(meter, 'linear_buckets', 'count')['x-kubernetes-int-or-string'], true);
  assert.equal(path(meter, 'linear_buckets', 'count').type, undefined);
  assert.equal(path(meter, 'linear_buckets', 'width')['x-kubernetes-preserve-unknown-fields'], true);
  assert.equal(path(meter, 'linear_buckets', 'width').type, undefined);
  assert.equal(path(meter, 'static_buckets', 'buckets', '[]')['x-kubernetes-preserve-unknown-fields'], true);
  // The status is the controller's own: its integers stay integers.
  assert.equal(path(spec.status, 'observedGeneration').type, 'integer');
  // The Policy's dynamic configuration sits beside its spec.
  assert.deepEqual(spec.dynamicConfig, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description: spec.dynamicConfig.description });
  // Rules only the compiler keeps are not in the CRD, and the rate limiter's interval bound is explained.
  const text = JSON.stringify(policyCrd());
  assert.ok(!text.includes('x-sluice'));
  assert.ok(!text.includes('"default"'));
});

test('every deploy/examples policy is a Policy resource that validates and compiles', () => {
  const files = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.yaml'));
  for (const wanted of ['rate-limit.yaml', 'promql-rate-limit.yaml', 'sampler.yaml', 'classifier.yaml']) assert.ok(files.includes(wanted), wanted);
  for (const file of files) {
    for (const doc of parseAllDocuments(readFileSync(join(EXAMPLES_DIR, file), 'utf8'))) {
      const resource = doc.toJS() as { apiVersion: string; kind: string; metadata: { name: string }; spec: unknown };
      assert.equal(resource.apiVersion, 'sluice.dev/v1alpha1', file);
      assert.equal(resource.kind, 'Policy', file);
      const compiled = compilePolicy(resource.metadata.name, resource.spec);
      assert.ok(compiled.components.length > 0, file);
      assert.deepEqual(compiled.ignored, [], file);
    }
  }
  const promql = compilePolicy('p', (parse(readFileSync(join(EXAMPLES_DIR, 'promql-rate-limit.yaml'), 'utf8')) as { spec: unknown }).spec);
  const circuit = promql.createCircuit();
  const capacity = (v: number | undefined) => {
    const d = circuit.tick(0, { promql: new Map([[promql.promql[0].id, v]]), variables: new Map() }).decisions.get('root.3');
    assert.ok(d?.kind === 'rate_limiter');
    return d.bucket_capacity;
  };
  assert.equal(capacity(undefined), 10);
  assert.equal(capacity(21), 42);
});
