import path from 'node:path';
import protobuf from 'protobufjs';
import { PROTO_DIR, PROTO_FILES } from './load.js';

let root: protobuf.Root | undefined;

/** A new protobufjs Root of the Sluice protos, every type resolved. */
export function loadReflectionRoot(): protobuf.Root {
  const r = new protobuf.Root();
  r.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(PROTO_DIR, target));
  r.loadSync(Object.values(PROTO_FILES), { keepCase: true });
  r.resolveAll();
  return r;
}

/** The Sluice protos as protobufjs reflection objects, loaded once (for checks the loader does not make). */
export function reflectionRoot(): protobuf.Root {
  if (root === undefined) root = loadReflectionRoot();
  return root;
}

/** The message type of a fully-qualified name (`sluice.flowcontrol.checkhttp.v1.CheckHTTPRequest`). */
export function messageType(fullName: string): protobuf.Type {
  return reflectionRoot().lookupType(fullName);
}
