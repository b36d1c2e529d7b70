/**
 * What a registered preview costs the Check path that it does not sample: the engine's
 * Check (with a token-bucket rate limiter, and the CheckResponse built as the gRPC handler
 * does) with no preview, with a preview on another control point, and with a preview on the
 * same control point whose filter never matches. Interleaved rounds, median of each.
 *
 *   npx tsc -p bench && node bench/dist/preview-cost.js [seconds-per-variant=3]
 */
import { Engine, applyLocalLimiters, loadLocalLimiters, toCheckResponse, type CheckDecision } from '@sluice/flowcontrol';
import { PreviewRegistry } from '@sluice/preview';
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
printResult('preview-cost', {
  other_ratio: (median(results.other) / base).toFixed(3),
  same_nomatch_ratio: (median(results['same-nomatch']) / base).toFixed(3),
  target: worst >= 0.95 ? 'met' : 'not-met',
});
process.exit(0);
