// The Grafana dashboards of deploy/grafana: every PromQL expression parses (Prometheus's own grammar)
// and names only metrics the agent or the controller registers. The names come from the processes'
// own registrations, made here on a fresh registry, not from a list kept by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ControllerConfigSchema, defaultsOf, type ControllerConfig } from '@sluice/config';
import { ControllerMetrics, createAlerting, parsePromql, vectorSelectors } from '@sluice/controller';
import { decisionMetrics, FluxMeterHistogram, rateLimiterMetrics } from '@sluice/flowcontrol';
import { schedulerMetrics } from '@sluice/scheduler';
import { Registry } from 'prom-client';
import { ROOT } from './support/processes.js';

const DIR = join(ROOT, 'deploy', 'grafana');

/** Every series name the agent's flow-control metrics and the controller's policy metrics expose. */
async function exportedNames(): Promise<Set<string>> {
  const registry = new Registry();
  decisionMetrics(registry, 'default');
  schedulerMetrics(registry);
  new FluxMeterHistogram(registry);
  rateLimiterMetrics(registry);
  new ControllerMetrics(registry, () => new Map());
  // with an Alertmanager configured, as the sender's counters are then registered
  const config = defaultsOf(ControllerConfigSchema) as ControllerConfig;
  await createAlerting({ config: { ...config, alerts: { ...config.alerts, alertmanagers: ['http://127.0.0.1:9'] } }, registry }).shutdown();
  const names = new Set<string>();
  for (const m of await registry.getMetricsAsJSON()) {
    const { name, type } = m as unknown as { name: string; type: string };
    names.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name + s);
  }
  return names;
}

/** Grafana's own interval variables, which are not PromQL, become a duration the grammar reads. */
function promql(expr: string): string {
  return expr.replace(/\$__(rate_interval|interval|range)\b/g, '1m');
}

interface Expression { where: string; expr: string }

/** The PromQL of a dashboard: its panels' targets and its query variables (`label_values(<selector>, <label>)`: the selector). */
function expressions(file: string, dashboard: Record<string, unknown>): Expression[] {
  const out: Expression[] = [];
  const panels = (dashboard.panels ?? []) as { title?: string; targets?: { expr?: string }[] }[];
  for (const p of panels) for (const t of p.targets ?? []) if (typeof t.expr === 'string') out.push({ where: `${file} panel "${p.title}"`, expr: t.expr });
  const vars = ((dashboard.templating as { list?: unknown[] } | undefined)?.list ?? []) as { name: string; type: string; query?: unknown }[];
  for (const v of vars) {
    if (v.type !== 'query') continue;
    const q = typeof v.query === 'string' ? v.query : (v.query as { query?: string } | undefined)?.query ?? '';
    const m = /^label_values\((.*),\s*[a-zA-Z_][a-zA-Z0-9_]*\)$/.exec(q);
    assert.ok(m !== null, `${file} variable ${v.name}: label_values(<selector>, <label>) expected, got ${q}`);
    out.push({ where: `${file} variable ${v.name}`, expr: m[1] });
  }
  return out;
}

/** The metric names of an expression's selectors; each selector must name one. */
function metricNames(e: Expression): string[] {
  const query = promql(e.expr);
  const tree = parsePromql(query);
  return vectorSelectors(tree).map((sel) => {
    const id = sel.getChild('Identifier');
    assert.ok(id !== null, `${e.where}: a selector without a metric name in ${e.expr}`);
    return query.slice(id.from, id.to);
  });
}

test('one dashboard per flow-control component kind and one for signals, each valid JSON with a uid and panels', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();
  assert.deepEqual(files, ['classifier.json', 'flux-meter.json', 'load-scheduler.json', 'rate-limiter.json', 'sampler.json', 'signals.json']);
  const uids = new Set<string>();
  for (const f of files) {
    const d = JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { uid?: string; panels?: unknown[] };
    assert.equal(typeof d.uid, 'string', f);
    assert.ok(!uids.has(d.uid!), `${f}: uid ${d.uid} used twice`);
    uids.add(d.uid!);
    assert.ok((d.panels ?? []).length > 0, `${f} has panels`);
  }
});

test('every PromQL expression of the dashboards parses and names only metrics the processes export', async () => {
  const exported = await exportedNames();
  let checked = 0;
  for (const f of readdirSync(DIR).filter((x) => x.endsWith('.json'))) {
    const dashboard = JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Record<string, unknown>;
    for (const e of expressions(f, dashboard)) {
      const names = metricNames(e);
      assert.ok(names.length > 0, `${e.where}: no metric in ${e.expr}`);
      for (const n of names) assert.ok(exported.has(n), `${e.where}: ${n} is not a metric the agent or the controller exports`);
      checked++;
    }
  }
  assert.ok(checked >= 20, `expressions checked: ${checked}`);
});

test('the check itself: a name no process exports and a query that does not parse are caught', async () => {
  const exported = await exportedNames();
  assert.ok(exported.has('rate_limiter_counter_total') && exported.has('signal_reading_count') && exported.has('flux_meter_bucket'));
  assert.equal(exported.has('wfq_requests_total'), false);
  assert.deepEqual(metricNames({ where: 't', expr: 'sum(rate(wfq_requests_total[$__rate_interval]))' }), ['wfq_requests_total']);
  assert.throws(() => metricNames({ where: 't', expr: 'sum(rate(flux_meter_count[5m])' }), /not valid PromQL/);
});
