// Protobuf request bodies of the Kubernetes wire protocol, for what client-go (helm's release
// storage) sends: `k8s\0`, then a runtime.Unknown whose typeMeta names the kind and whose raw bytes
// are the object. Decoded here to the JSON the same object has on the JSON wire: core/v1 Secret and
// ConfigMap, meta/v1 DeleteOptions. Any other kind, an encoding (contentEncoding) or a body without
// the magic is 415, naming what was sent. Field numbers are those of Kubernetes' generated.proto.
import protobuf from 'protobufjs';
import { ApiError, badRequest } from './api-error.js';

const PROTO = `
syntax = "proto2";
package k8s;
message Unknown { optional TypeMeta typeMeta = 1; optional bytes raw = 2; optional string contentEncoding = 3; optional string contentType = 4; }
message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message OwnerReference { optional string kind = 1; optional string name = 3; optional string uid = 4; optional string apiVersion = 5; optional bool controller = 6; optional bool blockOwnerDeletion = 7; }
message ObjectMeta {
  optional string name = 1; optional string generateName = 2; optional string namespace = 3; optional string selfLink = 4;
  optional string uid = 5; optional string resourceVersion = 6; optional int64 generation = 7;
  optional Time creationTimestamp = 8; optional Time deletionTimestamp = 9; optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11; map<string, string> annotations = 12; repeated OwnerReference ownerReferences = 13;
  repeated string finalizers = 14;
}
message Secret { optional ObjectMeta metadata = 1; map<string, bytes> data = 2; optional string type = 3; map<string, string> stringData = 4; optional bool immutable = 5; }
message ConfigMap { optional ObjectMeta metadata = 1; map<string, string> data = 2; map<string, bytes> binaryData = 3; optional bool immutable = 4; }
message Preconditions { optional string uid = 1; optional string resourceVersion = 2; }
message DeleteOptions { optional int64 gracePeriodSeconds = 1; optional Preconditions preconditions = 2; optional bool orphanDependents = 3; optional string propagationPolicy = 4; repeated string dryRun = 5; }
`;

const root = protobuf.parse(PROTO, { keepCase: true }).root;
const message = (name: string): protobuf.Type => root.lookupType(`k8s.${name}`);
const MAGIC = Buffer.from('k8s\0', 'latin1');

type Obj = Record<string, unknown>;

/**
 * The kinds read from protobuf: the group-versions accepted in typeMeta.apiVersion, and the message.
 * DeleteOptions is registered in every group-version (a client of apps/v1 sends apps/v1), so any
 * `v1` version is read.
 */
const KINDS: Record<string, { apiVersion: (v: string) => boolean; type: string }> = {
  Secret: { apiVersion: (v) => v === 'v1', type: 'Secret' },
  ConfigMap: { apiVersion: (v) => v === 'v1', type: 'ConfigMap' },
  DeleteOptions: { apiVersion: (v) => v === 'v1' || /^[a-z0-9.-]+\/v1$/.test(v), type: 'DeleteOptions' },
};

export const PROTOBUF_KINDS = Object.keys(KINDS);

function unsupported(message: string): ApiError {
  return new ApiError(415, 'UnsupportedMediaType', message);
}

/** The JSON form of a protobuf body: `{apiVersion, kind, ...}` as the JSON wire would carry it. */
export function decodeProtobufBody(body: Buffer): Obj {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw unsupported('a protobuf body must start with the Kubernetes magic "k8s\\x00"');
  }
  let unknown: Obj;
  try {
    unknown = message('Unknown').toObject(message('Unknown').decode(body.subarray(MAGIC.length))) as Obj;
  } catch (err) {
    throw badRequest(`the protobuf body could not be decoded: ${(err as Error).message}`);
  }
  const tm = (unknown.typeMeta ?? {}) as Obj;
  const kind = typeof tm.kind === 'string' ? tm.kind : '';
  const apiVersion = typeof tm.apiVersion === 'string' ? tm.apiVersion : '';
  const known = KINDS[kind];
  if (!known || !known.apiVersion(apiVersion)) {
    throw unsupported(`the test API server reads protobuf bodies of ${PROTOBUF_KINDS.join(', ')} only, not ${apiVersion === '' ? '' : `${apiVersion}, `}Kind=${kind === '' ? '(none)' : kind}: send JSON (kubectl's \`create <kind> NAME\` generators send protobuf; \`kubectl create -f\` and \`apply -f\` send JSON)`);
  }
  if (typeof unknown.contentEncoding === 'string' && unknown.contentEncoding !== '') {
    throw unsupported(`protobuf bodies with contentEncoding ${unknown.contentEncoding} are not read`);
  }
  const raw = unknown.raw instanceof Uint8Array ? unknown.raw : new Uint8Array(0);
  let decoded: Obj;
  try {
    const t = message(known.type);
    decoded = t.toObject(t.decode(raw), { longs: Number, bytes: String, arrays: false, objects: false }) as Obj;
  } catch (err) {
    throw badRequest(`the protobuf ${kind} could not be decoded: ${(err as Error).message}`);
  }
  return { apiVersion, kind, ...(kind === 'DeleteOptions' ? deleteOptions(decoded) : withMeta(decoded)) };
}

function nonEmpty(o: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

/** A Secret or ConfigMap: its metadata as JSON, its other fields as they are (empty ones left out). */
function withMeta(o: Obj): Obj {
  const { metadata, ...rest } = o;
  const out = nonEmpty(rest);
  out.metadata = objectMeta((metadata ?? {}) as Obj);
  return out;
}

function objectMeta(m: Obj): Obj {
  const out = nonEmpty({ ...m, creationTimestamp: time(m.creationTimestamp), deletionTimestamp: time(m.deletionTimestamp) });
  if (out.generation === 0) delete out.generation;
  if (Array.isArray(out.ownerReferences)) out.ownerReferences = out.ownerReferences.map((r) => nonEmpty(r as Obj));
  return out;
}

/** meta/v1 Time: seconds and nanos since the epoch, RFC 3339 in JSON; the zero Time is absent. */
function time(t: unknown): string | undefined {
  const s = typeof t === 'object' && t !== null ? (t as Obj).seconds : undefined;
  if (typeof s !== 'number' || s === 0) return undefined;
  return new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** DeleteOptions: its fields are pointers in Go, present on the wire only when set (0 and false too). */
function deleteOptions(o: Obj): Obj {
  const out: Obj = { ...o };
  if (out.preconditions !== undefined) out.preconditions = nonEmpty(out.preconditions as Obj);
  if (Array.isArray(out.dryRun) && out.dryRun.length === 0) delete out.dryRun;
  return out;
}

/**
 * The body as JSON bytes: JSON as it came; protobuf decoded (Secret and ConfigMap on POST and PUT,
 * DeleteOptions on DELETE); CBOR and any other protobuf body 415.
 */
export function jsonBody(method: string, contentType: string, body: Buffer): Buffer {
  if (body.length === 0) return body;
  if (/cbor/.test(contentType)) throw unsupported(`the test API server does not read ${contentType} bodies: send JSON`);
  if (!/protobuf/.test(contentType)) return body;
  const obj = decodeProtobufBody(body);
  const wanted = method === 'DELETE' ? obj.kind === 'DeleteOptions' : (method === 'POST' || method === 'PUT') && obj.kind !== 'DeleteOptions';
  if (!wanted) throw unsupported(`a protobuf ${String(obj.kind)} body is not read on ${method} (protobuf is read for Secret and ConfigMap on POST and PUT, DeleteOptions on DELETE): send JSON`);
  return Buffer.from(JSON.stringify(obj));
}

/**
 * Whether an Accept header takes the JSON this server answers: a media range of application/json
 * (with any parameters, e.g. `;as=Table`), application/*, *\/*, or no header. helm and kubectl ask
 * `application/vnd.kubernetes.protobuf,application/json`; a protobuf-only Accept is 406.
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const type = range.split(';')[0].trim().toLowerCase();
    return type === 'application/json' || type === 'application/*' || type === '*/*';
  });
}
