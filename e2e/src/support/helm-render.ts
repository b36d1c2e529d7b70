// The real helm v3 binary (tools/bin/helm, put there by scripts/setup.sh) rendering the charts:
// `helm template`, `helm lint --strict`, and the release notes (NOTES.txt rendered through a
// copy of the chart, since `helm template` leaves them out).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT, arr, at, isObj, obj, type Obj } from './chart-checks.js';

export const HELM = join(ROOT, 'tools', 'bin', 'helm');

/** Runs helm; a missing binary fails the calling test (it never passes without helm). */
export function helm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  assert.ok(existsSync(HELM), `${HELM} is missing: run \`bash scripts/setup.sh\``);
  const r = spawnSync(HELM, args, { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HELM_CACHE_HOME: join(tmpdir(), 'sluice-helm-cache'), HELM_CONFIG_HOME: join(tmpdir(), 'sluice-helm-config') } });
  assert.equal(r.error, undefined, `helm did not run: ${String(r.error)}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export type Sets = Record<string, string | number | boolean>;

function setArgs(sets: Sets): string[] {
  return Object.entries(sets).flatMap(([k, v]) => [typeof v === 'string' ? '--set-string' : '--set', `${k}=${String(v)}`]);
}

/** `helm template` of charts/<chart> as release `name` in `namespace`; the render must succeed. */
export function render(chart: string, namespace: string, sets: Sets = {}, name = chart): Obj[] {
  const r = helm(['template', name, join(ROOT, 'charts', chart), '--namespace', namespace, ...setArgs(sets)]);
  assert.equal(r.status, 0, `helm template ${chart} failed:\n${r.stderr}`);
  return parseAllDocuments(r.stdout).map((d) => d.toJSON() as unknown).filter(isObj);
}

/** `helm template` that must fail; its error text. */
export function renderError(chart: string, namespace: string, sets: Sets): string {
  const r = helm(['template', chart, join(ROOT, 'charts', chart), '--namespace', namespace, ...setArgs(sets)]);
  assert.notEqual(r.status, 0, `helm template ${chart} should have failed`);
  return r.stderr;
}

/** `helm lint --strict` of charts/<chart> with these values: its status and output. */
export function lint(chart: string, sets: Sets = {}): { status: number | null; output: string } {
  const r = helm(['lint', '--strict', join(ROOT, 'charts', chart), ...setArgs(sets)]);
  return { status: r.status, output: r.stdout + r.stderr };
}

/** The chart's NOTES.txt as `helm install` prints it. */
export function notes(chart: string, namespace: string, sets: Sets = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-notes-'));
  try {
    cpSync(join(ROOT, 'charts', chart), join(dir, chart), { recursive: true });
    renameSync(join(dir, chart, 'templates', 'NOTES.txt'), join(dir, chart, 'notes-source.txt'));
    writeFileSync(join(dir, chart, 'templates', 'zz-notes.yaml'), 'notes: {{ tpl (.Files.Get "notes-source.txt") . | toJson }}\n');
    const r = helm(['template', chart, join(dir, chart), '--namespace', namespace, '--show-only', 'templates/zz-notes.yaml', ...setArgs(sets)]);
    assert.equal(r.status, 0, r.stderr);
    return String(obj(parse(r.stdout), 'notes').notes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const kindOf = (docs: Obj[], kind: string): Obj[] => docs.filter((d) => d.kind === kind);
export function named(docs: Obj[], kind: string, name: string): Obj {
  const found = docs.find((d) => d.kind === kind && at(d, 'metadata.name') === name);
  assert.ok(found, `${kind}/${name} is rendered (have: ${docs.map((d) => `${String(d.kind)}/${String(at(d, 'metadata.name'))}`).join(', ')})`);
  return found;
}
/** The parsed config file of a rendered ConfigMap. */
export const configOf = (cm: Obj, file: string): Obj => obj(parse(String(obj(cm.data, 'data')[file])), file);
/** Pod templates of the rendered workloads (Deployment, DaemonSet, StatefulSet). */
export const podSpecs = (docs: Obj[]): { owner: string; spec: Obj; meta: Obj }[] => docs
  .filter((d) => ['Deployment', 'DaemonSet', 'StatefulSet'].includes(String(d.kind)))
  .map((d) => ({ owner: `${String(d.kind)}/${String(at(d, 'metadata.name'))}`, spec: obj(at(d, 'spec.template.spec'), 'pod spec'), meta: obj(at(d, 'spec.template.metadata'), 'pod metadata') }));
export const containersOf = (spec: Obj): Obj[] => arr(spec.containers, 'containers').map((c) => obj(c, 'container'));

/** The configuration file of a chart's default render as release <chart> in sluice-system (what the plain manifests hold). */
export function defaultConfig(chart: 'sluice-agent' | 'sluice-controller'): Obj {
  const file = chart === 'sluice-agent' ? 'agent.yaml' : 'controller.yaml';
  return configOf(named(render(chart, 'sluice-system'), 'ConfigMap', chart), file);
}
/** The first workload of a chart's default render in sluice-system. */
export function defaultWorkload(chart: 'sluice-agent' | 'sluice-controller'): Obj {
  return named(render(chart, 'sluice-system'), chart === 'sluice-agent' ? 'DaemonSet' : 'Deployment', chart);
}
