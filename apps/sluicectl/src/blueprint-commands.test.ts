import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildProgram } from './commands.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE } from './errors.js';

interface Ran { out: string; err: string; code: number; message: string }

async function run(...args: string[]): Promise<Ran> {
  let out = '';
  let err = '';
  const program = buildProgram({ out: (s) => { out += s; }, err: (s) => { err += s; }, env: {} });
  try {
    await program.parseAsync(['node', 'sluicectl', ...args]);
    return { out, err, code: 0, message: '' };
  } catch (e) {
    if (e instanceof CliError) return { out, err, code: e.exitCode, message: e.message };
    const code = (e as { exitCode?: number }).exitCode;
    if (typeof code === 'number') return { out, err, code: code === 0 ? 0 : EXIT_USAGE, message: String(e) };
    throw e;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'sluicectl-blueprints-'));

test('blueprints list names every blueprint, as a table or JSON', async () => {
  const table = await run('blueprints', 'list');
  assert.match(table.out, /NAME +│ DESCRIPTION[\s\S]*rate-limiting[\s\S]*workload-prioritization[\s\S]*load-based-auto-scaling/);
  const json = JSON.parse((await run('-o', 'json', 'blueprints', 'list')).out) as Array<{ name: string; description: string }>;
  assert.deepEqual(json.map((b) => b.name), ['rate-limiting', 'service-protection-average-latency', 'service-protection-promql', 'workload-prioritization', 'load-ramping', 'load-based-auto-scaling', 'quota-scheduling']);
  assert.ok(json.every((b) => b.description.length > 10));
});

test('blueprints describe prints the fields, or the JSON Schema; an unknown blueprint is a usage error', async () => {
  const text = await run('blueprints', 'describe', 'rate-limiting');
  assert.match(text.out, /\n {2}bucket_capacity \(number, required\): /);
  assert.match(text.out, /\n {2}interval \(string, default "1s"\): /);
  const schema = JSON.parse((await run('-o', 'json', 'blueprints', 'describe', 'rate-limiting')).out) as { required: string[] };
  assert.deepEqual(schema.required, ['policy_name', 'rate_limiter']);
  const unknown = await run('blueprints', 'generate', 'rate-limit', '--values-file', 'x', '--output-dir', dir);
  assert.equal(unknown.code, EXIT_USAGE);
  assert.match(unknown.message, /no blueprint "rate-limit"; there are rate-limiting, /);
});

test('blueprints generate writes the policy and its circuit, and replaces them only with --overwrite', async () => {
  const values = join(dir, 'values.yaml');
  assert.equal((await run('blueprints', 'values', 'service-protection-average-latency', '--output-file', values)).code, 0);
  const out = join(dir, 'new', 'policies');
  const first = await run('blueprints', 'generate', 'service-protection-average-latency', '--values-file', values, '--output-dir', out);
  assert.equal(first.code, 0, first.message);
  const policyFile = join(out, 'checkout-protection.yaml');
  assert.equal(first.out, `${policyFile}\n${join(out, 'checkout-protection.mmd')}\n`);
  const policy = parse(readFileSync(policyFile, 'utf8')) as { apiVersion: string; kind: string; metadata: { name: string }; spec: { circuit: { components: unknown[] } } };
  assert.equal(policy.apiVersion, 'fluxninja.com/v1alpha1');
  assert.equal(policy.kind, 'Policy');
  assert.equal(policy.metadata.name, 'checkout-protection');
  assert.equal(policy.spec.circuit.components.length, 4);
  assert.match(readFileSync(join(out, 'checkout-protection.mmd'), 'utf8'), /^flowchart LR\n[\s\S]*-->\|"LATENCY_SETPOINT"\|/);
  assert.equal((await run('compile', '-f', policyFile)).code, 0);

  writeFileSync(values, readFileSync(values, 'utf8').replace('latency_tolerance_multiplier: 1.25', 'latency_tolerance_multiplier: 1.5'));
  const again = await run('blueprints', 'generate', 'service-protection-average-latency', '--values-file', values, '--output-dir', out);
  assert.equal(again.code, EXIT_FAILURE);
  assert.match(again.message, /checkout-protection\.yaml and .*checkout-protection\.mmd already exist \(--overwrite replaces\)/);
  assert.doesNotMatch(readFileSync(policyFile, 'utf8'), /value: 1\.5/);
  const replaced = await run('blueprints', 'generate', 'service-protection-average-latency', '--values-file', values, '--output-dir', out, '--overwrite');
  assert.equal(replaced.code, 0, replaced.message);
  assert.match(readFileSync(policyFile, 'utf8'), /value: 1\.5/);
});

test('blueprints generate refuses a bad or missing values file (exit 1), writing nothing', async () => {
  const out = join(dir, 'never');
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'policy_name: p\nrate_limiter:\n  bucket_capacity: 10\n  fill_amount: lots\n');
  const refused = await run('blueprints', 'generate', 'rate-limiting', '--values-file', bad, '--output-dir', out);
  assert.equal(refused.code, EXIT_FAILURE);
  assert.equal(refused.message, `${bad}: bad values for blueprint rate-limiting: rate_limiter.fill_amount: must be number`);

  // Values the schema takes whose policy the compiler refuses: a label filter of an unknown form.
  writeFileSync(bad, 'policy_name: p\nrate_limiter:\n  bucket_capacity: 10\n  fill_amount: 1\n  selectors:\n    - control_point: ingress\n      label_matcher: {match_labls: {a: b}}\n');
  const uncompiled = await run('blueprints', 'generate', 'rate-limiting', '--values-file', bad, '--output-dir', out);
  assert.equal(uncompiled.code, EXIT_FAILURE);
  assert.match(uncompiled.message, /the policy generated does not compile: .*selectors\[0\]\.label_matcher/);

  writeFileSync(bad, 'policy_name: [unclosed\n');
  assert.match((await run('blueprints', 'generate', 'rate-limiting', '--values-file', bad, '--output-dir', out)).message, /not YAML or JSON/);
  const missing = await run('blueprints', 'generate', 'rate-limiting', '--values-file', join(dir, 'absent.yaml'), '--output-dir', out);
  assert.equal(missing.code, EXIT_FAILURE);
  assert.match(missing.message, /cannot read the values file .*absent\.yaml: ENOENT/);
  assert.equal(existsSync(out), false);
  const noDir = await run('blueprints', 'generate', 'rate-limiting', '--values-file', bad);
  assert.equal(noDir.code, EXIT_USAGE);
});
