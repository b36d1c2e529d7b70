import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { circuitPicture } from './graph.js';
import { readPolicyFile } from './policy-file.js';
import { toSvg } from './svg.js';

interface Rect { x: number; y: number; w: number; h: number }

/** The boxes of the components (their rects), in the translated graph group. */
function componentRects(svg: string): Rect[] {
  return [...svg.matchAll(/<g class="component" data-id="[^"]+">\n<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"/g)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) }));
}
const overlap = (a: Rect, b: Rect): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Every element opened is closed, in order (a well-formed document, as far as tags go). */
function balanced(svg: string): boolean {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (m[3] === '/') continue;
    if (m[1] === '/') {
      if (stack.pop() !== m[2]) return false;
    } else {
      stack.push(m[2] ?? '');
    }
  }
  return stack.length === 0;
}

test('a circuit is laid out as boxes that do not overlap, every signal an arrow with its name', () => {
  const file = fileURLToPath(new URL('../../../deploy/examples/adaptive-load.yaml', import.meta.url));
  const [doc] = readPolicyFile(file);
  assert.ok(doc);
  const p = circuitPicture(doc.name, doc.spec);
  const svg = toSvg(doc.name, p);
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
  assert.ok(balanced(svg), 'well-formed');
  const rects = componentRects(svg);
  assert.equal(rects.length, p.nodes.length);
  for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) assert.ok(!overlap(rects[i] as Rect, rects[j] as Rect), `boxes ${i} and ${j} overlap`);
  // Left to right: the first component (the flux meter's query) is left of the scheduler reading its signals.
  const xs = rects.map((r) => r.x);
  assert.ok(new Set(xs).size > 1, 'laid out over several ranks');
  for (const e of p.edges) assert.ok(svg.includes(`data-signal="${e.signal}"`), e.signal);
  assert.equal((svg.match(/<path d="M[^"]*" fill="none"/g) ?? []).length, p.edges.length, "one path per signal");
  assert.doesNotMatch(svg, /NaN|undefined/);
  assert.match(readFileSync(file, 'utf8'), /adaptive_load_scheduler/);
});

test('a signal nobody writes is a dashed red arrow from a "no writer" tag, an unread output a grey one; the problems are written under it', () => {
  const spec = {
    circuit: {
      components: [
        { variable: { constant_output: { value: 1 }, out_ports: { output: { signal_name: 'A' } } } },
        { arithmetic_combinator: { operator: 'add', in_ports: { lhs: { signal_name: 'A' }, rhs: { signal_name: 'MISSING' } }, out_ports: { output: { signal_name: 'B' } } } },
      ],
    },
  };
  const p = circuitPicture('p', spec);
  const svg = toSvg('p', p);
  assert.ok(balanced(svg), 'well-formed');
  assert.match(svg, /<g class="signal problem" data-signal="MISSING"><title>[^<]*is read but no component writes it<\/title>\n<path [^>]*stroke="#c62828" stroke-width="1.6" stroke-dasharray="6 4"/);
  assert.match(svg, /<g class="loose no-writer">[\s\S]*?MISSING<\/text>[\s\S]*?no writer<\/text>/);
  assert.match(svg, /<g class="signal unread" data-signal="B">\n<path [^>]*stroke="#8a8a8a"/);
  assert.match(svg, /<g class="loose unread">/);
  assert.match(svg, /<g class="signal" data-signal="A">/);
  assert.match(svg, /<g class="problems"[^>]*>\n<text [^>]*>⚠ [^<]*in_ports\.rhs[^<]*no component writes it/);
  assert.match(svg, /<title>policy p: 2 components, 3 signals, 1 problem<\/title>/);
});

test('a spec the compiler cannot read into a graph still draws: its problems, text escaped', () => {
  const spec = { circuit: { components: [{ variable: { constant_output: { value: 1 }, out_ports: { output: { signal_name: 'A<&>' } } } }] } };
  const svg = toSvg('p', circuitPicture('p', spec));
  assert.ok(balanced(svg), 'well-formed');
  assert.doesNotMatch(svg, /NaN|Infinity|undefined/);
  assert.match(svg, /⚠ [^<]*&quot;A&lt;&amp;&gt;&quot;/);
});
