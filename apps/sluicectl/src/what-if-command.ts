// `sluicectl what-if`: a policy tried on live traffic of a control point (POST /v1/whatif), before it enforces.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { ControllerClient } from './client.js';
import { CliError, UsageError } from './errors.js';
import { render, type OutputFormat } from './output.js';
import { readPolicyFile } from './policy-file.js';
import { whatIfSvg, type WhatIfTimeline } from './what-if-svg.js';

interface Io { out(text: string): void }
type WithClient = <T>(fn: (c: ControllerClient, format: OutputFormat) => Promise<T>, minTimeoutMs?: number) => Promise<T>;

interface Group { flows: number; accepted: number; rejected: number; rejected_fraction: number; rejected_by: Record<string, number>; workloads: Record<string, number> }
interface Answer {
  policy: string; control_point: string; agent_group: string; label_key: string | null;
  samples: { requested: number; collected: number; complete: boolean };
  by_label: (Group & { value: string })[];
  by_workload: (Group & { component_id: string; workload: string; priority?: number })[];
  timeline: WhatIfTimeline;
  notes: string[];
}

function duration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (m === null) throw new UsageError(`--wait ${JSON.stringify(text)}: want a duration such as 5s or 500ms`);
  const ms = Math.round(Number(m[1]) * (m[2] === 'ms' ? 1 : 1000));
  if (ms < 1 || ms > 30_000) throw new UsageError('--wait must be from 1ms to 30s');
  return ms;
}

const pct = (f: number): string => `${(f * 100).toFixed(1)}%`;
const counts = (m: Record<string, number>): string => Object.entries(m).map(([k, n]) => `${k} (${n})`).join('; ');

function tableText(a: Answer): string {
  const head = [
    `policy ${a.policy} at ${a.control_point} (agent group ${a.agent_group}): ${a.samples.collected} of ${a.samples.requested} samples${a.samples.complete ? '' : ' (fewer than asked)'}`,
    ...a.notes.map((n) => `note: ${n}`),
    '',
  ].join('\n');
  const byLabel = render(a, 'table', () => ({
    head: [a.label_key ?? 'FLOWS', 'FLOWS', 'ACCEPTED', 'REJECTED', 'REJECTED %', 'WHY'],
    rows: a.by_label.map((g) => [g.value, String(g.flows), String(g.accepted), String(g.rejected), pct(g.rejected_fraction), counts(g.rejected_by)]),
  }));
  const byWorkload = a.by_workload.length === 0 ? '' : render(a, 'table', () => ({
    head: ['SCHEDULER', 'WORKLOAD', 'PRIORITY', 'FLOWS', 'ACCEPTED', 'REJECTED'],
    rows: a.by_workload.map((w) => [w.component_id, w.workload, String(w.priority ?? ''), String(w.flows), String(w.accepted), String(w.rejected)]),
  }));
  return `${head}\n${byLabel}${byWorkload}`;
}

/** Adds `what-if` to `program`. */
export function addWhatIfCommand(program: Command, io: Io, withClient: WithClient): void {
  program.command('what-if')
    .description('Try a policy on live traffic before it enforces: N samples of the control point from the agents that would enforce it, replayed through the policy in a sandbox (nothing is applied)')
    .requiredOption('-f, --file <file>', 'YAML or JSON file holding one policy')
    .requiredOption('--control-point <cp>', 'control point whose flows to sample')
    .option('--samples <n>', 'samples to collect (1 to 1000)', '100')
    .option('--name <name>', 'name of a policy given without a resource around it')
    .option('--agent-group <group>', 'agent group (default: the one the policy\'s selectors name)')
    .option('--service <service>', 'only flows of this service')
    .option('--label-key <key>', 'group the report by this label (default: the rate limiter\'s label_key)')
    .option('--wait <duration>', 'longest wait for the samples', '20s')
    .option('--svg <file>', 'write rejections over time per label value as an SVG')
    .addHelpText('after', '\nExamples:\n  sluicectl what-if -f deploy/examples/rate-limit.yaml --control-point ingress --samples 300\n  sluicectl what-if -f policy.yaml --control-point ingress -o json --svg what-if.svg')
    .action(async (opts: { file: string; controlPoint: string; samples: string; name?: string; agentGroup?: string; service?: string; labelKey?: string; wait: string; svg?: string }) => {
      if (!/^[1-9]\d{0,3}$/.test(opts.samples) || Number(opts.samples) > 1000) throw new UsageError(`--samples ${JSON.stringify(opts.samples)}: want a whole number from 1 to 1000`);
      const waitMs = duration(opts.wait);
      const docs = readPolicyFile(opts.file, opts.name);
      if (docs.length !== 1) throw new CliError(`${opts.file}: holds ${docs.length} policies; what-if tries one`);
      const doc = docs[0];
      const body = {
        policy: doc.spec, name: doc.name, control_point: opts.controlPoint, samples: Number(opts.samples), wait_ms: waitMs,
        ...(opts.agentGroup !== undefined ? { agent_group: opts.agentGroup } : {}),
        ...(opts.service !== undefined ? { service: opts.service } : {}),
        ...(opts.labelKey !== undefined ? { label_key: opts.labelKey } : {}),
      };
      await withClient(async (c, format) => {
        const answer = await c.call('POST', '/v1/whatif', body) as Answer;
        if (opts.svg !== undefined) writeFileSync(opts.svg, whatIfSvg(answer.timeline, `what-if ${answer.policy} at ${answer.control_point}: rejected per ${answer.label_key ?? 'flow'}`));
        io.out(format === 'table' ? tableText(answer) : render(answer, format));
      }, waitMs + 15_000);
    });
}
