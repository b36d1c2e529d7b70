// Whether a rendered agent container would get past the dist cache's key check at start: the
// files of the Secret volume covering dist_cache.auth.key_file are written as the kubelet would
// mount them (from the rendered Secret, or from `existing` for Secrets the render only names),
// the mode must let the container's user read them, and the agent's own check (keyringFrom, the
// function the agent calls with the same settings) must find a key.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { envNameOf } from '@sluice/config';
import { keyringFrom, type Keyring } from '@sluice/distcache';
import { isObj, type Obj } from './chart-checks.js';

const get = (o: unknown, ...path: (string | number)[]): unknown => path.reduce<unknown>((cur, k) => (isObj(cur) || Array.isArray(cur) ? (cur as Record<string, unknown>)[k] : undefined), o);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** The file's text the Secret volume `volume` puts at `rel` (relative to its mount). */
function secretFile(objects: Obj[], volume: Obj, rel: string, namespace: string, existing: Obj[]): string {
  const name = String(get(volume, 'secret', 'secretName'));
  const secret = [...objects, ...existing].find((o) => o.kind === 'Secret' && get(o, 'metadata', 'name') === name && (get(o, 'metadata', 'namespace') ?? namespace) === namespace)
    ?? assert.fail(`Secret ${name} is neither rendered nor in the cluster`);
  const items = list(get(volume, 'secret', 'items'));
  const key = items.length > 0 ? (items.find((it) => it.path === rel)?.key ?? assert.fail(`the Secret volume has no item at ${rel}`)) : rel;
  const data = get(secret, 'data', String(key));
  assert.equal(typeof data, 'string', `Secret ${name} has data ${String(key)}`);
  return Buffer.from(data as string, 'base64').toString('utf8');
}

/** Fails unless the file mode lets the pod's user read it (owner root, group the pod's fsGroup). */
function checkReadable(pod: unknown, container: Obj, mode: number, what: string): void {
  const user = get(container, 'securityContext', 'runAsUser') ?? get(pod, 'securityContext', 'runAsUser');
  const fsGroup = get(pod, 'securityContext', 'fsGroup');
  const readable = (mode & 0o004) !== 0 || ((mode & 0o040) !== 0 && fsGroup !== undefined) || ((mode & 0o400) !== 0 && (user === 0 || user === undefined));
  assert.ok(readable, `${what}: mode ${mode.toString(8)} is not readable by user ${String(user)} (fsGroup ${String(fsGroup)})`);
}

/**
 * The keyring the agent container of `workload` starts with, given its printed configuration and
 * environment; throws the agent's own error when it would refuse to start for want of a key.
 */
export function startKeyring(objects: Obj[], workload: Obj, containerName: string, config: Record<string, unknown>, env: Record<string, string>, existing: Obj[] = []): Keyring | undefined {
  const spec = get(workload, 'spec', 'template', 'spec');
  const container = list(get(spec, 'containers')).find((c) => c.name === containerName) ?? assert.fail(`no container ${containerName}`);
  const namespace = String(get(workload, 'metadata', 'namespace') ?? '');
  const auth = get(config, 'dist_cache', 'auth');
  const keyFile = String(get(auth, 'key_file') ?? '');
  const dir = mkdtempSync(join(tmpdir(), 'sluice-dist-key-'));
  try {
    let local = '';
    if (keyFile !== '') {
      const mount = list(container.volumeMounts).find((m) => typeof m.mountPath === 'string' && keyFile.startsWith(`${m.mountPath.replace(/\/$/, '')}/`))
        ?? assert.fail(`nothing is mounted where dist_cache.auth.key_file ${keyFile} is`);
      assert.equal(mount.readOnly, true, 'the key volume is mounted read-only');
      const volume = list(get(spec, 'volumes')).find((v) => v.name === mount.name) ?? assert.fail(`volume ${String(mount.name)} is not declared`);
      const rel = posix.relative(String(mount.mountPath), keyFile);
      const mode = Number(list(get(volume, 'secret', 'items')).find((it) => it.path === rel)?.mode ?? get(volume, 'secret', 'defaultMode') ?? 0o644);
      checkReadable(spec, container, mode, keyFile);
      local = join(dir, 'keys');
      writeFileSync(local, secretFile(objects, volume, rel, namespace, existing));
    }
    // dist_cache.auth.keys is masked in the printed tree: the environment holds it as given.
    const keys = env[envNameOf('SLUICE_AGENT_', 'dist_cache.auth.keys')] ?? '';
    return keyringFrom({
      keyFile: local,
      keys,
      insecure: get(auth, 'insecure') === true,
      bound: { 'dist_cache.bind_addr': String(get(config, 'dist_cache', 'bind_addr')), 'dist_cache.memberlist_bind_addr': String(get(config, 'dist_cache', 'memberlist_bind_addr')) },
      name: (path) => `${path} (${envNameOf('SLUICE_AGENT_', path)})`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
