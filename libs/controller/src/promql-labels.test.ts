import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import { checkQueryLabels, injectQueryLabels, parsePromql, selectorMatchers, vectorSelectors } from './promql-labels.js';

const L = [{ name: 'cluster', value: 'east' }];
const M = 'cluster="east"';

test('every selector gets the labels: bare names, braces, name-less braces', () => {
  assert.equal(injectQueryLabels('up', L), `up{${M}}`);
  assert.equal(injectQueryLabels('up{job="a"}', L), `up{${M},job="a"}`);
  assert.equal(injectQueryLabels('up {}', L), `up {${M}}`);
  assert.equal(injectQueryLabels('{__name__=~"up|down"}', L), `{${M},__name__=~"up|down"}`);
  assert.equal(injectQueryLabels('a:rate5m + b_total', L), `a:rate5m{${M}} + b_total{${M}}`);
});

test('functions, aggregations, grouping label lists, durations, numbers and keywords are left alone', () => {
  assert.equal(
    injectQueryLabels('sum by (job, instance) (rate(http_requests_total{code=~"5.."}[5m] offset 1m)) / 2e3', L),
    `sum by (job, instance) (rate(http_requests_total{${M},code=~"5.."}[5m] offset 1m)) / 2e3`,
  );
  assert.equal(injectQueryLabels('sum(x) without (pod)', L), `sum(x{${M}}) without (pod)`);
  assert.equal(injectQueryLabels('a / on(job) group_left(team) b', L), `a{${M}} / on(job) group_left(team) b{${M}}`);
  assert.equal(injectQueryLabels('a > bool 3 and b or c unless d', L), `a{${M}} > bool 3 and b{${M}} or c{${M}} unless d{${M}}`);
  assert.equal(injectQueryLabels('max_over_time(x[10m:1m]) + Inf - NaN', L), `max_over_time(x{${M}}[10m:1m]) + Inf - NaN`);
  assert.equal(injectQueryLabels('vector(1) + scalar(y) + time()', L), `vector(1) + scalar(y{${M}}) + time()`);
  assert.equal(injectQueryLabels('histogram_quantile(0.99, sum by (le) (rate(flux_meter_bucket[1m])))', L),
    `histogram_quantile(0.99, sum by (le) (rate(flux_meter_bucket{${M}}[1m])))`);
});

test('strings and comments are copied as they are', () => {
  assert.equal(injectQueryLabels('label_replace(up, "dst", "{x}", "src", "(.*)")', L), `label_replace(up{${M}}, "dst", "{x}", "src", "(.*)")`);
  assert.equal(injectQueryLabels('up{a="}\\"{"} # not a selector: b', L), `up{${M},a="}\\"{"} # not a selector: b`);
});

test('no labels: the query is unchanged; values are escaped as PromQL strings', () => {
  assert.equal(injectQueryLabels('up', []), 'up');
  assert.equal(injectQueryLabels('up', [{ name: 'x', value: 'a"b\\c' }]), 'up{x="a\\"b\\\\c"}');
});

test('a query the PromQL grammar cannot read is refused, never sent on with a selector left bare', () => {
  assert.throws(() => injectQueryLabels('up up', L), InvalidArgumentError);
  assert.throws(() => injectQueryLabels('sum(up', L), /not valid PromQL at offset 6/);
  assert.throws(() => injectQueryLabels('1e+up', L), InvalidArgumentError);
  assert.throws(() => injectQueryLabels('0X1e+up', L), InvalidArgumentError);

  assert.throws(() => injectQueryLabels('up{a="b}', L), InvalidArgumentError);
  assert.throws(() => injectQueryLabels('rate(up[5m)', L), InvalidArgumentError);
  assert.throws(() => injectQueryLabels('up{a="b"', L), InvalidArgumentError);
});

test('checkQueryLabels refuses names Prometheus does not allow, and duplicates', () => {
  assert.deepEqual(checkQueryLabels([{ name: 'a_1', value: 'v' }]), [{ name: 'a_1', value: 'v' }]);
  assert.throws(() => checkQueryLabels([{ name: '1a', value: 'v' }]), /prometheus\.labels\[0\]\.name/);
  assert.throws(() => checkQueryLabels([{ name: 'a-b', value: 'v' }]), /not a Prometheus label name/);
  assert.throws(() => checkQueryLabels([{ name: 'a', value: 'v' }, { name: 'a', value: 'w' }]), /given twice/);
});

test('numbers in every form Prometheus lexes do not hide the selector after them', () => {
  assert.equal(injectQueryLabels('count(0x1e+up)', L), `count(0x1e+up{${M}})`);
  assert.equal(injectQueryLabels('0xFF-up', L), `0xFF-up{${M}}`);
  assert.equal(injectQueryLabels('1e3+up', L), `1e3+up{${M}}`);
  assert.equal(injectQueryLabels('1.5E-3*up', L), `1.5E-3*up{${M}}`);
  assert.equal(injectQueryLabels('.5+up', L), `.5+up{${M}}`);
  assert.equal(injectQueryLabels('1_000+up', L), `1_000+up{${M}}`);
  assert.equal(injectQueryLabels('inf+up / NaN', L), `inf+up{${M}} / NaN`);
  assert.equal(injectQueryLabels('up offset 1h30m @ 1609746000', L), `up{${M}} offset 1h30m @ 1609746000`);
  assert.equal(injectQueryLabels('up @ start() offset -5m', L), `up{${M}} @ start() offset -5m`);
});

test('strings in every quote kind, escapes and comments hide nothing', () => {
  assert.equal(injectQueryLabels("label_replace(up, 'd', '\\'', `s`, \"\\\\\")", L), `label_replace(up{${M}}, 'd', '\\'', \`s\`, "\\\\")`);
  assert.equal(injectQueryLabels('up # a comment with up{x="y"} in it\n+ down', L), `up{${M}} # a comment with up{x="y"} in it\n+ down{${M}}`);
  assert.equal(injectQueryLabels('{x="y" # c\n}', L), `{${M},x="y" # c\n}`);
  assert.equal(injectQueryLabels('{ # only a comment\n}', L), `{${M} # only a comment\n}`);
  assert.equal(injectQueryLabels('{"my.metric", x="y"}', L), `{${M},"my.metric", x="y"}`);
});

test('keywords and function names used as metric names are selectors; subqueries of selectors are scoped', () => {
  assert.equal(injectQueryLabels('sum + count', L), `sum{${M}} + count{${M}}`);
  assert.equal(injectQueryLabels('rate(x[5m])[30m:1m] offset 1m', L), `rate(x{${M}}[5m])[30m:1m] offset 1m`);
  assert.equal(injectQueryLabels('topk by (job) (3, a) + on (x) group_right (y) b', L), `topk by (job) (3, a{${M}}) + on (x) group_right (y) b{${M}}`);
});

/** Every selector of `out` (read by the PromQL parser) carries every matcher of L; returns how many selectors. */
function assertScoped(out: string): number {
  const sels = vectorSelectors(parsePromql(out));
  for (const s of sels) assert.ok(selectorMatchers(out, s).includes(M), `selector ${JSON.stringify(out.slice(s.from, s.to))} of ${JSON.stringify(out)} lacks ${M}`);
  return sels.length;
}

/** A small deterministic PRNG, so a failing case can be replayed from its seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generator(rand: () => number): (depth: number) => string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const names = ['up', 'http_requests_total', 'a:b:rate5m', 'sum', 'count', 'offset', 'by', 'inf', 'nan_total', 'x0x1e', '_e1'];
  const numbers = ['1', '0x1e', '0XfF', '1e3', '1.5E-3', '.5', '1_000', 'Inf', 'NaN', '-inf', '0x1e+0', '2e+10'];
  const strings = ['"a\\"b"', "'c\\'d'", '`e"f\'g`', '"}{"', '"\\u00e9\\x41\\101"', "'#'"];
  const durations = ['5m', '1h30m', '10s', '1d', '100ms', '2w'];
  const comment = (): string => (rand() < 0.1 ? ` # up{x="y"} ${pick(strings)}\n` : ' ');
  const matchers = (): string => {
    const parts = Array.from({ length: Math.floor(rand() * 3) }, () => `${pick(['job', 'le', 'x'])}${pick(['=', '!=', '=~', '!~'])}${pick(strings)}`);
    if (rand() < 0.2) parts.push('"quoted.metric"');
    return `{${parts.join(',')}${rand() < 0.2 && parts.length > 0 ? ',' : ''}${comment()}}`;
  };
  const selector = (): string => {
    const r = rand();
    if (r < 0.4) return pick(names);
    if (r < 0.8) return `${pick(names)}${rand() < 0.5 ? ' ' : ''}${matchers()}`;
    return `{__name__=~${pick(strings)}${rand() < 0.5 ? `,x=${pick(strings)}` : ''}}`;
  };
  const modifiers = (e: string): string => {
    let s = e;
    if (rand() < 0.2) s += ` offset ${rand() < 0.3 ? '-' : ''}${pick(durations)}`;
    if (rand() < 0.15) s += ` @ ${pick(['start()', 'end()', '1609746000', '0x10'])}`;
    return s;
  };
  const expr = (depth: number): string => {
    const r = depth <= 0 ? rand() * 0.45 : rand();
    if (r < 0.25) return modifiers(selector());
    if (r < 0.35) return pick(numbers);
    if (r < 0.45) return modifiers(`${selector()}[${pick(durations)}]`);
    if (r < 0.55) return `rate(${selector()}[${pick(durations)}])`;
    if (r < 0.65) return `${pick(['sum', 'count', 'max', 'topk'])}${rand() < 0.5 ? ` ${pick(['by', 'without'])} (job, le)` : ''}(${pick(['sum', 'count', 'max']) === 'max' ? '' : ''}${rand() < 0.3 ? '3, ' : ''}${expr(depth - 1)})`;
    if (r < 0.75) return `(${expr(depth - 1)})[${pick(durations)}:${rand() < 0.5 ? pick(durations) : ''}]`;
    if (r < 0.85) return `label_replace(${expr(depth - 1)}, ${pick(strings)}, ${pick(strings)}, ${pick(strings)}, ${pick(strings)})`;
    const op = pick(['+', '-', '*', '/', '%', '^', '==', '!=', '> bool', '< bool', 'and', 'or', 'unless', 'atan2']);
    const match = rand() < 0.3 ? ` ${pick(['on', 'ignoring'])} (job)${rand() < 0.5 ? ` ${pick(['group_left', 'group_right'])} (x)` : ''}` : '';
    return `${expr(depth - 1)}${comment()}${op}${match}${comment()}${expr(depth - 1)}`;
  };
  return expr;
}

test('generated queries: every selector of the output carries the matchers (checked with the parser)', () => {
  let checked = 0;
  for (let seed = 1; seed <= 2000; seed++) {
    const q = generator(prng(seed))(4);
    let inCount: number;
    try {
      inCount = vectorSelectors(parsePromql(q)).length;
    } catch {
      continue; // the generator wrote something the grammar refuses: so does injectQueryLabels
    }
    const out = injectQueryLabels(q, L);
    assert.equal(assertScoped(out), inCount, `seed ${seed}: ${q}`);
    checked++;
  }
  assert.ok(checked > 1500, `only ${checked} generated queries parsed`);
});

test('random character soup: refused, or every selector of the output is scoped', () => {
  const alphabet = ['up', 'x', '0x', '1', 'e', '+', '-', '(', ')', '{', '}', '[', ']', '"', "'", '`', '\\', '#', '\n', ' ', ',', '=', 'by', 'offset', '@', ':', '5m', 'Inf'];
  let accepted = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const rand = prng(seed);
    const q = Array.from({ length: 1 + Math.floor(rand() * 12) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
    let out: string;
    try {
      out = injectQueryLabels(q, L);
    } catch (err) {
      assert.ok(err instanceof InvalidArgumentError, `seed ${seed}: ${JSON.stringify(q)} threw ${String(err)}`);
      continue;
    }
    assertScoped(out);
    accepted++;
  }
  assert.ok(accepted > 50, `only ${accepted} soups accepted`);
});
