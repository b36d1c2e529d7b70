import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Where the .proto files are, with nothing else loaded: a process that reads a few of them with
 * protobufjs (the separate tap) imports `@sluice/proto/files` instead of the whole library (the
 * gRPC loader of every service).
 */

/** Directory holding the .proto files of Sluice (shipped beside dist/). */
export const PROTO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'proto');

export const PROTO_FILES = {
  check: 'aperture/flowcontrol/check/v1/check.proto',
  checkhttp: 'sluice/flowcontrol/checkhttp/v1/checkhttp.proto',
  apertureCheckhttp: 'aperture/flowcontrol/checkhttp/v1/checkhttp.proto',
  preview: 'sluice/flowcontrol/preview/v1/preview.proto',
  controlpoints: 'sluice/flowcontrol/controlpoints/v1/controlpoints.proto',
  envoyAuth: 'envoy/service/auth/v3/external_auth.proto',
  cloudext: 'sluice/cloudext/v1/heartbeat.proto',
} as const;

