/**
 * What the agent scaling an object reports back to the controller (the way back of the
 * contract in published.ts), and where:
 *
 * - `N/reports/<agent_group>/<policy>/<component_id>/<agent>`: a PodScalerReport (JSON), on the
 *   agent's etcd lease, written by the agent that holds the object's Kubernetes Lease, only when
 *   what it observed changes; deleted when it stops holding the Lease, cannot read `/scale`, or the
 *   component goes, and gone with the agent's etcd lease when the agent is.
 *
 * The controller watches `N/reports/` and feeds the values into the policy's circuit as the
 * pod_scaler's out-ports. Agent identities never contain `/` (pod names).
 */

/** The object's `/scale` as the agent holding its Lease last saw it. */
export interface PodScalerReport {
  kind: 'pod_scaler';
  /** The agent's identity (its pod name): the holder of the object's Lease. */
  agent: string;
  /** When this agent took the Lease (ms since the epoch): of two reports, the later holder's wins. */
  leader_since_ms: number;
  /** The object observed; a report of another object (a policy changed since) is not used. */
  kubernetes_object: { namespace: string; kind: string; name: string };
  /** `/scale` status.replicas: the replicas running. */
  actual_replicas: number;
  /** `/scale` spec.replicas: the replicas configured. */
  configured_replicas: number;
  /** The replicas the agent steers to (the latest decision within the bounds); null before the first decision. */
  desired_replicas: number | null;
}

/** Every report of a namespace (all agent groups). */
export function reportPrefix(ns: string): string {
  return `${ns}/reports/`;
}

/** Key of one agent's report on a pod scaler. */
export function podScalerReportKey(ns: string, agentGroup: string, policy: string, componentId: string, agent: string): string {
  return `${ns}/reports/${agentGroup}/${policy}/${componentId}/${agent}`;
}

/** The parts of a report key; undefined when the key is not one. */
export function parsePodScalerReportKey(ns: string, key: string): { agentGroup: string; policy: string; componentId: string; agent: string } | undefined {
  const prefix = reportPrefix(ns);
  if (!key.startsWith(prefix)) return undefined;
  const parts = key.slice(prefix.length).split('/');
  if (parts.length !== 4 || parts.some((p) => p === '')) return undefined;
  const [agentGroup, policy, componentId, agent] = parts as [string, string, string, string];
  return { agentGroup, policy, componentId, agent };
}

const MAX_REPLICAS = 2_147_483_647;
const isReplicas = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_REPLICAS;
const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** A report from its JSON, or the first thing wrong with it (naming the field). */
export function parsePodScalerReport(raw: string): { ok: true; value: PodScalerReport } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: 'want an object' };
  const r = v as Record<string, unknown>;
  if (r.kind !== 'pod_scaler') return { ok: false, error: 'kind: want pod_scaler' };
  if (!isText(r.agent)) return { ok: false, error: 'agent: want a non-empty string' };
  if (typeof r.leader_since_ms !== 'number' || !Number.isFinite(r.leader_since_ms)) return { ok: false, error: 'leader_since_ms: want a number' };
  const o = r.kubernetes_object;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return { ok: false, error: 'kubernetes_object: want an object' };
  const obj = o as Record<string, unknown>;
  for (const f of ['namespace', 'kind', 'name'] as const) if (!isText(obj[f])) return { ok: false, error: `kubernetes_object.${f}: want a non-empty string` };
  for (const f of ['actual_replicas', 'configured_replicas'] as const) if (!isReplicas(r[f])) return { ok: false, error: `${f}: want an integer >= 0` };
  if (r.desired_replicas !== null && !isReplicas(r.desired_replicas)) return { ok: false, error: 'desired_replicas: want an integer >= 0 or null' };
  return {
    ok: true,
    value: {
      kind: 'pod_scaler',
      agent: r.agent,
      leader_since_ms: r.leader_since_ms,
      kubernetes_object: { namespace: obj.namespace as string, kind: obj.kind as string, name: obj.name as string },
      actual_replicas: r.actual_replicas as number,
      configured_replicas: r.configured_replicas as number,
      desired_replicas: r.desired_replicas as number | null,
    },
  };
}

/** The pod scaler's out-ports, in their declared order. */
export const POD_SCALER_OUT_PORTS = ['actual_replicas', 'configured_replicas', 'desired_replicas'] as const;
