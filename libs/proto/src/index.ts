export { PROTO_DIR, PROTO_FILES, LOADER_OPTIONS, SERVICE_NAMES, loadSluiceProtos, serviceClient, type ServiceKey } from './load.js';
export { jsonToStruct, jsonToValue, structToJson, valueToJson, StructConversionError, STRUCT_MAX_DEPTH, type JsonValue, type JsonObject, type ProtoValue, type ProtoStruct, type ProtoListValue } from './struct.js';
export { checkJsonMessage } from './check-json-message.js';
export { fromProto3Json } from './from-proto3-json.js';
export { parseTimestampJson, parseDurationJson, type SecondsNanos } from './proto3-time.js';
export { reflectionRoot, messageType } from './reflection.js';
export { toProto3Json } from './to-proto3-json.js';
export * from './generated/index.js';
export { enumNumbers, wireSerializer, withResponseSerializers, type WireSerializerOptions } from './wire-encoding.js';
