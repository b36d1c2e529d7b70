// `--kube`: apply policy, delete policy and policies act on the Policy resources of the cluster of
// the current kubeconfig instead of the controller's API (the controller's Policy watcher compiles
// them and writes their status).
import type { PolicyDocument } from '../policy-file.js';
import { render, type OutputFormat, type Rows } from '../output.js';
import type { KubeOptions, PolicyResourceItem } from './policies.js';

interface Io { out(text: string): void }

/** @kubernetes/client-node loads only with --kube. */
async function policies(opts: KubeOptions) {
  const { KubePolicies } = await import('./policies.js');
  return new KubePolicies(opts);
}

export async function kubeApply(io: Io, opts: KubeOptions, docs: PolicyDocument[], format: OutputFormat): Promise<void> {
  const k = await policies(opts);
  const results: Array<{ namespace: string; name: string; result: string }> = [];
  for (const d of docs) {
    const result = await k.apply(d);
    results.push({ namespace: d.namespace ?? k.namespace, name: d.name, result });
    if (format === 'table') io.out(`policy.sluice.dev/${d.name} ${result} (namespace ${d.namespace ?? k.namespace}, ${d.source})\n`);
  }
  if (format !== 'table') io.out(render(results, format));
}

export async function kubeDelete(io: Io, opts: KubeOptions, name: string): Promise<void> {
  const k = await policies(opts);
  await k.delete(name);
  io.out(`policy.sluice.dev/${name} deleted (namespace ${k.namespace})\n`);
}

const rows = (items: PolicyResourceItem[]): Rows => ({
  head: ['NAMESPACE', 'NAME', 'STATUS', 'MESSAGE', 'AGE'],
  rows: items.map((p) => [p.metadata?.namespace ?? '', p.metadata?.name ?? '', p.status?.status ?? '', p.status?.message ?? '', age(p.metadata?.creationTimestamp)]),
});

function age(ts: string | undefined): string {
  if (ts === undefined) return '';
  const s = Math.max(0, Math.round((Date.now() - Date.parse(ts)) / 1000));
  return s < 120 ? `${s}s` : s < 7200 ? `${Math.round(s / 60)}m` : s < 172_800 ? `${Math.round(s / 3600)}h` : `${Math.round(s / 86_400)}d`;
}

export async function kubeList(io: Io, opts: KubeOptions, allNamespaces: boolean, format: OutputFormat): Promise<void> {
  const k = await policies(opts);
  const items = await k.list(allNamespaces);
  io.out(render(format === 'table' ? items : { items }, format, (v) => rows(v as PolicyResourceItem[])));
}
