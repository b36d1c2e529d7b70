// docs/api/openapi.yaml as validators: the documented operations, and for each
// documented response its content type and (for JSON) a compiled ajv schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { ROOT } from './processes.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Obj { [k: string]: Json }

/**
 * OpenAPI 3.0 `nullable: true` as JSON Schema: `type: T` becomes `type: [T, "null"]`
 * (and `null` joins an `enum`); without a `type` the schema already allows null.
 */
export function nullableToTypes(node: Json): Json {
  if (Array.isArray(node)) return node.map(nullableToTypes);
  if (node === null || typeof node !== 'object') return node;
  const out: Obj = {};
  for (const [k, v] of Object.entries(node)) if (k !== 'nullable') out[k] = nullableToTypes(v);
  if (node.nullable === true && typeof node.type === 'string') {
    out.type = [node.type, 'null'];
    if (Array.isArray(node.enum)) out.enum = [...node.enum, null];
  }
  return out;
}

const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

export interface DocumentedResponse {
  /** The media type of the documented content ('' when none). */
  mediaType: string;
  /** Validates a JSON body (application/json only). */
  validate?: ValidateFunction;
}

export interface Operation { path: string; method: string; responses: Map<string, DocumentedResponse> }

export interface Spec {
  operations: Operation[];
  operation(path: string, method: string): Operation;
  /** The compiled schema of components/schemas/<name>. */
  schema(name: string): ValidateFunction;
}

/** Loads and compiles docs/api/openapi.yaml. */
export function loadSpec(): Spec {
  const doc = nullableToTypes(parse(readFileSync(join(ROOT, 'docs/api/openapi.yaml'), 'utf8')) as Json) as Obj;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc as object, 'openapi');
  const deref = (node: Obj, pointer: string): [Obj, string] => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return [node, pointer];
    let target: Json = doc;
    for (const part of ref.slice(2).split('/')) target = (target as Obj)[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Json;
    return [target as Obj, ref.slice(1)];
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Obj)) {
    for (const [method, op] of Object.entries(item as Obj)) {
      const responses = new Map<string, DocumentedResponse>();
      for (const [status, resp] of Object.entries((op as Obj).responses as Obj)) {
        const [r, pointer] = deref(resp as Obj, `/paths/${escape(path)}/${method}/responses/${status}`);
        const content = (r.content ?? {}) as Obj;
        const mediaType = Object.keys(content)[0] ?? '';
        const documented: DocumentedResponse = { mediaType };
        if (mediaType === 'application/json') {
          documented.validate = ajv.compile({ $ref: `openapi#${pointer}/content/application~1json/schema` });
        }
        responses.set(status, documented);
      }
      operations.push({ path, method, responses });
    }
  }
  return {
    operations,
    operation(path, method) {
      const op = operations.find((o) => o.path === path && o.method === method);
      if (op === undefined) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
      return op;
    },
    schema: (name) => ajv.compile({ $ref: `openapi#/components/schemas/${name}` }),
  };
}

/**
 * Checks a reply against an operation: the status is documented, the content
 * type is the documented one, and a JSON body matches its schema. Answers the
 * problems (none when it conforms).
 */
export function conformance(op: Operation, reply: { status: number; headers: Headers; text: string }): string[] {
  const documented = op.responses.get(String(reply.status));
  if (documented === undefined) return [`status ${reply.status} is not documented (${[...op.responses.keys()].join(', ')}): ${reply.text.slice(0, 200)}`];
  const type = (reply.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (documented.mediaType !== '' && type !== documented.mediaType) return [`content type ${type}, documented ${documented.mediaType}`];
  if (documented.validate === undefined) return [];
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    return [`body is not JSON: ${reply.text.slice(0, 200)}`];
  }
  if (documented.validate(body)) return [];
  return (documented.validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
