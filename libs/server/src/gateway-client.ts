import * as grpc from '@grpc/grpc-js';

/** Where the gateway dials the gRPC server, and how. */
export interface GatewayTarget {
  address: string;
  credentials: grpc.ChannelCredentials;
}

/**
 * One lazily created grpc-js client for all gateway routes; requests and responses travel
 * as bytes, serialized by the gateway with the registered service definition. Responses
 * have no size bound here: the server answering is trusted, and a reply of many samples
 * may well pass the 4 MiB default.
 */
export class GatewayClient {
  private client: grpc.Client | undefined;

  constructor(private readonly target: () => GatewayTarget) {}

  /**
   * Call one unary method. Aborting `signal` cancels the call (the server handler sees
   * `call.cancelled` and its 'cancelled' event); the promise then rejects with CANCELLED.
   */
  call(path: string, request: Buffer, timeoutMs: number | undefined, signal?: AbortSignal, authorization?: string): Promise<Buffer> {
    if (this.client === undefined) {
      const { address, credentials } = this.target();
      this.client = new grpc.Client(address, credentials, { 'grpc.max_receive_message_length': -1 });
    }
    const options: grpc.CallOptions = timeoutMs !== undefined && timeoutMs > 0 ? { deadline: Date.now() + timeoutMs } : {};
    const identity = (b: Buffer): Buffer => b;
    return new Promise((resolve, reject) => {
      const metadata = new grpc.Metadata();
      // The HTTP caller's credentials, checked again by the gRPC server when it asks for tokens.
      if (authorization !== undefined) metadata.set('authorization', authorization);
      const call = this.client!.makeUnaryRequest(path, identity, identity, request, metadata, options, (err, value) => {
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(value ?? Buffer.alloc(0));
      });
      function onAbort(): void {
        call.cancel();
      }
      if (signal?.aborted === true) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  close(): void {
    this.client?.close();
    this.client = undefined;
  }
}
