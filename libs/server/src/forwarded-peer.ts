import * as grpc from '@grpc/grpc-js';

/**
 * The header the HTTP/2 front puts on every gRPC stream it hands to grpc-js: the client
 * connection's remote and local address and port, space-separated. A client's own header of this
 * name never gets through (the front drops it), and grpc-js is reached only through the front.
 */
export const PEER_HEADER = 'x-sluice-connection-peer';

type ConnectionInfo = ReturnType<grpc.ServerInterceptingCall['getConnectionInfo']>;

/** The header's value for a client connection; undefined when its remote address is not known (a Unix socket). */
export function peerHeaderValue(socket: { remoteAddress?: string; remotePort?: number; localAddress?: string; localPort?: number } | undefined): string | undefined {
  if (socket?.remoteAddress === undefined || socket.remoteAddress === '') return undefined;
  return [socket.remoteAddress, socket.remotePort ?? '', socket.localAddress ?? '', socket.localPort ?? ''].join(' ');
}

/** Parse the header's value; undefined when it is malformed. */
export function parsePeerHeader(value: string): ConnectionInfo | undefined {
  const [remoteAddress, remotePort, localAddress, localPort] = value.split(' ');
  if (remoteAddress === undefined || remoteAddress === '') return undefined;
  const port = (p: string | undefined): number | undefined => {
    const n = Number(p);
    return p === undefined || p === '' || !Number.isInteger(n) || n < 0 || n > 65535 ? undefined : n;
  };
  return { remoteAddress, remotePort: port(remotePort), localAddress: localAddress === '' ? undefined : localAddress, localPort: port(localPort) };
}

/** A call whose peer and connection are those the front forwarded, not the in-process connection's. */
class ForwardedPeerCall extends grpc.ServerInterceptingCall {
  constructor(next: grpc.ServerInterceptingCallInterface, responder: grpc.Responder, private readonly peer: () => ConnectionInfo | undefined) {
    super(next, responder);
  }

  override getPeer(): string {
    const info = this.peer();
    if (info?.remoteAddress === undefined) return super.getPeer();
    return info.remotePort === undefined ? info.remoteAddress : `${info.remoteAddress}:${info.remotePort}`;
  }

  override getConnectionInfo(): ConnectionInfo {
    return this.peer() ?? super.getConnectionInfo();
  }
}

/**
 * The first (innermost) interceptor of the server: takes PEER_HEADER out of the call's metadata
 * and answers getPeer()/getConnectionInfo() with the client connection it names, as grpc-js would
 * for a connection it accepted itself (`<address>:<port>`). Handlers and the other interceptors
 * never see the header.
 */
export function forwardedPeerInterceptor(): grpc.ServerInterceptor {
  return (_method, call) => {
    let peer: ConnectionInfo | undefined;
    return new ForwardedPeerCall(call, {
      start: (next) => next({
        onReceiveMetadata: (metadata, pass) => {
          const values = metadata.get(PEER_HEADER);
          metadata.remove(PEER_HEADER);
          const first = values[0];
          if (typeof first === 'string') peer = parsePeerHeader(first);
          pass(metadata);
        },
      }),
    }, () => peer);
  };
}
