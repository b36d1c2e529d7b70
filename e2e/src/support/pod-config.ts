// What a rendered agent or controller container would start with: the configuration file its
// ConfigMap puts where the binary reads it, its environment (downward-API fields given plausible
// values, $(VAR) references expanded as the kubelet does) and its args; then the real binary with
// --print-config on them, which validates the whole tree and prints it (exit 0) or names the problem.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { ROOT, isObj, type Obj } from './chart-checks.js';

export type Service = 'agent' | 'controller';

export interface StartedConfig {
  /** The configuration file's text ('' when no file is read). */
  file: string;
  env: Record<string, string>;
  args: string[];
}

const FIELD_VALUES: Record<string, string> = {
  'spec.nodeName': 'node-a',
  'metadata.name': 'pod-0',
  'status.podIP': '10.1.2.3',
  'status.hostIP': '192.168.0.7',
  'spec.serviceAccountName': 'sa',
};

const get = (o: unknown, ...path: (string | number)[]): unknown => path.reduce<unknown>((cur, k) => (isObj(cur) || Array.isArray(cur) ? (cur as Record<string, unknown>)[k] : undefined), o);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** A container's environment as the kubelet gives it: values, fieldRefs, $(VAR) of earlier entries. */
export function containerEnv(container: Obj, namespace: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of list(container.env)) {
    const name = String(e.name);
    if (typeof e.value === 'string') env[name] = e.value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, v: string) => env[v] ?? m);
    else {
      const fieldPath = get(e, 'valueFrom', 'fieldRef', 'fieldPath');
      if (fieldPath === 'metadata.namespace') env[name] = namespace;
      else if (typeof fieldPath === 'string') env[name] = FIELD_VALUES[fieldPath] ?? assert.fail(`no test value for fieldRef ${fieldPath}`);
      else env[name] = 'from-a-secret-or-configmap';
    }
  }
  return env;
}

/**
 * The configuration a rendered workload's container starts with: the file at the path the binary
 * reads (its --config argument, else /etc/sluice/<service>/config/<service>.yaml) from the
 * ConfigMap mounted there; a path no ConfigMap covers fails the test.
 */
export function startedConfig(objects: Obj[], workload: Obj, containerName: string, service: Service): StartedConfig {
  const spec = get(workload, 'spec', 'template', 'spec');
  const container = list(get(spec, 'containers')).find((c) => c.name === containerName) ?? assert.fail(`${String(get(workload, 'metadata', 'name'))} has no container ${containerName}`);
  const args = (Array.isArray(container.args) ? container.args : []).map(String);
  const i = args.indexOf('--config');
  const path = i >= 0 ? args[i + 1] : `/etc/sluice/${service}/config/${service}.yaml`;
  const mount = list(container.volumeMounts).find((m) => typeof m.mountPath === 'string' && path.startsWith(`${m.mountPath.replace(/\/$/, '')}/`)) ?? assert.fail(`nothing is mounted where ${service} reads its configuration (${path})`);
  const volume = list(get(spec, 'volumes')).find((v) => v.name === mount.name) ?? assert.fail(`volume ${String(mount.name)} is not declared`);
  const cmName = get(volume, 'configMap', 'name') ?? assert.fail(`${path} is not from a ConfigMap`);
  const namespace = String(get(workload, 'metadata', 'namespace') ?? '');
  const cm = objects.find((o) => o.kind === 'ConfigMap' && get(o, 'metadata', 'name') === cmName) ?? assert.fail(`ConfigMap ${String(cmName)} is not rendered`);
  const rel = posix.relative(String(mount.mountPath), path);
  const items = list(get(volume, 'configMap', 'items'));
  const key = items.length > 0 ? (items.find((it) => it.path === rel)?.key ?? assert.fail(`the ConfigMap volume has no item at ${rel}`)) : rel;
  const file = get(cm, 'data', String(key));
  assert.equal(typeof file, 'string', `ConfigMap ${String(cmName)} has data ${String(key)}`);
  return { file: file as string, env: containerEnv(container, namespace), args: i < 0 ? args : args.filter((_, j) => j !== i && j !== i + 1) };
}

const printed = new Map<string, Promise<Record<string, unknown>>>();

/** Runs bin/sluice-<service> --print-config (once per distinct configuration in a process) on a started configuration; the printed tree. */
export async function printConfig(service: Service, started: StartedConfig): Promise<Record<string, unknown>> {
  const key = JSON.stringify([service, started]);
  let run = printed.get(key);
  if (!run) {
    run = runPrintConfig(service, started);
    printed.set(key, run);
  }
  return structuredClone(await run);
}

async function runPrintConfig(service: Service, started: StartedConfig): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-print-config-'));
  try {
    const file = join(dir, `${service}.yaml`);
    writeFileSync(file, started.file);
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string; error?: Error }>((resolve) => {
      execFile(join(ROOT, 'bin', `sluice-${service}`), [...started.args, '--print-config', '--config', file], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...started.env },
        encoding: 'utf8',
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : null) : 0;
        resolve({ code, stdout, stderr, ...(err && code === null ? { error: err } : {}) });
      });
    });
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(r.code, 0, `sluice-${service} --print-config refused the rendered configuration:\n${r.stderr}\n--- file ---\n${started.file}\n--- env ---\n${JSON.stringify(started.env, null, 1)}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
