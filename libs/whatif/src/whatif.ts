import { HTTP_FUNCTION, type AgentHub } from '@sluice/agentfunctions';
import { rejectionOf } from '@sluice/controller';
import { InvalidArgumentError, NotFoundError, UnavailableError } from '@sluice/errors';
import type { CompiledPolicy, PublishedComponent } from '@sluice/policies';
import { flowsOfPreview, type SampleFlow } from './flows.js';
import { summarize, type OutcomeReport } from './report.js';
import { circuitDecisions, PolicySandbox, type SandboxComponent } from './sandbox.js';
import type { WhatIfRequest } from './whatif-request.js';

export interface WhatIfDeps {
  hub: Pick<AgentHub, 'group' | 'call'>;
  /** The policy API's compiler (what applying the policy would run). */
  compile(name: string, spec: unknown): CompiledPolicy;
  now?: () => number;
}

/** What one agent gave. */
export interface AgentSamples {
  agent_name: string;
  samples: number;
  error?: string;
}

export interface WhatIfAnswer extends OutcomeReport {
  policy: string;
  control_point: string;
  agent_group: string;
  service: string;
  /** Which preview the samples came from: `labels` or `http_requests` (classifiers need the requests). */
  preview: 'labels' | 'http_requests';
  samples: { requested: number; collected: number; complete: boolean; from: AgentSamples[]; first_unix_ms: number | null; last_unix_ms: number | null };
  components: SandboxComponent[];
  notes: string[];
}

/** Margin over the preview's wait for an agent's answer to come back. */
const ANSWER_SLACK_MS = 5000;

function selects(p: PublishedComponent, controlPoint: string, agentGroup: string | undefined): boolean {
  return p.selectors.some((s) => s.control_point === controlPoint && (agentGroup === undefined || (s.agent_group ?? p.agent_group) === agentGroup));
}

function only<T>(values: Iterable<T>): T | undefined {
  const set = new Set(values);
  return set.size === 1 ? set.values().next().value : undefined;
}

function labelKeyOf(components: readonly PublishedComponent[]): string | null {
  for (const c of components) if (c.kind === 'rate_limiter' && c.parameters.label_key) return c.parameters.label_key;
  for (const c of components) if (c.kind === 'quota_scheduler' && c.rate_limiter.label_key) return c.rate_limiter.label_key;
  for (const c of components) if (c.kind === 'sampler' && c.parameters.label_key) return c.parameters.label_key;
  return null;
}

/**
 * A policy tried on live traffic before it enforces: compiled as applying it would be (a bad
 * policy is INVALID_ARGUMENT with the JSON paths), N samples of the control point collected
 * through the preview on the agents of the group that would enforce it, and its flow-control
 * components replayed over them in a sandbox (see PolicySandbox). Nothing is published.
 */
export async function runWhatIf(req: WhatIfRequest, deps: WhatIfDeps): Promise<WhatIfAnswer> {
  let compiled: CompiledPolicy;
  try {
    compiled = deps.compile(req.name, req.spec);
  } catch (err) {
    throw rejectionOf(req.name, err);
  }
  const here = compiled.components.filter((c) => selects(c, req.controlPoint, req.agentGroup));
  if (here.length === 0) {
    throw new InvalidArgumentError(`policy ${req.name} selects no flows at control point ${JSON.stringify(req.controlPoint)}${req.agentGroup !== undefined ? ` of agent group ${req.agentGroup}` : ''}`, 'control_point');
  }
  const selectors = here.flatMap((c) => c.selectors.filter((s) => s.control_point === req.controlPoint).map((s) => ({ ...s, agent_group: s.agent_group ?? c.agent_group })));
  const agentGroup = req.agentGroup ?? only(selectors.map((s) => s.agent_group));
  if (agentGroup === undefined) throw new InvalidArgumentError(`the policy's selectors at ${req.controlPoint} name several agent groups: give agent_group`, 'agent_group');
  const service = req.service ?? only(selectors.filter((s) => s.agent_group === agentGroup).map((s) => s.service ?? 'any')) ?? 'any';
  const preview = here.some((c) => c.kind === 'classifier') ? 'http_requests' as const : 'labels' as const;

  const agents = deps.hub.group(agentGroup);
  if (agents.length === 0) throw new NotFoundError(`no agent of group ${agentGroup} is connected to the controller (agent functions): none would enforce the policy at ${req.controlPoint}`);
  const perAgent = Math.ceil(req.samples / agents.length);
  const query = `?samples=${perAgent}&wait_ms=${req.waitMs}${service !== 'any' ? `&service=${encodeURIComponent(service)}` : ''}`;
  const path = `/v1/flowcontrol/preview/${preview}/${encodeURIComponent(req.controlPoint)}${query}`;
  const settled = await Promise.allSettled(agents.map((a) => deps.hub.call(agentGroup, a.agent_name, HTTP_FUNCTION, { method: 'POST', path, body: {} }, req.waitMs + ANSWER_SLACK_MS)));
  const from: AgentSamples[] = [];
  const flows: SampleFlow[] = [];
  settled.forEach((s, i) => {
    const agent = agents[i].agent_name;
    if (s.status === 'rejected') return from.push({ agent_name: agent, samples: 0, error: s.reason instanceof Error ? s.reason.message : String(s.reason) });
    const r = s.value as { status?: number; body?: unknown };
    if (r.status !== 200) return from.push({ agent_name: agent, samples: 0, error: `HTTP ${String(r.status)}: ${JSON.stringify(r.body ?? null).slice(0, 300)}` });
    const got = flowsOfPreview(r.body, req.controlPoint, agent);
    flows.push(...got);
    return from.push({ agent_name: agent, samples: got.length });
  });
  if (from.every((f) => f.error !== undefined)) {
    throw new UnavailableError(`no agent of group ${agentGroup} answered the preview: ${from.map((f) => `${f.agent_name}: ${f.error ?? ''}`).join('; ')}`);
  }

  const now = deps.now?.() ?? Date.now();
  const start = flows.reduce((min, f) => Math.min(min, f.arrivalMs), now);
  const sandbox = new PolicySandbox(compiled, { controlPoint: req.controlPoint, agentGroup, service }, circuitDecisions(compiled, now), start);
  let report: OutcomeReport;
  try {
    report = summarize(await sandbox.replay(flows), req.labelKey ?? labelKeyOf(here));
  } finally {
    await sandbox.shutdown();
  }
  const notes: string[] = [];
  const complete = flows.length >= req.samples;
  if (!complete) notes.push(`collected ${flows.length} of ${req.samples} samples within ${req.waitMs} ms: the report covers what was collected`);
  for (const f of from) if (f.error !== undefined) notes.push(`agent ${f.agent_name} gave no samples: ${f.error}`);
  if (preview === 'http_requests') notes.push('the policy has classifiers: HTTP requests were sampled so that they run on the requests; flows of SDK (feature) calls are not seen');
  const arrivals = flows.map((f) => f.arrivalMs);
  return {
    policy: req.name, control_point: req.controlPoint, agent_group: agentGroup, service, preview,
    samples: {
      requested: req.samples, collected: flows.length, complete, from,
      first_unix_ms: arrivals.length > 0 ? Math.min(...arrivals) : null, last_unix_ms: arrivals.length > 0 ? Math.max(...arrivals) : null,
    },
    components: sandbox.components,
    notes: [...notes, ...sandbox.components.filter((c) => c.note !== undefined).map((c) => `${c.kind} ${c.component_id}: ${c.note ?? ''}`)],
    ...report,
  };
}
