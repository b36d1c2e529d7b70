import protobuf from 'protobufjs';
import { PROTO_DIR, PROTO_FILES } from '@sluice/proto/files';

let root: protobuf.Root | undefined;

/**
 * checkhttp.proto and check.proto as protobufjs reflection (field names as
 * written), loaded once: the tap's encoder and lean decoders are made from
 * it, so no field number or type is written a second time.
 */
export function checkProtos(): protobuf.Root {
  if (root === undefined) {
    const r = new protobuf.Root();
    r.resolvePath = (_origin, target) => (target.startsWith('/') ? target : `${PROTO_DIR}/${target}`);
    r.loadSync([PROTO_FILES.checkhttp, PROTO_FILES.check], { keepCase: true });
    root = r;
  }
  return root;
}

/** The HTTP/2 path of a method of FlowControlServiceHTTP: `/package.Service/Method`. */
export function checkMethodPath(method: 'CheckHTTP' | 'CheckHTTPStream'): string {
  const service = checkProtos().lookupService('sluice.flowcontrol.checkhttp.v1.FlowControlServiceHTTP');
  const m = service.methods[method];
  if (m === undefined) throw new Error(`${method} is missing from FlowControlServiceHTTP`);
  return `/${service.fullName.slice(1)}/${m.name}`;
}
