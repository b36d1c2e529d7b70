import { InvalidArgumentError } from '@sluice/errors';
import { CLASSIFIER_ADDRESS_PATHS, checkClassifierRule, matchesPathTemplate, pathSegments } from '@sluice/policies';
import type { CheckHTTPRequest__Output } from '@sluice/proto';
import type { Classifier } from '../check/component.js';
import { attributeReader, type AttributeReader } from './flow-attribute.js';
import type { FlowRequest } from '../check/flow-request.js';
import { resolveJsonPointer } from './json-pointer.js';

/** One rule: sets its label from an attribute path, a JSON pointer into an attribute (the body), or an address as `<ip>:<port>`. */
export interface ClassifierRule {
  extractor:
    | { from: string }
    | { json: { from: string; pointer: string } }
    | { address: { from: string } }
    | { jwt: { from: string; json_pointer: string } }
    | { path_templates: { template_values: Record<string, string> } };
  /** False: the label stays out of the baggage the answer sets and out of telemetry (it still reaches the flow). Default true. */
  telemetry?: boolean;
}

export interface PolicyClassifierOptions {
  identity: { policy_name: string; policy_hash: string; classifier_index: number };
  /** Label to set → its rule. */
  rules: Readonly<Record<string, ClassifierRule>>;
  /** Longest attribute (body) parsed as JSON, in UTF-16 code units; longer: the labels it feeds are absent. Default 1 MiB. */
  maxJsonLength?: number;
}

export const DEFAULT_MAX_JSON_LENGTH = 1 << 20;

interface CompiledRule {
  readonly label: string;
  readonly from: string;
  /** Key of the parsed document in the per-flow cache (`jwt:` before the path for a JWT's payload). */
  readonly docKey: string;
  readonly read: AttributeReader;
  /** Reference tokens of the JSON pointer; undefined for a plain attribute. */
  readonly pointer: readonly string[] | undefined;
  readonly telemetry: boolean;
}

const NOT_JSON: unique symbol = Symbol('not JSON');
type Parsed = unknown;

/** Parsed JSON attributes of one flow, shared by every classifier that reads them. */
const parsedByFlow = new WeakMap<CheckHTTPRequest__Output, Map<string, Parsed>>();

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The agent's compilation of a rule: the policy language's check (the controller runs the same), then the attribute's reader. */
function compileRule(label: string, rule: unknown, field: string): CompiledRule {
  const checked = checkClassifierRule(label, rule, field);
  if ('problem' in checked) throw new InvalidArgumentError(checked.problem.message, checked.problem.path);
  const { kind, from, pointer, telemetry } = checked.rule;
  const readFrom = attributeReader(from);
  if (readFrom === undefined) throw new InvalidArgumentError(`no reader for attribute path ${JSON.stringify(from)}`, field);
  let read = readFrom;
  if (kind === 'address') {
    const readPort = attributeReader(CLASSIFIER_ADDRESS_PATHS[from]);
    if (readPort === undefined) throw new InvalidArgumentError(`no port for address ${JSON.stringify(from)}`, field);
    read = (h) => {
      const ip = readFrom(h);
      const port = readPort(h);
      return ip === undefined || port === undefined ? undefined : `${ip}:${port}`;
    };
  }
  const templates = checked.rule.templates;
  if (kind === 'path_templates' && templates !== undefined) {
    read = (h) => {
      const path = readFrom(h);
      if (path === undefined) return undefined;
      const segments = pathSegments(path);
      for (const t of templates) if (matchesPathTemplate(t.template, segments)) return t.value;
      return undefined;
    };
  }
  if (kind === 'jwt') read = (h) => jwtPayload(readFrom(h));
  return { label, from, docKey: kind === 'jwt' ? `jwt:${from}` : from, read, pointer, telemetry };
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The payload text of a JWT (`header.payload.signature`, base64url), not verified; undefined when it is not one. */
function jwtPayload(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || !BASE64URL.test(parts[1])) return undefined;
  return Buffer.from(parts[1], 'base64url').toString('utf8');
}

function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/**
 * A policy's classifier: each rule sets a flow label from an HTTP attribute
 * (`request.http.headers.user-agent`, `request.http.method`, `source.address`,
 * …), from a JSON pointer into one (`request.http.body`), or from an
 * address and its port (`<ip>:<port>`), from the path template the path
 * matches (its value), or from a JSON pointer into the payload of a JWT
 * (not verified; `request.http.bearer` is the token of an
 * `Authorization: Bearer` header). A flow without
 * the attribute, a body the tap truncated, longer than `maxJsonLength` or
 * not JSON, or a pointer that leads to nothing or to an object leaves the
 * label absent. A body is parsed at most once per flow, however many rules
 * and classifiers read it. Flows of the check API (no HTTP attributes) are
 * not classified. The engine sanitizes the values. Labels of rules with
 * `telemetry: false` are listed in `hiddenLabels`: they stay out of the
 * baggage the answer sets and out of telemetry.
 */
export class PolicyClassifier implements Classifier {
  readonly kind = 'classifier' as const;
  readonly identity: { readonly policy_name: string; readonly policy_hash: string; readonly classifier_index: number };
  /** Labels of rules with `telemetry: false`; undefined when every rule's label may be seen. */
  readonly hiddenLabels: ReadonlySet<string> | undefined;
  private readonly rules: readonly CompiledRule[];
  private readonly maxJsonLength: number;

  /** Throws InvalidArgumentError naming the rule for an unknown attribute path or a bad pointer. */
  constructor(opts: PolicyClassifierOptions) {
    this.identity = opts.identity;
    this.maxJsonLength = opts.maxJsonLength ?? DEFAULT_MAX_JSON_LENGTH;
    const rules: CompiledRule[] = [];
    if (!isObject(opts.rules)) throw new InvalidArgumentError('classifier rules must be an object', 'rules');
    for (const label of Object.keys(opts.rules)) rules.push(compileRule(label, opts.rules[label], `rules.${label}`));
    this.rules = rules;
    const hidden = rules.filter((r) => !r.telemetry).map((r) => r.label);
    this.hiddenLabels = hidden.length === 0 ? undefined : new Set(hidden);
  }

  classify(_labels: unknown, flow: FlowRequest): Readonly<Record<string, string>> | undefined {
    const http = flow.http;
    if (http === undefined) return undefined;
    let out: Record<string, string> | undefined;
    for (const rule of this.rules) {
      const value = rule.pointer === undefined ? rule.read(http) : this.fromJson(http, rule);
      if (value === undefined) continue;
      out ??= {};
      Object.defineProperty(out, rule.label, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  private fromJson(http: CheckHTTPRequest__Output, rule: CompiledRule): string | undefined {
    let cache = parsedByFlow.get(http);
    let doc: Parsed = cache?.get(rule.docKey);
    if (doc === undefined) {
      const text = rule.read(http);
      doc = NOT_JSON;
      if (text !== undefined && text.length <= this.maxJsonLength) {
        try {
          doc = JSON.parse(text) as unknown;
        } catch {
          doc = NOT_JSON;
        }
      }
      if (cache === undefined) {
        cache = new Map();
        parsedByFlow.set(http, cache);
      }
      cache.set(rule.docKey, doc);
    }
    if (doc === NOT_JSON) return undefined;
    return scalarText(resolveJsonPointer(doc, rule.pointer ?? []));
  }
}
