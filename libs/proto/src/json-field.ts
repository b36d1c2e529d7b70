import protobuf from 'protobufjs';

/** The field a proto3 JSON key names: its .proto name or its lowerCamelCase JSON name (`controlPoint`). */
export function jsonField(type: protobuf.Type, key: string): protobuf.Field | undefined {
  const direct = type.fields[key];
  if (direct !== undefined) return direct;
  for (const field of type.fieldsArray) if (protobuf.util.camelCase(field.name) === key) return field;
  return undefined;
}
