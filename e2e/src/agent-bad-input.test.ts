// Malformed input against a real sluice-agent process while good traffic and
// good previews keep being served; afterwards the process is healthy and its
// memory did not run away.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHttpRequest, get, grpcClient, post, rawExchange, unaryCall, type GatewayError } from './support/clients.js';
import { rssBytes, startAgent } from './support/processes.js';

const P = '/v1/flowcontrol/preview/http_requests/ingress';
const L = '/v1/flowcontrol/preview/labels/ingress';
const j = (v: unknown) => JSON.stringify(v);
function nested(levels: number): unknown {
  let e: unknown = { label_exists: 'a' };
  for (let i = 0; i < levels; i++) e = { not: e };
  return e;
}
const req = (r: object) => ({ match_expressions: [r] });

/** name, path, body (undefined: none), status, message (naming the field), headers */
type Case = [string, string, string | undefined, number, RegExp, Record<string, string>?];
const CASES: Case[] = [
  ['no body', P, undefined, 400, /^request body is required/],
  ['empty body', P, '', 400, /body is required/],
  ['invalid JSON', P, '{"match_labels":', 400, /not valid JSON/],
  ['trailing garbage', P, '{} x', 400, /not valid JSON/],
  ['text/plain', P, '{}', 415, /application\/json/, { 'content-type': 'text/plain' }],
  ['form content type', P, 'a=b', 415, /application\/json/, { 'content-type': 'application/x-www-form-urlencoded' }],
  ['no content type', P, '{}', 415, /application\/json/, {}],
  ['latin1 charset', P, '{}', 415, /charset|encoding/, { 'content-type': 'application/json; charset=latin1' }],
  ['array body', P, '[]', 400, /^request body must be a JSON object/],
  ['null body', P, 'null', 400, /^request body must be a JSON object/],
  ['number body', P, '42', 400, /^request body must be a JSON object/],
  ['unknown top-level member', P, j({ match_label: {} }), 400, /match_label\b/],
  ['match_labels an array', P, j({ match_labels: [] }), 400, /^match_labels/],
  ['match_labels value a number', P, j({ match_labels: { a: 1 } }), 400, /^match_labels\.a/],
  ['match_expressions an object', P, j({ match_expressions: {} }), 400, /^match_expressions/],
  ['requirement not an object', P, j({ match_expressions: ['a'] }), 400, /^match_expressions\[0\]/],
  ['unknown operator', P, j(req({ key: 'a', operator: 'Near', values: ['x'] })), 400, /^match_expressions\[0\]\.operator/],
  ['operator a number', P, j(req({ key: 'a', operator: 1 })), 400, /^match_expressions\[0\]\.operator/],
  ['missing key', P, j(req({ operator: 'In', values: ['x'] })), 400, /^match_expressions\[0\]\.key/],
  ['key a number', P, j(req({ key: 7, operator: 'Exists' })), 400, /^match_expressions\[0\]\.key/],
  ['unknown member of a requirement', P, j(req({ key: 'a', operator: 'Exists', vals: [] })), 400, /match_expressions\[0\]\.vals/],
  ['empty values on In', P, j(req({ key: 'a', operator: 'In', values: [] })), 400, /^match_expressions\[0\]\.values/],
  ['no values on NotIn', P, j(req({ key: 'a', operator: 'NotIn' })), 400, /^match_expressions\[0\]\.values/],
  ['values on Exists', P, j(req({ key: 'a', operator: 'Exists', values: ['x'] })), 400, /^match_expressions\[0\]\.values/],
  ['values on DoesNotExist', P, j(req({ key: 'a', operator: 'DoesNotExist', values: ['x'] })), 400, /^match_expressions\[0\]\.values/],
  ['values a string', P, j(req({ key: 'a', operator: 'In', values: 'x' })), 400, /^match_expressions\[0\]\.values/],
  ['value a number', P, j(req({ key: 'a', operator: 'In', values: ['x', 1] })), 400, /^match_expressions\[0\]\.values\[1\]/],
  ['bad regex', P, j({ expression: { label_matches: { label: 'a', regex: '(' } } }), 400, /^expression\.label_matches\.regex/],
  ['look-ahead', P, j({ expression: { label_matches: { label: 'a', regex: 'x(?=y)' } } }), 400, /^expression\.label_matches\.regex/],
  ['look-behind', P, j({ expression: { label_matches: { label: 'a', regex: '(?<=x)y' } } }), 400, /^expression\.label_matches\.regex/],
  ['back-reference', P, j({ expression: { label_matches: { label: 'a', regex: '(a)\\1' } } }), 400, /^expression\.label_matches\.regex/],
  ['regex a number', P, j({ expression: { label_matches: { label: 'a', regex: 5 } } }), 400, /^expression\.label_matches\.regex/],
  ['label_matches without regex', P, j({ expression: { label_matches: { label: 'a' } } }), 400, /^expression\.label_matches\.regex/],
  ['label_equals without label', P, j({ expression: { label_equals: { value: 'x' } } }), 400, /^expression\.label_equals\.label/],
  ['label_exists a number', P, j({ expression: { label_exists: 5 } }), 400, /^expression\.label_exists/],
  ['empty expression', P, j({ expression: {} }), 400, /^expression/],
  ['expression with two members', P, j({ expression: { label_exists: 'a', not: { label_exists: 'b' } } }), 400, /^expression/],
  ['unknown expression member', P, j({ expression: { label_like: 'a' } }), 400, /label_like/],
  ['empty expression deep inside', P, j({ expression: { all: { of: [{ label_exists: 'a' }, { any: { of: [{}] } }] } } }), 400, /^expression\.all\.of\[1\]\.any\.of\[0\]/],
  ['of not an array', P, j({ expression: { any: { of: 'x' } } }), 400, /^expression\.any\.of/],
  ['depth 33', P, j({ expression: nested(33) }), 400, /expression.*(deep|levels)/],
  ['depth 1000', P, j({ expression: nested(1000) }), 400, /deep|levels/],
  ['10 MB body', P, j({ match_labels: { a: 'x'.repeat(10 * 1024 * 1024) } }), 413, /exceeds/],
  ['samples=0', `${P}?samples=0`, '{}', 400, /^samples must be an integer from 1 to 1000/],
  ['samples=-1', `${P}?samples=-1`, '{}', 400, /^samples must be /],
  ['samples=abc', `${P}?samples=abc`, '{}', 400, /^samples must be .*"abc"/],
  ['samples=1.5', `${P}?samples=1.5`, '{}', 400, /^samples must be /],
  ['samples=100000', `${P}?samples=100000`, '{}', 400, /^samples must be /],
  ['samples twice', `${P}?samples=1&samples=2`, '{}', 400, /^samples must be /],
  ['service twice', `${P}?service=a&service=b`, '{}', 400, /^service must be given at most once/],
  ['service of 600 characters', `${P}?service=${'s'.repeat(600)}`, '{}', 400, /^service must be at most 512/],
  ['10 KB control point', `/v1/flowcontrol/preview/http_requests/${'c'.repeat(10 * 1024)}`, '{}', 400, /control_point/],
  ['raw slashes in the control point', '/v1/flowcontrol/preview/http_requests/svc/ingress', '{}', 404, /./],
  ['no control point', '/v1/flowcontrol/preview/http_requests/', '{}', 404, /./],
  ['%2F-encoded control point, bad filter', '/v1/flowcontrol/preview/http_requests/svc%2Fingress', j(req({ key: 'a', operator: 'Within' })), 400, /^match_expressions\[0\]\.operator/],
  ['labels: unknown operator', L, j(req({ key: 'a', operator: 'Near' })), 400, /^match_expressions\[0\]\.operator/],
  ['labels: samples=abc', `${L}?samples=abc`, '{}', 400, /^samples must be /],
  ['labels: invalid JSON', L, '{', 400, /not valid JSON/],
];

test('malformed preview requests against the agent process, beside good traffic and good previews', { timeout: 60_000 }, async (t) => {
  const agent = await startAgent(t, { env: { SLUICE_AGENT_SERVER_HTTP_WRITE_TIMEOUT: '20s', SLUICE_AGENT_SERVER_HTTP_MAX_HEADER_BYTES: '16384' } });
  const checkHttp = grpcClient(t, 'flowControlHttp', agent.address);
  const rssBefore = rssBytes(agent.pid);

  // The long good preview: waits for 5 requests at control point "good", fed at the end.
  const long = post(`${agent.base}/v1/flowcontrol/preview/labels/good?samples=5`, j({ match_labels: { 'http.request.header.x_user': 'keeper' } }));
  let longSettled = false;
  void long.finally(() => { longSettled = true; }).catch(() => undefined);

  // Background: good CheckHTTP calls, and a chain of short good previews they feed.
  let stop = false;
  let stopPreviews = false;
  const failures: string[] = [];
  let checks = 0;
  let previews = 0;
  const checker = (async () => {
    while (!stop) {
      try {
        const r = await unaryCall<{ ok_response: object | null }>(checkHttp, 'CheckHTTP', checkHttpRequest('ingress', `/ok-${checks}`, { 'x-user': 'u' }));
        if (r.ok_response === null) failures.push('CheckHTTP denied');
        checks++;
      } catch (err) {
        failures.push(`CheckHTTP: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const previewer = (async () => {
    while (!stopPreviews) {
      try {
        const r = await post(`${agent.base}${P}?samples=3`, j({ match_labels: { 'http.method': 'GET' } }));
        const n = r.status === 200 ? (JSON.parse(r.text) as { samples: unknown[] }).samples.length : -1;
        if (n !== 3) failures.push(`good preview: ${r.status} ${r.text.slice(0, 200)}`);
        previews++;
      } catch (err) {
        failures.push(`good preview: ${(err as Error).message}`);
      }
    }
  })();
  t.after(() => { stop = true; stopPreviews = true; });

  assert.ok(CASES.length >= 55, `${CASES.length} cases`);
  const wrong: string[] = [];
  const [checksBefore, previewsBefore] = [checks, previews];
  for (const [name, path, body, status, message, headers] of CASES) {
    const r = await post(`${agent.base}${path}`, body, headers);
    let e: GatewayError | undefined;
    try { e = JSON.parse(r.text) as GatewayError; } catch { /* reported below */ }
    if (r.status !== status || e === undefined || typeof e.code !== 'number' || !Array.isArray(e.details) || !message.test(e.message)) {
      wrong.push(`${name}: ${r.status} ${r.text.slice(0, 300)}`);
      continue;
    }
    // A google.rpc.BadRequest detail names the same field as the message.
    const violations = (e.details as { field_violations?: { field: string }[] }[]).flatMap((d) => d.field_violations ?? []);
    for (const v of violations) if (!e.message.includes(v.field.split('.')[0] ?? '')) wrong.push(`${name}: detail field ${v.field} not in "${e.message}"`);
    // A message that starts with a field path carries that field as a violation too, however the error travelled.
    const leading = /^([a-z_][\w.[\]"]*): /.exec(e.message)?.[1];
    if (r.status === 400 && leading !== undefined && !violations.some((v) => v.field === leading)) wrong.push(`${name}: no field violation for ${leading}`);
  }
  assert.deepEqual(wrong, [], 'each case: status, gateway error shape, message naming the field');
  assert.ok(checks > checksBefore && previews > previewsBefore, `good calls were served during the bad ones: ${checks - checksBefore} checks, ${previews - previewsBefore} previews`);

  // Process-level: a malformed HTTP/2 preface is dropped; an oversized header is 431.
  const preface = await rawExchange(agent.port, 'PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n');
  assert.deepEqual(preface, { text: '', closed: true });
  const big = await rawExchange(agent.port, `GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(32 * 1024)}\r\n\r\n`);
  assert.match(big.text, /^HTTP\/1\.1 431 /);
  assert.equal((JSON.parse(big.text.slice(big.text.indexOf('\r\n\r\n') + 4)) as GatewayError).code, 3);
  const garbage = await rawExchange(agent.port, 'NOT HTTP AT ALL\r\n\r\n');
  assert.match(garbage.text, /^HTTP\/1\.1 400 /);

  // A %2F-encoded control point is one name with a slash in it.
  const slashed = post(`${agent.base}/v1/flowcontrol/preview/http_requests/svc%2Fingress?samples=1`, '{}');
  let slashedDone = false;
  void slashed.finally(() => { slashedDone = true; }).catch(() => undefined);
  for (let i = 0; !slashedDone && i < 200; i++) {
    await unaryCall(checkHttp, 'CheckHTTP', checkHttpRequest('svc/ingress', '/slashed'));
    await new Promise((r) => setTimeout(r, 10));
  }
  const sr = await slashed;
  assert.equal(sr.status, 200);
  assert.equal((JSON.parse(sr.text) as { samples: { attributes: { request: { http: { path: string } } } }[] }).samples[0]?.attributes.request.http.path, '/slashed');

  assert.equal(longSettled, false, 'the long preview is still waiting');
  for (let i = 0; !longSettled && i < 200; i++) {
    await unaryCall(checkHttp, 'CheckHTTP', checkHttpRequest('good', `/keep-${i}`, { 'x-user': 'keeper' }));
    await new Promise((r) => setTimeout(r, 5));
  }
  const lr = await long;
  assert.equal(lr.status, 200);
  const kept = (JSON.parse(lr.text) as { samples: { labels: Record<string, string> }[] }).samples;
  assert.deepEqual(kept.map((s) => s.labels['http.target']), ['/keep-0', '/keep-1', '/keep-2', '/keep-3', '/keep-4']);

  // The previews stop first: the one in flight still gets its samples from the checks.
  stopPreviews = true;
  await previewer;
  stop = true;
  await checker;
  assert.deepEqual(failures, []);
  assert.ok(previews >= 3, `good previews: ${previews}`);

  const live = await get(`${agent.base}/v1/status/system/liveness`);
  assert.equal(live.status, 200, live.text);
  assert.equal((await get(`${agent.base}/healthz`)).text, 'ok');
  const rssAfter = rssBytes(agent.pid);
  t.diagnostic(`agent RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, ${(rssAfter / 2 ** 20).toFixed(0)} MiB after`);
  assert.ok(rssAfter < rssBefore + 100 * 1024 * 1024, `RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB → ${(rssAfter / 2 ** 20).toFixed(0)} MiB`);
  assert.equal(agent.child.exitCode, null, 'still running');
  assert.doesNotMatch(agent.output(), /"level":"error"/);
});
