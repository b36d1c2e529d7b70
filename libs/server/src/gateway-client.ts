import * as grpc from '@grpc/grpc-js';

/** Where the gateway dials the gRPC server, and how. */
export interface GatewayTarget {
  address: string;
  credentials: grpc.ChannelCredentials;
}

/**
 * One lazily created grpc-js client for all gateway routes; requests and responses travel
 * as bytes, serialized by the gateway with the registered service definition.
 */
export class GatewayClient {
  private client: grpc.Client | undefined;

  constructor(private readonly target: () => GatewayTarget) {}

  call(path: string, request: Buffer, timeoutMs: number | undefined): Promise<Buffer> {
    if (this.client === undefined) {
      const { address, credentials } = this.target();
      this.client = new grpc.Client(address, credentials);
    }
    const options: grpc.CallOptions = timeoutMs !== undefined && timeoutMs > 0 ? { deadline: Date.now() + timeoutMs } : {};
    const identity = (b: Buffer): Buffer => b;
    return new Promise((resolve, reject) => {
      this.client!.makeUnaryRequest(path, identity, identity, request, new grpc.Metadata(), options, (err, value) => {
        if (err) reject(err);
        else resolve(value ?? Buffer.alloc(0));
      });
    });
  }

  close(): void {
    this.client?.close();
    this.client = undefined;
  }
}
