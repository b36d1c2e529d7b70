// The real helm v3 for e2e tests: tools/bin/helm (bash scripts/setup.sh puts it there), else a
// helm on PATH. Without one, helmBinary() prints a loud line and throws, so every helm test fails
// (never skips). Each run gets its own HOME and helm cache/config/data dirs, a time bound, and the
// given kubeconfig.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT, isObj, type Obj } from './chart-checks.js';

export const AGENT_CHART = join(ROOT, 'charts', 'sluice-agent');
export const CONTROLLER_CHART = join(ROOT, 'charts', 'sluice-controller');

let found: string | undefined;

/** The helm binary: tools/bin/helm, else `helm` on PATH; it must be helm v3. */
export function helmBinary(): string {
  if (found !== undefined) return found;
  const local = join(ROOT, 'tools', 'bin', 'helm');
  for (const candidate of [local, 'helm']) {
    if (candidate === local && !existsSync(local)) continue;
    const r = spawnSync(candidate, ['version', '--short'], { encoding: 'utf8', timeout: 15_000 });
    if (r.status === 0 && /^v3\./.test(r.stdout.trim())) return (found = candidate);
  }
  const message = `HELM IS NOT AVAILABLE: ${local} is missing and no helm v3 is on PATH. Run \`bash scripts/setup.sh\` (it installs helm v3 into tools/bin). The helm tests FAIL without it.`;
  process.stderr.write(`\n!!! ${message}\n\n`);
  assert.fail(message);
}

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Helm {
  run(args: string[], env?: Record<string, string>): Promise<HelmResult>;
  /** Runs helm and asserts it exits 0 (the message gives its stderr); resolves with stdout. */
  ok(args: string[], env?: Record<string, string>): Promise<string>;
  /** `helm template` of a chart with values given as --set-json pairs; the rendered objects. */
  template(chart: string, release: string, namespace: string, values: Record<string, unknown>, extra?: string[]): Promise<Obj[]>;
  close(): void;
}

/** A helm with its own home dirs (removed by close()), against `kubeconfig` when given. */
export function helmFor(kubeconfig?: string): Helm {
  const bin = helmBinary();
  const home = mkdtempSync(join(tmpdir(), 'sluice-helm-'));
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    ...(kubeconfig !== undefined ? { KUBECONFIG: kubeconfig } : { KUBECONFIG: join(home, 'no-kubeconfig') }),
  };
  const run = (args: string[], env: Record<string, string> = {}): Promise<HelmResult> =>
    new Promise((resolve) => {
      execFile(bin, args, { env: { ...baseEnv, ...env }, timeout: 60_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr: err && code === 1 && stderr === '' ? String(err) : stderr });
      });
    });
  const ok = async (args: string[], env?: Record<string, string>): Promise<string> => {
    const r = await run(args, env);
    assert.equal(r.code, 0, `helm ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };
  const template = async (chart: string, release: string, namespace: string, values: Record<string, unknown>, extra: string[] = []): Promise<Obj[]> => {
    return renderedObjects(await ok(['template', release, chart, '--namespace', namespace, ...setJson(values), ...extra]));
  };
  return { run, ok, template, close: () => rmSync(home, { recursive: true, force: true }) };
}

/** Values as helm arguments: `--set-json key=<JSON>` for each. */
export function setJson(values: Record<string, unknown>): string[] {
  return Object.entries(values).flatMap(([k, v]) => ['--set-json', `${k}=${JSON.stringify(v)}`]);
}

/** The objects of a multi-document YAML stream (empty documents left out); a YAML error fails. */
export function renderedObjects(text: string): Obj[] {
  const out: Obj[] = [];
  for (const doc of parseAllDocuments(text)) {
    assert.deepEqual(doc.errors.map((e) => e.message), [], 'the rendered YAML parses');
    const v = doc.toJS() as unknown;
    if (v === null || v === undefined) continue;
    assert.ok(isObj(v), `a rendered document is a mapping: ${JSON.stringify(v).slice(0, 200)}`);
    out.push(v);
  }
  return out;
}
