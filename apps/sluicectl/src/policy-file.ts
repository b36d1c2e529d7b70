import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CliError } from './errors.js';

/** One policy read from a file: its name and spec, and the resource's dynamicConfig when it has one. */
export interface PolicyDocument {
  name: string;
  spec: Record<string, unknown>;
  dynamicConfig?: unknown;
  /** The resource's namespace, labels and annotations, when it has them (`--kube` keeps them). */
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Where it came from, for messages: `file.yaml` or `file.yaml (document 2)`. */
  source: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The policies of one parsed document: a Policy resource (`kind: Policy`, `metadata.name`, `spec`),
 * a `kind: List` of them, the API's body (`{"policy": <spec>}`) or a bare spec (`circuit`,
 * `resources`); the last two take `fallbackName`.
 */
export function policiesOf(doc: unknown, source: string, fallbackName: string | undefined): PolicyDocument[] {
  if (!isObject(doc)) throw new CliError(`${source}: want a Policy resource, {"policy": <spec>} or a policy spec, got ${doc === null ? 'nothing' : Array.isArray(doc) ? 'a list' : typeof doc}`);
  if (doc.kind === 'List' && Array.isArray(doc.items)) {
    return doc.items.flatMap((item, i) => policiesOf(item, `${source} item ${i}`, undefined));
  }
  if (doc.kind !== undefined) {
    if (doc.kind !== 'Policy') throw new CliError(`${source}: kind ${JSON.stringify(doc.kind)} is not a Policy`);
    const name = isObject(doc.metadata) ? doc.metadata.name : undefined;
    if (typeof name !== 'string' || name === '') throw new CliError(`${source}: a Policy resource needs metadata.name`);
    if (!isObject(doc.spec)) throw new CliError(`${source}: Policy ${name} has no spec object`);
    const meta = doc.metadata as Record<string, unknown>;
    const strings = (v: unknown): Record<string, string> | undefined => (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : undefined);
    const labels = strings(meta.labels);
    const annotations = strings(meta.annotations);
    return [{
      name, spec: doc.spec, source,
      ...(doc.dynamicConfig !== undefined ? { dynamicConfig: doc.dynamicConfig } : {}),
      ...(typeof meta.namespace === 'string' && meta.namespace !== '' ? { namespace: meta.namespace } : {}),
      ...(labels !== undefined ? { labels } : {}),
      ...(annotations !== undefined ? { annotations } : {}),
    }];
  }
  const spec = isObject(doc.policy) && Object.keys(doc).length === 1 ? doc.policy : doc;
  if (!('circuit' in spec) && !('resources' in spec)) {
    throw new CliError(`${source}: not a policy (want a Policy resource, {"policy": <spec>} or a spec with circuit or resources)`);
  }
  if (fallbackName === undefined || fallbackName === '') throw new CliError(`${source}: a policy spec without a resource around it needs --name`);
  return [{ name: fallbackName, spec, source }];
}

/** Every policy in a YAML or JSON file (several YAML documents allowed); `name` names a bare spec (default: the file's stem). */
export function readPolicyFile(path: string, name?: string): PolicyDocument[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  const docs = parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const present = list.filter((d) => d.contents !== null);
  const out: PolicyDocument[] = [];
  present.forEach((d, i) => {
    if (d.errors.length > 0) throw new CliError(`${path}: ${d.errors[0]?.message ?? 'not YAML or JSON'}`);
    const source = present.length > 1 ? `${path} (document ${i + 1})` : path;
    out.push(...policiesOf(d.toJS() as unknown, source, name ?? basename(path, extname(path))));
  });
  if (out.length === 0) throw new CliError(`${path}: no policy in it`);
  return out;
}
