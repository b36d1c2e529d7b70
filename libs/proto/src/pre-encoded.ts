import protobuf from 'protobufjs';
import { loadReflectionRoot } from './reflection.js';

/** Where the variants of the messages with pre-encoded fields are defined: a Root of their own, the shared one unchanged. */
let root: protobuf.Root | undefined;
const made = new Map<string, protobuf.Type | null>();

function variantRoot(): protobuf.Root {
  if (root === undefined) root = loadReflectionRoot();
  return root;
}

/**
 * `type` as written by a sender that holds the messages of the `preEncoded` types already
 * encoded: a variant of it (in a Root of its own, named `<Type>__PreEncoded` beside it) whose
 * fields of those types, at any depth, are `bytes` fields of the same number and rule (a
 * length-delimited field, as protobuf writes an embedded message), so their values are the
 * Uint8Array encodings of those messages. Undefined when `type` holds no such field.
 * Field numbers, names and every other field come from the loaded .proto. Encoding only:
 * oneof groupings are not carried over (the encoder writes whichever member is set).
 */
export function preEncodedVariant(fullName: string, preEncoded: ReadonlySet<string>): protobuf.Type | undefined {
  return variantOf(variantRoot().lookupType(fullName), preEncoded) ?? undefined;
}

function bare(fullName: string): string {
  return fullName.startsWith('.') ? fullName.slice(1) : fullName;
}

function variantOf(type: protobuf.Type, pre: ReadonlySet<string>): protobuf.Type | null {
  const key = `${bare(type.fullName)}|${[...pre].sort().join(',')}`;
  const known = made.get(key);
  if (known !== undefined) return known;
  made.set(key, null); // a recursive type refers to itself as it is
  let changed = false;
  const fields: Array<protobuf.Field | protobuf.MapField> = [];
  for (const f of type.fieldsArray) {
    f.resolve();
    const rule = f.repeated ? 'repeated' : undefined;
    const target = f.resolvedType;
    if (f instanceof protobuf.MapField) {
      fields.push(new protobuf.MapField(f.name, f.id, f.keyType, target === null ? f.type : target.fullName));
    } else if (target instanceof protobuf.Type && pre.has(bare(target.fullName))) {
      fields.push(new protobuf.Field(f.name, f.id, 'bytes', rule));
      changed = true;
    } else {
      const inner = target instanceof protobuf.Type ? variantOf(target, pre) : null;
      if (inner !== null) changed = true;
      fields.push(new protobuf.Field(f.name, f.id, inner !== null ? inner.fullName : target === null ? f.type : target.fullName, rule));
    }
  }
  if (!changed) return null;
  const variant = new protobuf.Type(`${type.name}__PreEncoded`);
  for (const f of fields) variant.add(f);
  (type.parent as protobuf.Namespace).add(variant);
  variant.resolveAll();
  made.set(key, variant);
  return variant;
}

/** Bytes of a varint of `n` (0 <= n < 2^53). */
export function varintLength(n: number): number {
  let len = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    len++;
  }
  return len;
}

/** Write `n` (0 <= n < 2^53) as a varint at `at`; answers the offset after it. */
export function writeVarint(buf: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    buf[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  buf[at++] = n;
  return at;
}

/** Protobuf's wire type of a length-delimited field (an embedded message, bytes, a string). */
const LENGTH_DELIMITED = 2;

/** Protobuf's wire types of the scalar types written with a fixed width (the rest of the scalars are varints). */
const FIXED_WIRE_TYPE: Readonly<Record<string, number>> = { double: 1, fixed64: 1, sfixed64: 1, float: 5, fixed32: 5, sfixed32: 5 };

/**
 * The tag of a singular field of `typeName` (its number read from the .proto, and its wire
 * type), as the varint that starts the field on the wire. Throws for an unknown, repeated or
 * map field.
 */
export function fieldTag(typeName: string, fieldName: string): number {
  const field = variantRoot().lookupType(typeName).fields[fieldName];
  if (field === undefined) throw new TypeError(`fieldTag: ${typeName} has no field ${fieldName}`);
  if (field.repeated || field.map) throw new TypeError(`fieldTag: ${typeName}.${fieldName} is repeated`);
  field.resolve();
  const delimited = field.resolvedType instanceof protobuf.Type || field.type === 'string' || field.type === 'bytes';
  return field.id * 8 + (delimited ? LENGTH_DELIMITED : FIXED_WIRE_TYPE[field.type] ?? 0);
}

/**
 * The tag each element of the repeated message field `fieldName` of `typeName` starts with on
 * the wire (its number read from the .proto; an embedded message is length-delimited). Throws
 * for an unknown field, or one that is not a repeated message field.
 */
export function elementTag(typeName: string, fieldName: string): number {
  const field = variantRoot().lookupType(typeName).fields[fieldName];
  if (field === undefined) throw new TypeError(`elementTag: ${typeName} has no field ${fieldName}`);
  field.resolve();
  if (!field.repeated || field.map || !(field.resolvedType instanceof protobuf.Type)) {
    throw new TypeError(`elementTag: ${typeName}.${fieldName} is not a repeated message field`);
  }
  return field.id * 8 + LENGTH_DELIMITED;
}

/**
 * A writer of `prefix` (the encoding of some fields of a message of `typeName`) followed by
 * its field `fieldName` (a message field; its number read from the .proto) holding `body`,
 * the encoding of that field's message: the bytes of the whole message, for a sender that
 * keeps the encoding of the fields that do not change and encodes only the one that does.
 * Throws when the type has no such message field.
 */
export function embeddedFieldWriter(typeName: string, fieldName: string): (prefix: Uint8Array, body: Uint8Array) => Buffer {
  const field = variantRoot().lookupType(typeName).fields[fieldName];
  if (field === undefined) throw new TypeError(`embeddedFieldWriter: ${typeName} has no field ${fieldName}`);
  field.resolve();
  if (!(field.resolvedType instanceof protobuf.Type) || field.map) throw new TypeError(`embeddedFieldWriter: ${typeName}.${fieldName} is not a message field`);
  const tag = field.id * 8 + LENGTH_DELIMITED;
  const tagLength = varintLength(tag);
  return (prefix, body) => {
    const out = Buffer.allocUnsafe(prefix.length + tagLength + varintLength(body.length) + body.length);
    out.set(prefix, 0);
    let at = writeVarint(out, prefix.length, tag);
    at = writeVarint(out, at, body.length);
    out.set(body, at);
    return out;
  };
}
