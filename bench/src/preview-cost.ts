/**
 * What a registered preview costs the Check path that it does not sample: the engine's
 * Check (with a token-bucket rate limiter, and the CheckResponse built as the gRPC handler
 * does) with no preview, with a preview on another control point, and with a preview on the
 * same control point whose filter never matches. Interleaved rounds, median of each.
 *
 * Then the hostile case (issue 7): CheckHTTP-shaped flows with 8 KiB JSON bodies, each a fresh
 * decoded request as gRPC hands it over, with no preview and with 10 HTTP previews of 1 000 samples
 * matching every flow, each answered as the HTTP route answers it (samples parsed and written as
 * JSON text, in slices) and started again at once. Checks run in
 * batches with a turn of the event loop between them, so answers being built compete with them as
 * in the agent; the longest gap between batches is the worst stall a check saw (past the tap's
 * 250 ms check timeout a tap would fail open). Prints the throughput ratio, the stalls and the RSS.
 *
 *   npx tsc -p bench && node bench/dist/preview-cost.js [seconds-per-variant=3]
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Engine, applyLocalLimiters, httpFlowLabels, loadLocalLimiters, toCheckResponse, type CheckDecision } from '@sluice/flowcontrol';
import { PreviewRegistry } from '@sluice/preview';
import type { CheckHTTPRequest__Output } from '@sluice/proto';
import { compileLabelMatcher } from '@sluice/selectors';
import { printResult } from './support/result-line.js';

const perVariantMs = Math.min(5, Math.max(1, Number(process.argv[2] ?? 3))) * 1000;
const rounds = 9;
const SERVICES = ['bench-svc'];

function opsPerSecond(engine: Engine, ms: number): number {
  const labels = { user: 'alice', 'http.method': 'GET', tier: 'gold' };
  const end = performance.now() + ms;
  let n = 0;
  let sink = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 500; i++) {
      const d = engine.check({ controlPoint: 'bench', labels, services: SERVICES }) as CheckDecision;
      sink += toCheckResponse(d).flow_label_keys.length;
    }
    n += 500;
  }
  if (sink < 0) console.log(sink);
  return n / (ms / 1000);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function engineWith(preview: 'none' | 'other' | 'same-nomatch'): Engine {
  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters('- { control_point: bench, bucket_capacity: 1e15, fill_amount: 1e15, interval: 1s, label_key: user }'));
  if (preview !== 'none') {
    const registry = new PreviewRegistry();
    engine.addObserver(registry);
    registry.start({
      kind: 'labels',
      controlPoint: preview === 'other' ? 'elsewhere' : 'bench',
      service: 'any',
      samples: 1000,
      matcher: compileLabelMatcher({ match_labels: { user: 'nobody' } }),
      waitMs: 600_000,
    });
  }
  return engine;
}

const variants = { none: engineWith('none'), other: engineWith('other'), 'same-nomatch': engineWith('same-nomatch') };
const results: Record<string, number[]> = { none: [], other: [], 'same-nomatch': [] };
for (const e of Object.values(variants)) opsPerSecond(e, 300);
for (let r = 0; r < rounds; r++) {
  for (const [name, engine] of Object.entries(variants)) results[name].push(opsPerSecond(engine, perVariantMs / rounds));
}
const base = median(results.none);
console.log('engine Check + CheckResponse, median of interleaved rounds:');
for (const name of Object.keys(results)) {
  const m = median(results[name]);
  console.log(`  preview ${name.padEnd(13)}: ${Math.round(m).toString().padStart(9)} checks/s  ratio ${(m / base).toFixed(3)}`);
}
const worst = Math.min(median(results.other), median(results['same-nomatch'])) / base;
console.log(`worst ratio ${worst.toFixed(3)} (target: within 5%, >= 0.95)`);

// ---- the hostile case: 10 previews of 1 000 samples over 8 KiB JSON bodies ----
/** A JSON body of about 8 KiB made of many small objects (the costly shape to parse and convert). */
function jsonBody(bytes: number): string {
  const items: object[] = [];
  let text = '';
  for (let i = 0; ; i++) {
    items.push({ id: i, sku: `sku-${i}`, qty: i % 7, tags: ['a', 'b'] });
    const next = JSON.stringify({ items });
    if (next.length > bytes) return text;
    text = next;
  }
}
const BODY_BYTES = Buffer.from(jsonBody(8192), 'utf8');
const PREVIEWS = 10;
const STALL_FAIL_OPEN_MS = 250;

/** A CheckHTTP request as the gRPC decoder hands it over: fresh objects and a fresh body string per call. */
function freshRequest(i: number): CheckHTTPRequest__Output {
  return {
    control_point: 'ingress',
    source: { address: '10.0.0.9', port: 40000 + (i % 1000), protocol: 'TCP' },
    destination: { address: '10.0.0.1', port: 8080, protocol: 'TCP' },
    request: {
      method: 'POST', path: `/api/orders/${i % 97}?page=${i % 5}`, host: 'shop', scheme: 'http', size: BODY_BYTES.length, protocol: 'HTTP/1.1',
      headers: { 'content-type': 'application/json', 'user-agent': 'bench', 'x-user': `u${i % 50}` }, body: BODY_BYTES.toString('utf8'), truncated_body: false,
    },
    ramp_mode: false,
  };
}

interface HostileRun { rate: number; maxStallMs: number; stallsPastTimeout: number; answered: number }

async function hostileRound(engine: Engine, registry: PreviewRegistry | undefined, ms: number): Promise<HostileRun> {
  let answered = 0;
  let stopping = false;
  const running = new Set<Promise<void>>();
  const startPreview = (): void => {
    if (registry === undefined || stopping) return;
    const p = registry.start({ kind: 'http', controlPoint: 'ingress', service: 'any', samples: 1000, matcher: compileLabelMatcher({}), waitMs: 600_000 });
    const done = p.jsonTexts()
      .then((parts) => { answered += `{"samples":[${parts.join(',')}]}`.length > 0 ? 1 : 0; })
      .finally(() => { running.delete(done); startPreview(); });
    running.add(done);
    cancels.push(p.cancel);
  };
  const cancels: (() => void)[] = [];
  for (let i = 0; i < PREVIEWS; i++) startPreview();
  const t0 = performance.now();
  const end = t0 + ms;
  let n = 0;
  let sink = 0;
  let maxStallMs = 0;
  let stallsPastTimeout = 0;
  let last = performance.now();
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) {
      const http = freshRequest(n + i);
      const d = engine.check({ controlPoint: 'ingress', labels: httpFlowLabels(http.request), services: SERVICES, type: 'http', http }) as CheckDecision;
      sink += toCheckResponse(d).flow_label_keys.length;
    }
    n += 50;
    const before = performance.now();
    await nextTurn();
    const now = performance.now();
    const stall = now - before;
    if (stall > maxStallMs) maxStallMs = stall;
    if (stall > STALL_FAIL_OPEN_MS) stallsPastTimeout++;
    last = now;
  }
  const elapsed = last - t0;
  stopping = true;
  for (const c of cancels) c();
  await Promise.all([...running]);
  if (sink < 0) console.log(sink);
  return { rate: n / (elapsed / 1000), maxStallMs, stallsPastTimeout, answered };
}

function hostileEngine(withPreviews: boolean): { engine: Engine; registry: PreviewRegistry | undefined } {
  const engine = new Engine();
  applyLocalLimiters(engine, loadLocalLimiters('- { control_point: ingress, bucket_capacity: 1e15, fill_amount: 1e15, interval: 1s, label_key: http.request.header.x_user }'));
  const registry = withPreviews ? new PreviewRegistry() : undefined;
  if (registry !== undefined) engine.addObserver(registry);
  return { engine, registry };
}

const none = hostileEngine(false);
const withPreviews = hostileEngine(true);
const hostile: Record<'none' | 'previews', HostileRun[]> = { none: [], previews: [] };
await hostileRound(none.engine, none.registry, 300);
await hostileRound(withPreviews.engine, withPreviews.registry, 300);
let peakRss = 0;
const hostileRounds = 5;
for (let r = 0; r < hostileRounds; r++) {
  hostile.none.push(await hostileRound(none.engine, none.registry, perVariantMs / hostileRounds));
  hostile.previews.push(await hostileRound(withPreviews.engine, withPreviews.registry, perVariantMs / hostileRounds));
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}
const hostileBase = median(hostile.none.map((h) => h.rate));
const hostileWith = median(hostile.previews.map((h) => h.rate));
const stall = (runs: HostileRun[]): number => Math.max(...runs.map((h) => h.maxStallMs));
const pastTimeout = hostile.previews.reduce((a, h) => a + h.stallsPastTimeout, 0);
const hostileRatio = hostileWith / hostileBase;
console.log(`CheckHTTP flows with ${BODY_BYTES.length}-byte JSON bodies, ${PREVIEWS} HTTP previews of 1000 samples restarted as they answer:`);
console.log(`  no preview   : ${Math.round(hostileBase).toString().padStart(9)} checks/s  longest stall ${stall(hostile.none).toFixed(1)} ms`);
console.log(`  ${PREVIEWS} previews  : ${Math.round(hostileWith).toString().padStart(9)} checks/s  longest stall ${stall(hostile.previews).toFixed(1)} ms  `
  + `previews answered ${hostile.previews.reduce((a, h) => a + h.answered, 0)}  stalls past ${STALL_FAIL_OPEN_MS} ms ${pastTimeout}`);
console.log(`  ratio ${hostileRatio.toFixed(3)} (target >= 0.9, no stall past the tap's check timeout); peak RSS ${(peakRss / 1048576).toFixed(0)} MiB`);

printResult('preview-cost', {
  other_ratio: (median(results.other) / base).toFixed(3),
  same_nomatch_ratio: (median(results['same-nomatch']) / base).toFixed(3),
  target: worst >= 0.95 ? 'met' : 'not-met',
  hostile_ratio: hostileRatio.toFixed(3),
  hostile_max_stall_ms: stall(hostile.previews).toFixed(1),
  hostile_stalls_past_250ms: pastTimeout,
  hostile_target: hostileRatio >= 0.9 && pastTimeout === 0 ? 'met' : 'not-met',
  peak_rss_mib: (peakRss / 1048576).toFixed(0),
});
process.exit(0);
