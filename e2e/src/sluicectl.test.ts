// sluicectl against a real controller (and its etcd): apply, list, show, decisions and delete of
// policies through the API with a bearer token, offline compile of every example with a circuit
// graph, and the errors a person meets (usage 2, failures 1 with the controller's message, no stack).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { sluicectl, type SluicectlRun as Run } from './support/sluicectl.js';
import { ROOT, startController, tempDir } from './support/processes.js';

const EXAMPLES = join(ROOT, 'deploy', 'examples');

const noStack = (r: Run): void => assert.doesNotMatch(r.err, /\n\s+at /, `no stack trace: ${r.err}`);

test('sluicectl applies, lists, shows and deletes policies through a real controller, with its bearer token', { timeout: 300_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const dir = tempDir(t);
  const tokenFile = join(dir, 'tokens');
  writeFileSync(tokenFile, 'operator-token\n');
  const c = await startController(t, {
    ready: 'live',
    env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9', SLUICE_CONTROLLER_SERVER_AUTH_TOKEN_FILE: tokenFile },
  });
  const env = { SLUICE_CONTROLLER: c.base, SLUICE_TOKEN: 'operator-token' };
  const example = join(EXAMPLES, 'rate-limit.yaml');

  const unauthenticated = await sluicectl(['policies'], { SLUICE_CONTROLLER: c.base });
  assert.equal(unauthenticated.code, 1);
  assert.match(unauthenticated.err, /^sluicectl: a valid bearer token is required .*\(HTTP 401\)/);
  noStack(unauthenticated);

  const applied = await sluicectl(['apply', 'policy', '--file', example], env);
  assert.equal(applied.code, 0, applied.err);
  assert.match(applied.out, /^policy rate-limit-per-user applied/);

  const table = await sluicectl(['policies'], env);
  assert.equal(table.code, 0, table.err);
  assert.match(table.out, /NAME[\s\S]*rate-limit-per-user/);
  const json = await sluicectl(['-o', 'json', 'policies'], env);
  const listed = (JSON.parse(json.out) as { policies: Array<{ name: string }> }).policies.map((p) => p.name);
  assert.deepEqual(listed, ['rate-limit-per-user']);
  const one = await sluicectl(['policy', 'rate-limit-per-user'], env);
  assert.equal(one.code, 0, one.err);
  assert.match(one.out, /name: rate-limit-per-user/);
  assert.match(one.out, /rate_limiter:/);

  const decisions = await sluicectl(['decisions', 'rate_limiter'], env);
  assert.equal(decisions.code, 0, decisions.err);
  assert.match(decisions.out, /rate-limit-per-user/);
  const badType = await sluicectl(['decisions', 'no_such_type'], env);
  assert.equal(badType.code, 1);
  assert.match(badType.err, /type must be one of .*rate_limiter/);

  // A policy the controller refuses: its message, the field at fault, exit 1.
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'kind: Policy\nmetadata: {name: broken}\nspec:\n  circuit:\n    components:\n      - flow_control: {rate_limiter: {parameters: {interval: soon}}}\n');
  const refused = await sluicectl(['apply', 'policy', '-f', bad], env);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /interval/);
  noStack(refused);

  // A policy's dynamic configuration (a variable's config_key): from a file of its own, and from a resource's dynamicConfig.
  const keyed = (dynamicConfig: string): string => `kind: Policy\nmetadata: {name: keyed}\nspec:\n  circuit:\n    components:\n      - variable: {constant_output: {value: 5}, config_key: capacity, out_ports: {output: {signal_name: CAP}}}\n      - flow_control: {rate_limiter: {in_ports: {bucket_capacity: {signal_name: CAP}, fill_amount: {constant_signal: {value: 1}}}, parameters: {interval: 1s}, selectors: [{control_point: ingress}]}}\n${dynamicConfig}`;
  const keyedFile = join(dir, 'keyed.yaml');
  writeFileSync(keyedFile, keyed(''));
  assert.equal((await sluicectl(['apply', 'policy', '-f', keyedFile], env)).code, 0);
  const dyn = join(dir, 'dyn.yaml');
  writeFileSync(dyn, 'capacity: 30\n');
  const posted = await sluicectl(['apply', 'dynamic-config', '--policy', 'keyed', '--file', dyn], env);
  assert.equal(posted.code, 0, posted.err);
  assert.match(posted.out, /^dynamic configuration of policy keyed applied/);
  const dynamicOf = async (): Promise<unknown> => ((await (await fetch(`${c.base}/v1/dynamic-configs/keyed`, { headers: { authorization: 'Bearer operator-token' } })).json()) as { dynamic_config: unknown }).dynamic_config;
  assert.deepEqual(await dynamicOf(), { capacity: 30 });
  writeFileSync(keyedFile, keyed('dynamicConfig:\n  capacity: 40\n'));
  const appliedDyn = await sluicectl(['apply', 'policy', '-f', keyedFile], env);
  assert.equal(appliedDyn.code, 0, appliedDyn.err);
  assert.match(appliedDyn.out, /applied with its dynamicConfig/);
  assert.deepEqual(await dynamicOf(), { capacity: 40 });
  // A key no component reads: the controller's message, exit 1.
  writeFileSync(dyn, 'nobody_reads: 1\n');
  const unknownKey = await sluicectl(['apply', 'dynamic-config', '--policy', 'keyed', '--file', dyn], env);
  assert.equal(unknownKey.code, 1);
  assert.match(unknownKey.err, /nobody_reads: unknown key/);
  noStack(unknownKey);
  assert.equal((await sluicectl(['delete', 'policy', 'keyed'], env)).code, 0);
  const list = join(dir, 'list.yaml');
  writeFileSync(list, '- 1\n');
  const notObject = await sluicectl(['apply', 'dynamic-config', '--policy', 'rate-limit-per-user', '-f', list], env);
  assert.equal(notObject.code, 1);
  assert.match(notObject.err, /^sluicectl: .*list\.yaml: a dynamic configuration is an object/);
  const noPolicy = await sluicectl(['apply', 'dynamic-config', '-f', dyn], env);
  assert.equal(noPolicy.code, 2);
  assert.match(noPolicy.err, /required option '--policy <name>'/);

  const deleted = await sluicectl(['delete', 'policy', 'rate-limit-per-user'], env);
  assert.equal(deleted.code, 0, deleted.err);
  assert.deepEqual((JSON.parse((await sluicectl(['-o', 'json', 'policies'], env)).out) as { policies: unknown[] }).policies, []);
  const gone = await sluicectl(['policy', 'rate-limit-per-user'], env);
  assert.equal(gone.code, 1);
  assert.match(gone.err, /HTTP 404/);
});

test('sluicectl compile draws every example\'s circuit; usage errors exit 2, an unreachable controller 1', { timeout: 300_000 }, async (t) => {
  const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));
  const pictures = tempDir(t);
  assert.ok(examples.length >= 5);
  for (const f of examples) {
    const text = await sluicectl(['compile', '-f', join(EXAMPLES, f)]);
    assert.equal(text.code, 0, `${f}: ${text.err}`);
    assert.match(text.out, /component.*; it compiles/, f);
    const mermaid = await sluicectl(['compile', '-f', join(EXAMPLES, f), '--mermaid']);
    assert.match(mermaid.out, /^flowchart LR\n {2}c_root_0\[/, f);
    // An SVG picture of it: every component a box, every signal an arrow.
    const svgFile = join(pictures, `${f}.svg`);
    const svg = await sluicectl(['compile', '-f', join(EXAMPLES, f), '--svg', svgFile]);
    assert.equal(svg.code, 0, `${f}: ${svg.err}`);
    const picture = readFileSync(svgFile, 'utf8');
    assert.match(picture, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/, f);
    const [, components, signals] = /(\d+) components?, (\d+) signals?; it compiles/.exec(text.out) ?? [];
    assert.equal((picture.match(/<g class="component" /g) ?? []).length, Number(components), `${f}: a box per component`);
    assert.equal((picture.match(/<g class="signal[ "]/g) ?? []).length, Number(signals), `${f}: an arrow per signal`);
    assert.doesNotMatch(picture, /NaN|Infinity|undefined/, f);
    assert.match(picture, /<\/svg>\n$/, f);
  }
  const dot = join(tempDir(t), 'adaptive-load.dot');
  assert.equal((await sluicectl(['compile', '-f', join(EXAMPLES, 'adaptive-load.yaml'), '--dot', '--out', dot])).code, 0);
  assert.match(readFileSync(dot, 'utf8'), /^digraph circuit \{[\s\S]*-> "root\.3" \[label="LATENCY"\]/);
  const dangling = join(tempDir(t), 'dangling.yaml');
  writeFileSync(dangling, 'kind: Policy\nmetadata: {name: d}\nspec:\n  circuit:\n    components:\n      - decider: {operator: gt, in_ports: {lhs: {signal_name: X}, rhs: {constant_signal: {value: 1}}}, out_ports: {output: {signal_name: Y}}}\n');
  const d = await sluicectl(['compile', '-f', dangling, '--mermaid']);
  assert.equal(d.code, 1);
  assert.match(d.out, /X: no writer"\]\):::problem/);
  assert.match(d.err, /signal "X" is read but no component writes it/);
  const danglingSvg = join(tempDir(t), 'dangling.svg');
  const ds = await sluicectl(['compile', '-f', dangling, '--svg', danglingSvg]);
  assert.equal(ds.code, 1, 'it does not compile, and is drawn all the same');
  const dp = readFileSync(danglingSvg, 'utf8');
  assert.match(dp, /<g class="signal problem" data-signal="X">/);
  assert.match(dp, /<g class="loose no-writer">/);
  assert.match(dp, /<g class="signal unread" data-signal="Y">/);
  assert.match(dp, /⚠ [^<]*no component writes it/);
  const unwritable = await sluicectl(['compile', '-f', dangling, '--svg', join(danglingSvg, 'no', 'dir.svg')]);
  assert.equal(unwritable.code, 1);
  assert.match(unwritable.err, /^sluicectl: cannot write .*: ENOTDIR/m);
  noStack(unwritable);

  for (const args of [[], ['bogus'], ['policy'], ['-o', 'xml', 'policies'], ['--timeout', 'soon', 'policies'], ['compile'], ['completion', 'fish'], ['-n', 'x', 'policies'], ['policies', '-A']]) {
    const r = await sluicectl(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    noStack(r);
  }
  const help = await sluicectl(['apply', 'policy', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /Examples:/);
  const away = await sluicectl(['--controller', 'http://127.0.0.1:9', 'policies']);
  assert.equal(away.code, 1);
  assert.match(away.err, /^sluicectl: cannot reach the controller at http:\/\/127\.0\.0\.1:9: ECONNREFUSED/);
  const completion = await sluicectl(['completion', 'bash']);
  assert.match(completion.out, /complete -o default -F _sluicectl sluicectl/);
  assert.match(completion.out, /apply\) opts="policy/);
});
