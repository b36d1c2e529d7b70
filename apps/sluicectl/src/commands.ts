import { writeFileSync } from 'node:fs';
import { Argument, Command, Option, type ParseOptions } from 'commander';
import { ControllerClient } from './client.js';
import { CliError, UsageError } from './errors.js';
import { outputFormat, render, type OutputFormat, type Rows } from './output.js';
import { readPolicyFile } from './policy-file.js';
import { completionScript } from './completion.js';
import { addBlueprintCommands } from './blueprint-commands.js';
import { addWhatIfCommand } from './what-if-command.js';
import { kubeApply, kubeDelete, kubeList } from './kube/commands.js';
import { addDynamicConfigCommand } from './dynamic-config-command.js';
import { drawSvgs } from './svg-files.js';

/** Where a command writes (the process's stdout and stderr, or a test's buffers). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
}

interface GlobalOptions {
  controller: string;
  kube?: boolean;
  context?: string;
  namespace?: string;
  token?: string;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  insecureSkipVerify?: boolean;
  timeout: string;
  output: string;
}

/** One preview sample on a line: the request's method and target, or its flow labels. */
function sampleText(sample: Record<string, unknown>): string {
  // An HTTP request sample: Envoy's attribute context (attributes.request.http), or a plain request.
  const attrs = sample.attributes as { request?: { http?: { method?: string; path?: string; host?: string } } } | undefined;
  const req = attrs?.request?.http ?? (sample.request as { method?: string; path?: string; host?: string } | undefined);
  if (req !== undefined) return `${req.method ?? ''} ${req.host ?? ''}${req.path ?? ''}`.trim();
  const labels = (sample.labels ?? sample.flow_labels ?? sample) as Record<string, unknown>;
  return Object.entries(labels).map(([k, v]) => `${k}=${String(v)}`).join(' ');
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

function timeoutMs(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (m === null) throw new UsageError(`--timeout ${JSON.stringify(text)}: want a duration such as 500ms, 10s or 1m`);
  const n = Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000);
  if (n <= 0) throw new UsageError('--timeout must be above 0');
  return n;
}

const policyRows = (v: unknown): Rows => {
  const list = ((v as { policies?: Array<Record<string, unknown>> }).policies ?? []);
  return {
    head: ['NAME', 'STATUS', 'HASH', 'MESSAGE'],
    rows: list.map((p) => [String(p.name ?? ''), String(p.status ?? ''), String(p.hash ?? '').slice(0, 12), String(p.message ?? p.status_message ?? '')]),
  };
};

const decisionRows = (v: unknown): Rows => {
  const list = ((v as { decisions?: Array<Record<string, unknown>> }).decisions ?? []);
  return {
    head: ['POLICY', 'COMPONENT', 'AGENT GROUP', 'DECISION'],
    rows: list.map((d) => [String(d.policy_name ?? d.policy ?? ''), String(d.component_id ?? ''), String(d.agent_group ?? ''), JSON.stringify(d.decision ?? {})]),
  };
};

/**
 * sluicectl's program. `decisions` names the policy library's decision kinds in its help; that library
 * (half a CPU-second to load) loads only when the command line names `decisions` (run, --help or
 * `help decisions`), not with every command.
 */
class Program extends Command {
  readonly decisionType = new Argument('<type>', 'a published kind that takes decisions');

  override async parseAsync(argv?: readonly string[], options?: ParseOptions): Promise<this> {
    if ((argv ?? process.argv).includes('decisions')) {
      const { PUBLISHED_DECISION_KINDS } = await import('@sluice/policies');
      this.decisionType.description = `a published kind that takes decisions: ${PUBLISHED_DECISION_KINDS.join(', ')}`;
    }
    return super.parseAsync(argv, options);
  }
}

/** The sluicectl program: its commands, options and help, writing to `io`. */
export function buildProgram(io: Io): Command {
  const program = new Program('sluicectl')
    .description('Operate Sluice: apply and inspect policies through the controller, draw a policy\'s circuit, and generate policies from blueprints.')
    .addOption(new Option('--controller <url>', 'the controller\'s HTTP address').env('SLUICE_CONTROLLER').default('http://127.0.0.1:8080'))
    .addOption(new Option('--token <token>', 'bearer token for the controller (its server.auth.token_file)').env('SLUICE_TOKEN'))
    .option('--ca-file <file>', 'PEM CA that signed the controller\'s certificate (https)')
    .option('--cert-file <file>', 'PEM client certificate (mutual TLS)')
    .option('--key-file <file>', 'PEM key of the client certificate')
    .option('--insecure-skip-verify', 'accept any server certificate (testing only)')
    .option('--timeout <duration>', 'how long one request to the controller may take', '10s')
    .option('-o, --output <format>', 'table, json or yaml', 'table')
    .option('--kube', 'apply policy, delete policy and policies act on the Policy resources of the cluster of the current kubeconfig (KUBECONFIG) instead of the controller\'s API')
    .option('--context <name>', 'with --kube: a kubeconfig context other than the current one')
    .option('-n, --namespace <namespace>', 'with --kube: the namespace (default: the context\'s, else default)')
    .addHelpText('after', `
Examples:
  sluicectl --controller https://sluice-controller:8080 --token "$TOKEN" policies
  sluicectl apply policy -f deploy/examples/rate-limit.yaml
  sluicectl --kube -n shop apply policy -f deploy/examples/rate-limit.yaml
  sluicectl flow-control preview ingress --agent-group default --match http.method=POST
  sluicectl compile -f deploy/examples/adaptive-load.yaml --svg circuit.svg
  sluicectl blueprints values quota-scheduling --output-file values.yaml

Exit status: 0 done, 1 the command failed, 2 the command line is wrong.`)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .exitOverride();

  const global = (): GlobalOptions & { format: OutputFormat } => {
    const o = program.opts<GlobalOptions>();
    return { ...o, format: outputFormat(o.output) };
  };
  /** The --kube options, or undefined without --kube (--context and --namespace alone are usage errors). */
  const kube = (): { context?: string; namespace?: string } | undefined => {
    const o = program.opts<GlobalOptions>();
    if (o.kube !== true) {
      if (o.context !== undefined || o.namespace !== undefined) throw new UsageError('--context and --namespace go with --kube');
      return undefined;
    }
    return { ...(o.context !== undefined ? { context: o.context } : {}), ...(o.namespace !== undefined ? { namespace: o.namespace } : {}) };
  };
  const withClient = async <T>(fn: (c: ControllerClient, format: OutputFormat) => Promise<T>, minTimeoutMs = 0): Promise<T> => {
    const o = global();
    const client = new ControllerClient({
      url: o.controller, token: o.token, caFile: o.caFile, certFile: o.certFile, keyFile: o.keyFile,
      insecureSkipVerify: o.insecureSkipVerify, timeoutMs: Math.max(minTimeoutMs, timeoutMs(o.timeout)),
    });
    try {
      return await fn(client, o.format);
    } finally {
      client.close();
    }
  };

  const apply = program.command('apply').description('Create or replace resources on the controller');
  apply.command('policy')
    .description('Apply the policies of a file: Policy resources (several YAML documents allowed), {"policy": <spec>} or a bare spec')
    .requiredOption('-f, --file <file>', 'YAML or JSON file')
    .option('--name <name>', 'name of a policy given without a resource around it (default: the file\'s name)')
    .addHelpText('after', '\nExamples:\n  sluicectl apply policy --file deploy/examples/rate-limit.yaml\n  sluicectl --controller https://ctl:8080 --ca-file ca.pem apply policy -f policy.json --name checkout-limit\n  sluicectl --kube -n shop apply policy -f deploy/examples/rate-limit.yaml   # the Policy resource, as kubectl apply')
    .action(async (opts: { file: string; name?: string }) => {
      const docs = readPolicyFile(opts.file, opts.name);
      const k = kube();
      if (k !== undefined) {
        await kubeApply(io, k, docs, global().format);
        return;
      }
      await withClient(async (c, format) => {
        const applied: unknown[] = [];
        for (const d of docs) {
          const reply = await c.call('POST', `/v1/policies/${encodeURIComponent(d.name)}`, { policy: d.spec });
          applied.push(reply);
          // The resource's dynamicConfig goes to the dynamic configuration API, as the Policy watcher does.
          if (d.dynamicConfig !== undefined) await c.call('POST', `/v1/dynamic-configs/${encodeURIComponent(d.name)}`, { dynamic_config: d.dynamicConfig });
          if (format === 'table') io.out(`policy ${d.name} applied${d.dynamicConfig !== undefined ? ' with its dynamicConfig' : ''} (${d.source})\n`);
        }
        if (format !== 'table') io.out(render(applied.length === 1 ? applied[0] : applied, format));
      });
    });

  const del = program.command('delete').description('Delete resources on the controller');
  del.command('policy')
    .description('Delete a policy: the agents stop enforcing it')
    .argument('<name>', 'policy name')
    .addHelpText('after', '\nExamples:\n  sluicectl delete policy rate-limit-per-user\n  sluicectl --kube -n shop delete policy rate-limit-per-user   # the Policy resource')
    .action(async (name: string) => {
      const k = kube();
      if (k !== undefined) {
        await kubeDelete(io, k, name);
        return;
      }
      await withClient(async (c) => {
        await c.call('DELETE', `/v1/policies/${encodeURIComponent(name)}`);
        io.out(`policy ${name} deleted\n`);
      });
    });

  program.command('policies')
    .description('List the controller\'s policies and their status (--kube: the Policy resources)')
    .option('-A, --all-namespaces', 'with --kube: the Policy resources of every namespace')
    .addHelpText('after', '\nExamples:\n  sluicectl policies\n  sluicectl --kube policies -A')
    .action(async (opts: { allNamespaces?: boolean }) => {
      const k = kube();
      if (k !== undefined) {
        await kubeList(io, k, opts.allNamespaces === true, global().format);
        return;
      }
      if (opts.allNamespaces === true) throw new UsageError('--all-namespaces goes with --kube');
      await withClient(async (c, format) => io.out(render(await c.call('GET', '/v1/policies'), format, policyRows)));
    });

  program.command('policy')
    .description('Show one policy: its spec, status and signals')
    .argument('<name>', 'policy name')
    .action(async (name: string) => {
      await withClient(async (c, format) => io.out(render(await c.call('GET', `/v1/policies/${encodeURIComponent(name)}`), format === 'table' ? 'yaml' : format)));
    });

  program.command('decisions')
    .description('List what the controller publishes for the agents of one component type')
    .addArgument(program.decisionType)
    .action(async (type: string) => {
      await withClient(async (c, format) => io.out(render(await c.call('GET', `/v1/decisions/${encodeURIComponent(type)}`), format, decisionRows)));
    });

  program.command('agents')
    .description('List the agents connected to the controller (agent_functions.endpoints), by group')
    .action(async () => {
      await withClient(async (c, format) => io.out(render(await c.call('GET', '/v1/agents'), format, (v) => ({
        head: ['GROUP', 'AGENT', 'ADDRESS', 'VERSION', 'CONNECTED'],
        rows: ((v as { agents?: Array<Record<string, unknown>> }).agents ?? []).map((a) => [String(a.agent_group), String(a.agent_name), String(a.address), String(a.version), String(a.connected_at)]),
      }))));
    });

  /** An agent route through the controller: one agent, or every agent of the group. */
  const agentPath = (group: string, agent: string | undefined, path: string): string => `/v1/agents/${encodeURIComponent(group)}/${agent === undefined ? '' : `${encodeURIComponent(agent)}/`}${path.replace(/^\//, '')}`;
  const perAgent = (v: unknown, rows: (agent: string, body: unknown) => string[][], head: string[]): Rows => {
    const answers = (v as { answers?: Array<{ agent_name: string; status: number; body: unknown }>; missing?: Array<{ agent_name: string; error: string }> });
    const out: string[][] = [];
    for (const a of answers.answers ?? []) out.push(...(a.status === 200 ? rows(a.agent_name, a.body) : [[a.agent_name, `HTTP ${a.status}: ${JSON.stringify(a.body)}`]]));
    for (const m of answers.missing ?? []) out.push([m.agent_name, `no answer: ${m.error}`]);
    return { head, rows: out };
  };
  const flow = program.command('flow-control').description('Flow control on the agents, through the controller');
  flow.command('control-points')
    .description('The control points the agents of a group have seen')
    .requiredOption('--agent-group <group>', 'agent group', 'default')
    .action(async (opts: { agentGroup: string }) => {
      await withClient(async (c, format) => io.out(render(await c.call('GET', agentPath(opts.agentGroup, undefined, '/v1/flowcontrol/controlpoints')), format, (v) => perAgent(v, (agent, body) =>
        ((body as { control_points?: Array<Record<string, unknown>> }).control_points ?? []).map((cp) => [agent, String(cp.control_point), String(cp.service), String(cp.type), String(cp.flows), String(cp.last_seen)]),
      ['AGENT', 'CONTROL POINT', 'SERVICE', 'TYPE', 'FLOWS', 'LAST SEEN']))));
    });
  flow.command('preview')
    .description('Sample requests (or flow labels) of a control point on the agents of a group, narrowed by labels')
    .argument('<control-point>', 'control point')
    .option('--samples <n>', 'samples per agent', '10')
    .option('--agent-group <group>', 'agent group', 'default')
    .option('--agent <name>', 'one agent of the group (see `sluicectl agents`)')
    .option('--service <service>', 'only flows of this service')
    .option('--match <key=value...>', 'only flows with these label values')
    .option('--labels', 'flow labels instead of HTTP requests')
    .addHelpText('after', '\nExamples:\n  sluicectl flow-control preview ingress --samples 5 --match http.method=POST\n  sluicectl -o json flow-control preview ingress --agent-group canary --labels')
    .action(async (cp: string, opts: { samples: string; agentGroup: string; agent?: string; service?: string; match?: string[]; labels?: boolean }) => {
      if (!/^[1-9]\d{0,3}$/.test(opts.samples)) throw new UsageError(`--samples ${JSON.stringify(opts.samples)}: want a whole number from 1 to 9999`);
      const matchLabels: Record<string, string> = {};
      for (const m of opts.match ?? []) {
        const eq = m.indexOf('=');
        if (eq <= 0) throw new UsageError(`--match ${JSON.stringify(m)}: want key=value`);
        matchLabels[m.slice(0, eq)] = m.slice(eq + 1);
      }
      const kind = opts.labels === true ? 'labels' : 'http_requests';
      const query = `?samples=${opts.samples}${opts.service !== undefined ? `&service=${encodeURIComponent(opts.service)}` : ''}`;
      const path = `/v1/flowcontrol/preview/${kind}/${encodeURIComponent(cp)}${query}`;
      await withClient(async (c, format) => {
        const v = await c.call('POST', agentPath(opts.agentGroup, opts.agent, path), { match_labels: matchLabels });
        const answers = opts.agent === undefined ? v : { answers: [{ agent_name: opts.agent, status: 200, body: v }] };
        io.out(render(format === 'table' ? answers : v, format, (x) => perAgent(x, (agent, body) =>
          ((body as { samples?: Array<Record<string, unknown>> }).samples ?? []).map((sample) => [agent, sampleText(sample)]), ['AGENT', 'SAMPLE'])));
      });
    });
  const discovery = program.command('discovery').description('Service discovery on the agents, through the controller');
  discovery.command('entities')
    .description('The entities (IP, name, services) the agents of a group know')
    .option('--agent-group <group>', 'agent group', 'default')
    .action(async (opts: { agentGroup: string }) => {
      await withClient(async (c, format) => io.out(render(await c.call('GET', agentPath(opts.agentGroup, undefined, '/v1/discovery/entities')), format, (v) => perAgent(v, (agent, body) =>
        ((body as { entities?: Array<Record<string, unknown>> }).entities ?? []).map((e) => [agent, String(e.ip_address ?? ''), String(e.name ?? e.uid ?? ''), JSON.stringify(e.services ?? [])]),
      ['AGENT', 'IP', 'NAME', 'SERVICES']))));
    });

  program.command('compile')
    .description('Check a policy offline with the controller\'s own compiler and draw its circuit (components, and the signals between them as edges; dangling and invalid signals dashed and red)')
    .requiredOption('-f, --file <file>', 'YAML or JSON file')
    .option('--name <name>', 'name of a policy given without a resource around it')
    .addOption(new Option('--mermaid', 'print the circuit as a Mermaid flowchart').conflicts('dot'))
    .option('--dot', 'print the circuit as Graphviz DOT')
    .option('--out <file>', 'write the graph to this file instead of standard output')
    .option('--svg <file>', 'draw the circuit as an SVG picture into this file (several policies: <file stem>-<policy>.svg)')
    .addHelpText('after', '\nExamples:\n  sluicectl compile -f deploy/examples/rate-limit.yaml\n  sluicectl compile -f policy.yaml --mermaid --out circuit.mmd\n  sluicectl compile -f deploy/examples/adaptive-load.yaml --svg circuit.svg')
    .action(async (opts: { file: string; name?: string; mermaid?: boolean; dot?: boolean; out?: string; svg?: string }) => {
      const docs = readPolicyFile(opts.file, opts.name);
      if (opts.svg !== undefined) await drawSvgs(opts.svg, docs, io);
      // The compiler (and its schema) loads only for this command: the others start in a fraction of the time.
      const { circuitPicture, toDot, toMermaid } = await import('./graph.js');
      let failed = 0;
      const graphs: string[] = [];
      for (const d of docs) {
        const picture = circuitPicture(d.name, d.spec);
        if (opts.mermaid === true) graphs.push(toMermaid(picture));
        else if (opts.dot === true) graphs.push(toDot(picture));
        if (picture.problems.length > 0) {
          failed++;
          io.err(`${d.source}: policy ${d.name} does not compile:\n${picture.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}\n`);
        } else if (opts.mermaid !== true && opts.dot !== true) {
          io.out(`policy ${d.name}: ${plural(picture.nodes.length, 'component')}, ${plural(picture.edges.length, 'signal')}; it compiles\n`);
        }
      }
      if (graphs.length > 0) {
        if (opts.out !== undefined) writeFileSync(opts.out, graphs.join('\n'));
        else io.out(graphs.join('\n'));
      }
      if (failed > 0) throw new CliError(`${failed} of ${plural(docs.length, 'policy').replace(/policys$/, 'policies')} ${failed === 1 ? 'does' : 'do'} not compile`);
    });

  addDynamicConfigCommand(apply, io, withClient);
  addBlueprintCommands(program, io, () => global().format);
  addWhatIfCommand(program, io, withClient);

  program.command('completion')
    .description('Print a shell completion script (bash or zsh): eval "$(sluicectl completion bash)"')
    .argument('<shell>', 'bash or zsh')
    .action((shell: string) => {
      if (shell !== 'bash' && shell !== 'zsh') throw new UsageError(`completion ${JSON.stringify(shell)}: want bash or zsh`);
      io.out(completionScript(program, shell));
    });

  return program;
}
