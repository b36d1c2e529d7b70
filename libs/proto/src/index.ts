export { PROTO_DIR, PROTO_FILES, LOADER_OPTIONS, SERVICE_NAMES, loadSluiceProtos, serviceClient, type ServiceKey } from './load.js';
export { jsonToStruct, jsonToValue, structToJson, valueToJson, StructConversionError, STRUCT_MAX_DEPTH, type JsonValue, type JsonObject, type ProtoValue, type ProtoStruct, type ProtoListValue } from './struct.js';
