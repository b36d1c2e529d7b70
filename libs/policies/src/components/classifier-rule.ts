import { memberPath } from '../path.js';
import type { PolicyProblem } from '../problems.js';
import { orderPathTemplates, parsePathTemplate, type PathTemplate } from './path-template.js';

/**
 * The attribute paths a classifier rule may read besides
 * `request.http.headers.<name>`. The agent holds one reader for each (its
 * table is typed by this list, so the two cannot drift apart).
 */
export const CLASSIFIER_FIXED_ATTRIBUTE_PATHS = [
  'request.http.method',
  'request.http.path',
  'request.http.host',
  'request.http.scheme',
  'request.http.protocol',
  'request.http.size',
  'request.http.body',
  'request.http.bearer',
  'source.address',
  'source.port',
  'destination.address',
  'destination.port',
] as const;
export type ClassifierFixedAttributePath = (typeof CLASSIFIER_FIXED_ATTRIBUTE_PATHS)[number];

/** `request.http.headers.<name>`: a request header, its name matched without case. */
export const CLASSIFIER_HEADER_PATH_PREFIX = 'request.http.headers.';

const FIXED = new Set<string>(CLASSIFIER_FIXED_ATTRIBUTE_PATHS);

/** Whether a classifier rule can read `path`. */
export function isClassifierAttributePath(path: string): boolean {
  return FIXED.has(path) || (path.startsWith(CLASSIFIER_HEADER_PATH_PREFIX) && path.length > CLASSIFIER_HEADER_PATH_PREFIX.length);
}

/**
 * Parse an RFC 6901 JSON pointer (`""` or `/a/b~1c`) into its reference
 * tokens; undefined when it is not one (it must be empty or start with `/`,
 * and `~` must be followed by 0 or 1).
 */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (pointer.charCodeAt(0) !== 0x2f /* / */) return undefined;
  const tokens = pointer.slice(1).split('/');
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (/~[^01]|~$/.test(t)) return undefined;
    tokens[i] = t.replaceAll('~1', '/').replaceAll('~0', '~');
  }
  return tokens;
}

/** The attribute paths an `address` extractor reads (the port from `source.port` / `destination.port`). */
export const CLASSIFIER_ADDRESS_PATHS: Readonly<Record<string, ClassifierFixedAttributePath>> = Object.freeze({
  'source.address': 'source.port',
  'destination.address': 'destination.port',
});

/** A rule the agent can run: the attribute it reads, the pointer's tokens (JSON extractor), whether the label may be seen. */
export interface CheckedClassifierRule {
  readonly label: string;
  /** `attribute`: the attribute as it is; `json`: a value in it; `jwt`: a value in the payload of the JWT it holds; `address`: `<ip>:<port>` of an address and its port; `path_templates`: the value of the template the path matches. */
  readonly kind: 'attribute' | 'json' | 'address' | 'path_templates' | 'jwt';
  readonly from: string;
  /** Reference tokens of the JSON pointer; undefined for a plain attribute. */
  readonly pointer: readonly string[] | undefined;
  /** False for `telemetry: false`: the label stays out of baggage and telemetry. */
  readonly telemetry: boolean;
  /** `path_templates`: the templates with their values, in the order they are tried. */
  readonly templates?: readonly { readonly template: PathTemplate; readonly value: string }[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const problem = (path: string, message: string): { problem: PolicyProblem } => ({ problem: { path, message } });

/**
 * Check one classifier rule the way the agent compiles it: the controller
 * refuses what this refuses (naming `path`, the rule's JSON path, and the
 * member at fault under it), and the agent runs what it accepts. A JSON
 * extractor without a pointer reads the whole document.
 */
export function checkClassifierRule(label: string, rule: unknown, path: string): { rule: CheckedClassifierRule } | { problem: PolicyProblem } {
  if (label === '') return problem(path, 'a classifier rule needs a label name');
  const extractor = isObject(rule) ? rule.extractor : undefined;
  if (!isObject(extractor)) return problem(`${path}.extractor`, 'a classifier rule needs an extractor');
  const flag = isObject(rule) ? rule.telemetry : undefined;
  if (flag !== undefined && typeof flag !== 'boolean') return problem(`${path}.telemetry`, 'telemetry is true or false');
  const telemetry = flag !== false;
  const unknownPath = (from: string, at: string) =>
    problem(at, `unknown attribute path ${JSON.stringify(from)} (known: ${CLASSIFIER_FIXED_ATTRIBUTE_PATHS.join(', ')}, ${CLASSIFIER_HEADER_PATH_PREFIX}<name>)`);
  const members = Object.keys(extractor);
  if (members.length === 1 && typeof extractor.from === 'string') {
    if (!isClassifierAttributePath(extractor.from)) return unknownPath(extractor.from, `${path}.extractor.from`);
    return { rule: { label, kind: 'attribute', from: extractor.from, pointer: undefined, telemetry } };
  }
  const json = extractor.json;
  if (members.length === 1 && isObject(json) && typeof json.from === 'string' && (json.pointer === undefined || typeof json.pointer === 'string')) {
    if (!isClassifierAttributePath(json.from)) return unknownPath(json.from, `${path}.extractor.json.from`);
    const text = json.pointer ?? '';
    const pointer = parseJsonPointer(text);
    if (pointer === undefined) {
      return problem(`${path}.extractor.json.pointer`, `${JSON.stringify(text)} is not a JSON pointer (RFC 6901): it must be empty or start with "/", and "~" be followed by 0 or 1`);
    }
    return { rule: { label, kind: 'json', from: json.from, pointer, telemetry } };
  }
  const address = extractor.address;
  if (members.length === 1 && isObject(address) && typeof address.from === 'string') {
    if (!Object.prototype.hasOwnProperty.call(CLASSIFIER_ADDRESS_PATHS, address.from)) {
      return problem(`${path}.extractor.address.from`, `an address extractor reads ${Object.keys(CLASSIFIER_ADDRESS_PATHS).join(' or ')}, not ${JSON.stringify(address.from)}`);
    }
    return { rule: { label, kind: 'address', from: address.from, pointer: undefined, telemetry } };
  }
  const jwt = extractor.jwt;
  if (members.length === 1 && isObject(jwt) && typeof jwt.from === 'string' && (jwt.json_pointer === undefined || typeof jwt.json_pointer === 'string')) {
    if (!isClassifierAttributePath(jwt.from)) return unknownPath(jwt.from, `${path}.extractor.jwt.from`);
    const text = jwt.json_pointer ?? '';
    const pointer = parseJsonPointer(text);
    if (pointer === undefined) {
      return problem(`${path}.extractor.jwt.json_pointer`, `${JSON.stringify(text)} is not a JSON pointer (RFC 6901): it must be empty or start with "/", and "~" be followed by 0 or 1`);
    }
    return { rule: { label, kind: 'jwt', from: jwt.from, pointer, telemetry } };
  }
  const pt = extractor.path_templates;
  if (members.length === 1 && isObject(pt) && isObject(pt.template_values)) {
    const at = `${path}.extractor.path_templates.template_values`;
    const entries = Object.keys(pt.template_values);
    if (entries.length === 0) return problem(at, 'at least one path template');
    const templates: { template: PathTemplate; value: string }[] = [];
    for (const text of entries) {
      const value = pt.template_values[text];
      if (typeof value !== 'string' || value === '') return problem(memberPath(at, text), 'the value of a template is a non-empty string');
      const template = parsePathTemplate(text);
      if (typeof template === 'string') return problem(memberPath(at, text), `not a path template: ${template}`);
      templates.push({ template, value });
    }
    return { rule: { label, kind: 'path_templates', from: 'request.http.path', pointer: undefined, telemetry, templates: orderPathTemplates(templates) } };
  }
  return problem(`${path}.extractor`, 'an extractor is exactly one of {from}, {json: {from, pointer}}, {address: {from}}, {jwt: {from, json_pointer}} or {path_templates: {template_values}}');
}
