import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { policyCrdYaml } from './crd.js';
import { renderPolicyDocs } from './docs.js';
import { POLICY_CRD_COPIES, POLICY_CRD_PATH, POLICY_DOCS_PATH } from './paths.js';

for (const [path, text] of [
  [POLICY_CRD_PATH, policyCrdYaml()],
  ...POLICY_CRD_COPIES.map((copy) => [copy, policyCrdYaml()] as const),
  [POLICY_DOCS_PATH, renderPolicyDocs()],
] as const) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  process.stdout.write(`wrote ${path}\n`);
}
