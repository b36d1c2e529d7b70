import type { TSchema } from '@sinclair/typebox';
import { leafNodes, node, noEffectOf, type SchemaNode } from '../keys.js';
import { PROCESSES, type ProcessSpec } from '../process.js';
import { FORMAT_HINTS, baseFormats } from '../schema/formats.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function code(value: unknown): string {
  return `\`${JSON.stringify(value)}\``;
}

function shortFormat(format: string): string {
  return baseFormats(format).map((f) => (f === 'signed_duration' ? 'signed duration' : f)).join(' \\| ');
}

function formatLegend(): string {
  return Object.entries(FORMAT_HINTS).map(([name, hint]) => `- \`${name === 'signed_duration' ? 'signed duration' : name}\`: ${hint}.`).join('\n');
}

function typeOf(n: SchemaNode): string {
  return n['x-spec-type'] ?? n.type ?? 'object';
}

function rulesOf(n: SchemaNode, requiredBy: string[]): string {
  const rules: string[] = [];
  if (n.minimum !== undefined && n.minimum > Number.MIN_SAFE_INTEGER) rules.push(`min ${n.minimum}`);
  if (n.maximum !== undefined && n.maximum < Number.MAX_SAFE_INTEGER) rules.push(`max ${n.maximum}`);
  if (n.enum !== undefined) rules.push(`one of ${n.enum.map((v) => `\`${String(v)}\``).join(', ')}`);
  if (n.format !== undefined) rules.push(`format ${shortFormat(n.format)}`);
  const items = n.items === undefined ? undefined : node(n.items);
  if (items?.format !== undefined) rules.push(`each ${shortFormat(items.format)}`);
  if (items?.minimum !== undefined) rules.push(`each min ${items.minimum}`);
  if (items?.maximum !== undefined) rules.push(`each max ${items.maximum}`);
  if (n['x-increasing'] === true) rules.push('strictly increasing');
  const keys = (n as { propertyNames?: { description?: string } }).propertyNames?.description;
  if (keys !== undefined) rules.push(`keys: ${keys}`);
  if (n.minLength !== undefined) rules.push('required, not empty');
  if (requiredBy.length > 0) rules.push(`required by the ${requiredBy.join(' and the ')}`);
  if (n['x-secret'] === true) rules.push('secret: masked by --print-config');
  return rules.join('; ');
}

function row(cells: string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

function processTable(spec: ProcessSpec): string[] {
  const lines = [
    `## ${spec.name === 'agent' ? 'Agent' : 'Controller'} keys`,
    '',
    `Environment prefix \`${spec.envPrefix}\`; default file \`${spec.defaultConfigFile}\`.`,
    '',
    row(['Key path', 'Environment variable', 'Type', 'Default', 'Rules', 'Description']),
    row(['---', '---', '---', '---', '---', '---']),
  ];
  for (const key of leafNodes(spec)) {
    const n = node(key.schema);
    const requiredBy = spec.requiredKeys.includes(key.path) ? [spec.name] : [];
    const old = n['x-old-env'] === undefined ? '' : ` Until the next release also read from \`${n['x-old-env']}\`, its old name.`;
    const ignored = noEffectOf(spec, key.path);
    const none = ignored === undefined ? '' : ` **Accepted, no effect:** ${ignored}`;
    lines.push(row([`\`${key.path}\``, `\`${key.env}\``, typeOf(n), n.default === undefined ? '' : code(n.default), rulesOf(n, requiredBy), `${n.description ?? ''}${old}${none}`]));
  }
  lines.push('');
  return lines;
}

/** The element objects of lists, documented once each. */
function listObjects(): Map<string, TSchema> {
  const out = new Map<string, TSchema>();
  for (const spec of Object.values(PROCESSES)) {
    for (const key of leafNodes(spec)) {
      const n = node(key.schema);
      const specType = n['x-spec-type'] ?? '';
      if (n.items !== undefined && node(n.items).properties !== undefined) out.set(specType.slice(2), n.items);
    }
  }
  return out;
}

function objectTable(name: string, schema: TSchema): string[] {
  const lines = [`### ${name}`, '', row(['Field', 'Type', 'Default', 'Rules', 'Description']), row(['---', '---', '---', '---', '---'])];
  for (const [field, child] of Object.entries(node(schema).properties ?? {})) {
    const n = node(child);
    lines.push(row([`\`${field}\``, typeOf(n), n.default === undefined ? '(none: required)' : code(n.default), rulesOf(n, []), n.description ?? '']));
  }
  lines.push('');
  return lines;
}

const INTRO = `# Configuration

<!-- Generated from the schema in libs/config/src/schema by libs/config/src/docs/write-docs.ts: run \`make docs\`; do not edit by hand. -->

Both processes, \`sluice-agent\` and \`sluice-controller\`, read one nested key tree. The schema in
\`libs/config/src/schema\` is the single source of truth for every key, type, default, bound, enum and
format below; the TypeScript types of \`@sluice/config\` are derived from it.

## Sources and precedence

1. **Environment variables** (highest).
2. **The YAML file**: \`--config PATH\`, or \`/etc/sluice/<service>/config/<service>.yaml\` when no \`--config\`
   is given. A missing default file is fine; a missing \`--config\` file is an error.
3. **Defaults** (lowest): every key has one, so \`--print-config\` shows the whole tree.

In the file, \`null\` (a key with no value) means "not set" and the default applies; inside a list it is an error.

## Environment variables

The variable of a key is the process prefix (\`SLUICE_AGENT_\` or \`SLUICE_CONTROLLER_\`) followed by the key
path upper-cased, with \`.\` turned into \`_\`: \`flow_control.preview_service.enabled\` is
\`SLUICE_AGENT_FLOW_CONTROL_PREVIEW_SERVICE_ENABLED\`. Variables are matched against the full list of key
paths, so underscores inside key names are not ambiguous.

- Scalars are parsed by the key's type: booleans \`true\`, \`false\`, \`1\`, \`0\`; numbers in decimal; strings raw.
- Lists, lists of objects and maps are JSON: \`SLUICE_AGENT_ETCD_ENDPOINTS='["http://127.0.0.1:2379"]'\`,
  \`SLUICE_AGENT_LOG_WRITERS='[{"file":"stderr"}]'\`.
- An object key may also be set as a JSON object at its own path
  (\`SLUICE_AGENT_SERVER_LISTENER='{"addr":":9090"}'\`); it merges over the file, and variables of keys
  inside it win over it.
- A variable under the prefix that names no key is an error that names the nearest key.
- A few settings were variables of their own before they were keys (the controller's \`SLUICE_INJECTOR_*\`,
  the agent's \`SLUICE_PEERS_SERVICE\`). Until the next release those old names are still read when the
  key's own variable is not set, and the process says so on stderr at start; the tables below give them.

## Validation

Everything is checked before the process starts, and every problem is reported, one line each:
unknown keys (in the file, or in a JSON value), wrong types, values out of bounds, values outside an enum,
bad addresses and formats, bad durations, watermarks that do not increase, malformed YAML (with line and
column), and missing required keys. Each line names the key path, its environment variable, the offending
value and the rule, and where the value was set, for example:

\`\`\`
sluice-agent: server.listener.addr (SLUICE_AGENT_SERVER_LISTENER_ADDR): value "abc" is not hostname_port ([host]:port, such as :8080, host:8080, [::1]:8080; port 0..65535)
\`\`\`

The process then exits with status 2 before it binds any port. Other cross-field rules: with
\`server.tls.enabled\`, \`cert_file\` and \`key_file\` must be set; an enabled watermarks policy must list at
least one watermark; the controller's \`injector.tap_port\` and \`injector.sidecar_agent_port\` differ, and the
\`SLUICE_AGENT_*\` variables of \`injector.sidecar_agent_env\` must name agent keys with values of their types
(the injected agent would refuse them at start).

**Durations** are Go duration strings (\`10s\`, \`1m30s\`, \`250ms\`). They may not be negative, except
\`server.listener.keep_alive\` (negative disables keep-alive) and the \`execution_period\` of jobs (zero or
negative: never periodic).

**Required keys.** The agent needs \`etcd.endpoints\`; the controller needs \`etcd.endpoints\` and
\`prometheus.address\`. An empty string or an empty list counts as not set. Programs that embed the loader
(tests, demos) choose their own list with the \`requireKeys\` option of \`loadConfig\`; the executables always
use the lists above, so a demo passes the endpoints through its file or environment.

## Keys accepted with no effect

Every key of the reference's tree is accepted, checked and shown by \`--print-config\`. A few change
nothing today; their description below ends with **Accepted, no effect:** and the reason, so that a
setting is never silently ignored. A test (\`e2e/src/config-keys-read.test.ts\`) fails when a key is
neither read by the process's code nor marked so.

## Command line

\`\`\`
sluice-agent [--config PATH] [--print-config] [--help]
\`\`\`

\`--print-config\` prints the effective configuration as JSON, in the key names below, and exits 0; set
secrets (\`etcd.password\`, \`cloudext.api_key\`, \`crash_report.dsn\`) are shown as \`****\`. An unknown flag
is an error (exit 2).

Formats (\`a | b\`: either is accepted):

FORMATS

Numbers: \`int64\` and \`uint64\` values are limited to the integers JavaScript represents exactly
(up to 2^53 - 1).
`;

/** The whole of docs/configuration.md. */
export function renderConfigDocs(): string {
  const lines = [INTRO.replace('FORMATS', formatLegend()), ...processTable(PROCESSES.agent), ...processTable(PROCESSES.controller), '## Objects in lists', ''];
  for (const [name, schema] of listObjects()) lines.push(...objectTable(name, schema));
  return `${lines.join('\n').trimEnd()}\n`;
}
