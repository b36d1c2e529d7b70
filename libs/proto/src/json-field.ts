import protobuf from 'protobufjs';

const byType = new WeakMap<protobuf.Type, ReadonlyMap<string, protobuf.Field>>();

/** The fields of a type by .proto name and by lowerCamelCase JSON name (a .proto name wins), built once per type. */
function fieldsByJsonKey(type: protobuf.Type): ReadonlyMap<string, protobuf.Field> {
  let names = byType.get(type);
  if (names === undefined) {
    const m = new Map<string, protobuf.Field>();
    for (const field of type.fieldsArray) m.set(field.name, field);
    for (const field of type.fieldsArray) {
      const json = protobuf.util.camelCase(field.name);
      if (!m.has(json)) m.set(json, field);
    }
    names = m;
    byType.set(type, names);
  }
  return names;
}

/**
 * The field a proto3 JSON key names: its .proto name or its lowerCamelCase JSON name (`controlPoint`).
 * Only the type's own fields count: `constructor` or `__proto__` name none.
 */
export function jsonField(type: protobuf.Type, key: string): protobuf.Field | undefined {
  return fieldsByJsonKey(type).get(key);
}
