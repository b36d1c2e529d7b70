import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPolicyFile } from './policy-file.js';

const dir = mkdtempSync(join(tmpdir(), 'sluicectl-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const SPEC = 'circuit:\n  components: []\n';

test('a Policy resource, several documents, a List, the API body and a bare spec are read with their names', () => {
  const multi = file('multi.yaml', `apiVersion: fluxninja.com/v1alpha1\nkind: Policy\nmetadata: {name: a}\nspec:\n  ${SPEC.replace('\n  ', '\n    ')}dynamicConfig: {x: 1}\n---\nkind: Policy\nmetadata: {name: b}\nspec: {resources: {}}\n`);
  const docs = readPolicyFile(multi);
  assert.deepEqual(docs.map((d) => [d.name, d.source]), [['a', `${multi} (document 1)`], ['b', `${multi} (document 2)`]]);
  assert.deepEqual(docs[0]?.dynamicConfig, { x: 1 });
  assert.deepEqual(readPolicyFile(file('list.json', JSON.stringify({ kind: 'List', items: [{ kind: 'Policy', metadata: { name: 'c' }, spec: { circuit: {} } }] }))).map((d) => d.name), ['c']);
  assert.deepEqual(readPolicyFile(file('body.json', JSON.stringify({ policy: { circuit: {} } }))).map((d) => [d.name, d.spec]), [['body', { circuit: {} }]]);
  assert.deepEqual(readPolicyFile(file('bare.yaml', SPEC), 'named').map((d) => d.name), ['named']);
});

test('bad files are refused with the file and what is wrong', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not-yaml.yaml', 'a: [1, 2\n', /not-yaml\.yaml: /],
    ['other-kind.yaml', 'kind: Deployment\nmetadata: {name: x}\n', /kind "Deployment" is not a Policy/],
    ['no-name.yaml', 'kind: Policy\nspec: {circuit: {}}\n', /needs metadata\.name/],
    ['no-spec.yaml', 'kind: Policy\nmetadata: {name: x}\n', /has no spec object/],
    ['nothing.yaml', 'foo: 1\n', /not a policy/],
    ['list.yaml', '- 1\n- 2\n', /got a list/],
    ['empty.yaml', '', /no policy in it/],
  ];
  for (const [name, text, message] of cases) assert.throws(() => readPolicyFile(file(name, text)), message, name);
  assert.throws(() => readPolicyFile(join(dir, 'missing.yaml')), /missing\.yaml: no such file/);
});
