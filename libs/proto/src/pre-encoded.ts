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
