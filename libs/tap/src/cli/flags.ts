import { tryParseDuration } from '@sluice/config/duration';
import { LOG_LEVELS, type LogLevel } from '../logger.js';
import { BODY_BYTES_MAX, HEADER_BYTES_MAX, HEADER_BYTES_MIN, HEADER_COUNT_MAX, UPSTREAM_PROTOCOLS, type TapOptions, type UpstreamProtocol } from '../options.js';
import { parseHostPort, parseUpstreamUrl } from './address.js';

type Parsed<T> = T | { problem: string };

interface FlagSpec {
  /** Flag name without dashes. */
  name: string;
  /** Default as it would be typed; undefined = required. */
  default: string | undefined;
  boolean?: true;
  help: string;
  apply(value: string, into: TapOptions): string | undefined;
}

function problem<T>(v: Parsed<T>): v is { problem: string } {
  return typeof v === 'object' && v !== null && 'problem' in v;
}

function duration(value: string, minMs: number, maxMs: number): Parsed<number> {
  const ms = tryParseDuration(value);
  if (ms === undefined) return { problem: `"${value}" is not a duration like 250ms or 1m30s` };
  if (ms < minMs || ms > maxMs) return { problem: `${value} is out of range ${minMs}ms..${maxMs / 1000}s` };
  return ms;
}

function integer(value: string, min: number, max: number): Parsed<number> {
  return /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max ? Number(value) : { problem: `"${value}" is not an integer in ${min}..${max}` };
}

function set<T>(v: Parsed<T>, assign: (x: T) => void): string | undefined {
  if (problem(v)) return v.problem;
  assign(v);
  return undefined;
}

function address(value: string, anyHost: boolean, minPort: number): Parsed<{ host: string; port: number }> {
  const a = parseHostPort(value, { anyHost, minPort });
  return typeof a === 'string' ? { problem: a } : a;
}

/** Every flag of sluice-tap; each is also read from SLUICE_TAP_<NAME> ('-' → '_'). */
export const TAP_FLAGS: readonly FlagSpec[] = [
  { name: 'listen', default: ':8081', help: 'address the tap serves on, host:port (":port" for every interface)',
    apply: (v, o) => set(address(v, true, 0), (a) => { o.listen = a; }) },
  { name: 'upstream', default: undefined, help: 'the workload, http://host:port',
    apply: (v, o) => set((() => { const u = parseUpstreamUrl(v); return typeof u === 'string' ? { problem: u } : u; })(), (a) => { o.upstream = a; }) },
  { name: 'upstream-protocol', default: 'http1', help: 'how HTTP/2 requests (gRPC among them) reach the workload: h2c (HTTP/2 without TLS; gRPC needs it) or http1 (they are answered 502, a gRPC call UNAVAILABLE); HTTP/1.1 requests go over HTTP/1.1 either way',
    apply: (v, o) => set((UPSTREAM_PROTOCOLS as readonly string[]).includes(v) ? (v as UpstreamProtocol) : { problem: `"${v}" is not one of ${UPSTREAM_PROTOCOLS.join(', ')}` }, (p) => { o.upstreamProtocol = p; }) },
  { name: 'agent', default: '127.0.0.1:8080', help: "the agent's gRPC address, host:port",
    apply: (v, o) => set(address(v, false, 1), () => { o.agent = v; }) },
  { name: 'control-point', default: 'ingress', help: 'control point named in every check',
    apply: (v, o) => set(/^[^\s]{1,256}$/.test(v) ? v : { problem: `"${v}" must be 1..256 characters without spaces` }, (c) => { o.controlPoint = c; }) },
  { name: 'admin', default: '127.0.0.1:9091', help: 'address of /metrics and /healthz, host:port',
    apply: (v, o) => set(address(v, true, 0), (a) => { o.admin = a; }) },
  { name: 'body-bytes', default: '8192', help: `bytes of a JSON, form or text body sent with the check (0..${BODY_BYTES_MAX})`,
    apply: (v, o) => set(/^\d+$/.test(v) && Number(v) <= BODY_BYTES_MAX ? Number(v) : { problem: `"${v}" is not an integer in 0..${BODY_BYTES_MAX}` }, (n) => { o.bodyBytes = n; }) },
  { name: 'check-timeout', default: '250ms', help: 'deadline of a check; past it the request goes through (or 503 with --fail-closed)',
    apply: (v, o) => set(duration(v, 1, 60_000), (ms) => { o.checkTimeoutMs = ms; }) },
  { name: 'upstream-timeout', default: '60s', help: 'longest silence from the workload before 504 (0 for none)',
    apply: (v, o) => set(duration(v, 0, 3_600_000), (ms) => { o.upstreamTimeoutMs = ms; }) },
  { name: 'shutdown-timeout', default: '10s', help: 'on SIGTERM/SIGINT, how long in-flight requests may take to finish',
    apply: (v, o) => set(duration(v, 0, 600_000), (ms) => { o.shutdownTimeoutMs = ms; }) },
  { name: 'fail-closed', default: 'false', boolean: true, help: 'answer 503 instead of forwarding when the agent does not answer',
    apply: (v, o) => set(/^(true|1)$/i.test(v) ? true : /^(false|0)$/i.test(v) ? false : { problem: `"${v}" is not true or false` }, (b) => { o.failClosed = b; }) },
  { name: 'max-request-header-bytes', default: '65536', help: `largest request head (request line and headers) in bytes; past it 431 (${HEADER_BYTES_MIN}..${HEADER_BYTES_MAX})`,
    apply: (v, o) => set(integer(v, HEADER_BYTES_MIN, HEADER_BYTES_MAX), (n) => { o.maxRequestHeaderBytes = n; }) },
  { name: 'max-response-header-bytes', default: '65536', help: `largest response head from the workload in bytes; past it 502 (${HEADER_BYTES_MIN}..${HEADER_BYTES_MAX})`,
    apply: (v, o) => set(integer(v, HEADER_BYTES_MIN, HEADER_BYTES_MAX), (n) => { o.maxResponseHeaderBytes = n; }) },
  { name: 'max-request-headers', default: '100', help: `most header fields in a request; past it 431 (1..${HEADER_COUNT_MAX})`,
    apply: (v, o) => set(integer(v, 1, HEADER_COUNT_MAX), (n) => { o.maxRequestHeaders = n; }) },
  { name: 'max-response-headers', default: '100', help: `most header fields in a workload's response head; past it 502 (1..${HEADER_COUNT_MAX})`,
    apply: (v, o) => set(integer(v, 1, HEADER_COUNT_MAX), (n) => { o.maxResponseHeaders = n; }) },
  { name: 'merge-slashes', default: 'true', boolean: true, help: 'merge runs of "/" in request paths into one before the check and the forward (false: //a stays //a)',
    apply: (v, o) => set(/^(true|1)$/i.test(v) ? true : /^(false|0)$/i.test(v) ? false : { problem: `"${v}" is not true or false` }, (b) => { o.mergeSlashes = b; }) },
  { name: 'agent-tls-ca', default: '', help: "PEM file of the CA that signed the agent's certificate: checks go over TLS, the agent verified against it",
    apply: (v, o) => { (o.agentTls ??= { ca: '', cert: '', key: '' }).ca = v; return undefined; } },
  { name: 'agent-tls-cert', default: '', help: 'PEM file of the client certificate shown to the agent (with --agent-tls-key; when the agent sets server.tls.client_ca_file)',
    apply: (v, o) => { (o.agentTls ??= { ca: '', cert: '', key: '' }).cert = v; return undefined; } },
  { name: 'agent-tls-key', default: '', help: 'PEM file of the key of --agent-tls-cert',
    apply: (v, o) => { (o.agentTls ??= { ca: '', cert: '', key: '' }).key = v; return undefined; } },
  { name: 'agent-unavailable-grace', default: '30s', help: 'how long the agent may be unreachable before the tap logs it, sets tap_agent_reachable 0 and answers 503 on /readyz',
    apply: (v, o) => set(duration(v, 0, 3_600_000), (ms) => { o.agentUnavailableGraceMs = ms; }) },
  { name: 'fail-open-silently', default: 'false', boolean: true, help: 'stay ready (/readyz 200) while the agent is unreachable; requests still go through unchecked, logged and counted',
    apply: (v, o) => set(/^(true|1)$/i.test(v) ? true : /^(false|0)$/i.test(v) ? false : { problem: `"${v}" is not true or false` }, (b) => { o.failOpenSilently = b; }) },
  { name: 'log-level', default: 'info', help: `one of ${LOG_LEVELS.join(', ')}`,
    apply: (v, o) => set((LOG_LEVELS as readonly string[]).includes(v) ? (v as LogLevel) : { problem: `"${v}" is not one of ${LOG_LEVELS.join(', ')}` }, (l) => { o.logLevel = l; }) },
];

/** The environment variable of a flag. */
export function envName(flag: string): string {
  return `SLUICE_TAP_${flag.toUpperCase().replace(/-/g, '_')}`;
}

export type FlagsResult =
  | { kind: 'options'; options: TapOptions }
  | { kind: 'help'; text: string }
  | { kind: 'problems'; problems: string[] };

/** Usage text listing every flag, its env variable and default. */
export function tapUsage(): string {
  const lines = ['usage: sluice-tap --upstream http://HOST:PORT [flags]', '', 'flags (each also settable by its environment variable; the flag wins):'];
  for (const f of TAP_FLAGS) {
    const def = f.default === undefined ? 'required' : `default ${f.boolean ? f.default : JSON.stringify(f.default)}`;
    lines.push(`  --${f.name}${f.boolean ? '' : ' VALUE'}  (${envName(f.name)}; ${def})`, `      ${f.help}`);
  }
  return lines.join('\n');
}

/**
 * Reads the flags (`--name value`, `--name=value`, bare `--fail-closed`) and
 * their environment variables. Every problem is reported, each naming the
 * flag and its variable.
 */
export function parseTapFlags(argv: readonly string[], env: NodeJS.ProcessEnv): FlagsResult {
  const problems: string[] = [];
  const given = new Map<string, { value: string; source: string }>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { kind: 'help', text: tapUsage() };
    const m = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(arg);
    if (m === null) {
      problems.push(`unexpected argument "${arg}": flags look like --name value (see --help)`);
      continue;
    }
    const name = m[1] as string;
    const spec = TAP_FLAGS.find((f) => f.name === name);
    if (spec === undefined) {
      problems.push(`unknown flag --${name} (see --help)`);
      // Its value, if it has one, is not a second problem.
      if (m[2] === undefined && i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) i++;
      continue;
    }
    let value = m[2];
    if (value === undefined) {
      if (spec.boolean) value = 'true';
      else if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) value = argv[++i] as string;
      else {
        problems.push(`--${name} (${envName(name)}): needs a value`);
        continue;
      }
    }
    given.set(name, { value, source: `--${name}` });
  }
  const options = {} as TapOptions;
  for (const spec of TAP_FLAGS) {
    const env_ = envName(spec.name);
    const fromFlag = given.get(spec.name);
    const fromEnv = env[env_];
    const chosen = fromFlag ?? (fromEnv !== undefined ? { value: fromEnv, source: env_ } : undefined);
    if (chosen === undefined && spec.default === undefined) {
      problems.push(`--${spec.name} (${env_}): is required: ${spec.help}`);
      continue;
    }
    const value = chosen?.value ?? (spec.default as string);
    const issue = spec.apply(value, options);
    if (issue !== undefined) problems.push(`--${spec.name} (${env_}): ${issue}${chosen && chosen.source === env_ ? ` (from ${env_})` : ''}`);
  }
  const tls = options.agentTls;
  if (tls !== undefined && (tls.cert === '') !== (tls.key === '')) {
    problems.push(`--agent-tls-cert (${envName('agent-tls-cert')}) and --agent-tls-key (${envName('agent-tls-key')}): give both or neither`);
  }
  if (problems.length > 0) return { kind: 'problems', problems };
  return { kind: 'options', options };
}
