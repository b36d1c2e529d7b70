import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram } from './commands.js';
import { CliError, EXIT_USAGE } from './errors.js';

interface Ran { out: string; code: number; message: string }

async function run(...args: string[]): Promise<Ran> {
  let out = '';
  const program = buildProgram({ out: (s) => { out += s; }, err: () => undefined, env: {} });
  try {
    await program.parseAsync(['node', 'sluicectl', ...args]);
    return { out, code: 0, message: '' };
  } catch (e) {
    if (e instanceof CliError) return { out, code: e.exitCode, message: e.message };
    throw e;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'sluicectl-what-if-'));
const policy = join(dir, 'limit.yaml');
writeFileSync(policy, 'kind: Policy\nmetadata: { name: limit }\nspec: { circuit: { components: [] } }\n');
const two = join(dir, 'two.yaml');
writeFileSync(two, `${readFileSync(policy, 'utf8')}---\nkind: Policy\nmetadata: { name: other }\nspec: { circuit: { components: [] } }\n`);

test('what-if: bad --samples, --wait and a file of several policies are refused before anything is sent', async () => {
  for (const [args, want] of [
    [['--samples', '0'], /--samples "0"/], [['--samples', '1001'], /--samples "1001"/], [['--wait', 'soon'], /--wait "soon"/], [['--wait', '31s'], /--wait must be/],
  ] as const) {
    const r = await run('--controller', 'http://127.0.0.1:9', 'what-if', '-f', policy, '--control-point', 'ingress', ...args);
    assert.equal(r.code, EXIT_USAGE, args.join(' '));
    assert.match(r.message, want);
  }
  const r = await run('--controller', 'http://127.0.0.1:9', 'what-if', '-f', two, '--control-point', 'ingress');
  assert.match(r.message, /holds 2 policies; what-if tries one/);
});

test('what-if: the request it sends, the table per label value, the SVG', async (t) => {
  let got: Record<string, unknown> | undefined;
  const answer = {
    policy: 'limit', control_point: 'ingress', agent_group: 'default', label_key: 'user',
    samples: { requested: 50, collected: 40, complete: false },
    notes: ['collected 40 of 50 samples within 2000 ms: the report covers what was collected'],
    by_label: [{ value: 'bob', flows: 30, accepted: 20, rejected: 10, rejected_fraction: 1 / 3, rejected_by: { 'REJECT_REASON_RATE_LIMITED by rate_limiter root.0': 10 }, workloads: {} }],
    by_workload: [],
    timeline: { start_unix_ms: 0, bucket_ms: 100, series: [{ value: 'bob', flows: [10, 20], rejected: [0, 10] }] },
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      got = { method: req.method, url: req.url, body: JSON.parse(body) as unknown };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => { server.close(); });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const svg = join(dir, 'w.svg');
  const r = await run('--controller', base, 'what-if', '-f', policy, '--control-point', 'ingress', '--samples', '50', '--wait', '2s', '--agent-group', 'g', '--svg', svg);
  assert.equal(r.code, 0, r.message);
  assert.deepEqual(got, {
    method: 'POST', url: '/v1/whatif',
    body: { policy: { circuit: { components: [] } }, name: 'limit', control_point: 'ingress', samples: 50, wait_ms: 2000, agent_group: 'g' },
  });
  assert.match(r.out, /40 of 50 samples \(fewer than asked\)/);
  assert.match(r.out, /note: collected 40 of 50/);
  assert.match(r.out, /bob .*30 .*20 .*10 .*33\.3%.*RATE_LIMITED by rate_limiter root\.0 \(10\)/);
  assert.match(readFileSync(svg, 'utf8'), /data-value="bob"/);
  const json = await run('--controller', base, '-o', 'json', 'what-if', '-f', policy, '--control-point', 'ingress');
  assert.deepEqual(JSON.parse(json.out), answer);
});
