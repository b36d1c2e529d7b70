import * as protoLoader from '@grpc/proto-loader';
import * as grpc from '@grpc/grpc-js';
import { PROTO_DIR, PROTO_FILES } from './files.js';

export { PROTO_DIR, PROTO_FILES } from './files.js';

/**
 * Loader options: field names stay as written in the .proto (snake_case), so
 * the JSON of the HTTP routes and the gRPC messages share one spelling; bytes
 * decode to base64 strings (their proto3 JSON form). The generated types
 * (src/generated, `make proto`) are made with the same options.
 */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  bytes: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

let cached: grpc.GrpcObject | undefined;

/** All Sluice services and messages, loaded once. */
export function loadSluiceProtos(): grpc.GrpcObject {
  if (cached === undefined) {
    const def = protoLoader.loadSync(Object.values(PROTO_FILES), LOADER_OPTIONS);
    cached = grpc.loadPackageDefinition(def);
  }
  return cached;
}

function lookup(root: grpc.GrpcObject, dotted: string): grpc.ServiceClientConstructor {
  let node: unknown = root;
  for (const part of dotted.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'function') throw new Error(`service ${dotted} is not in the Sluice protos`);
  return node as grpc.ServiceClientConstructor;
}

export const SERVICE_NAMES = {
  flowControl: 'aperture.flowcontrol.check.v1.FlowControlService',
  flowControlHttp: 'sluice.flowcontrol.checkhttp.v1.FlowControlServiceHTTP',
  apertureFlowControlHttp: 'aperture.flowcontrol.checkhttp.v1.FlowControlServiceHTTP',
  flowPreview: 'sluice.flowcontrol.preview.v1.FlowPreviewService',
  controlPoints: 'sluice.flowcontrol.controlpoints.v1.ControlPointsService',
  envoyAuthorization: 'envoy.service.auth.v3.Authorization',
  cloudExtension: 'sluice.cloudext.v1.CloudExtensionService',
} as const;

export type ServiceKey = keyof typeof SERVICE_NAMES;

/** The client constructor (with `.service`, the server-side definition) of a service. */
export function serviceClient(key: ServiceKey): grpc.ServiceClientConstructor {
  return lookup(loadSluiceProtos(), SERVICE_NAMES[key]);
}
