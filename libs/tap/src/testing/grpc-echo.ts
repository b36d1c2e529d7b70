import * as grpc from '@grpc/grpc-js';

const identity = (b: Buffer): Buffer => b;

function method(name: string, requestStream: boolean, responseStream: boolean): grpc.MethodDefinition<Buffer, Buffer> {
  return {
    path: `/sluice.test.Echo/${name}`, requestStream, responseStream,
    requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity,
    originalName: name,
  };
}

/**
 * A gRPC service of raw bytes (no .proto needed): `sluice.test.Echo` with
 * Unary (answers its request; metadata `fail: <code>` fails with that code),
 * Slow (answers after the milliseconds its request says), Count (server
 * streaming: as many messages as its request says, `0`..`n-1`), Join (client
 * streaming: answers its messages joined with `+` once the client ends) and Bidi
 * (answers each message upper-cased until the client ends). Every answer ends
 * with the trailing metadata `x-echo-trailer: done`.
 */
export const ECHO_SERVICE = {
  Unary: method('Unary', false, false),
  Slow: method('Slow', false, false),
  Count: method('Count', false, true),
  Join: method('Join', true, false),
  Bidi: method('Bidi', true, true),
} satisfies grpc.ServiceDefinition;

export type EchoClient = grpc.Client & {
  Unary(req: Buffer, md: grpc.Metadata, opts: grpc.CallOptions, cb: grpc.requestCallback<Buffer>): grpc.ClientUnaryCall;
  Slow(req: Buffer, md: grpc.Metadata, opts: grpc.CallOptions, cb: grpc.requestCallback<Buffer>): grpc.ClientUnaryCall;
  Count(req: Buffer, md?: grpc.Metadata, opts?: grpc.CallOptions): grpc.ClientReadableStream<Buffer>;
  Join(cb: grpc.requestCallback<Buffer>): grpc.ClientWritableStream<Buffer>;
  Bidi(md?: grpc.Metadata, opts?: grpc.CallOptions): grpc.ClientDuplexStream<Buffer, Buffer>;
};

/** A client of the echo service at `host:port` (plaintext). */
export function echoClient(address: string, options: grpc.ChannelOptions = {}): EchoClient {
  const Ctor = grpc.makeGenericClientConstructor(ECHO_SERVICE, 'Echo');
  return new Ctor(address, grpc.credentials.createInsecure(), options) as unknown as EchoClient;
}

function trailer(): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set('x-echo-trailer', 'done');
  return md;
}

export interface EchoServer {
  /** `127.0.0.1:port` */
  readonly address: string;
  readonly port: number;
  /** Calls received, by method. */
  readonly calls: Record<'Unary' | 'Slow' | 'Count' | 'Join' | 'Bidi', number>;
  /** Metadata of the last call received. */
  lastMetadata(): grpc.Metadata | undefined;
  /** What was left of the last Slow call's deadline when it arrived (ms; undefined without one). */
  lastDeadlineLeftMs(): number | undefined;
  close(): Promise<void>;
}

/** The echo service on a real grpc-js server on 127.0.0.1 and a free port. */
export async function startEchoServer(): Promise<EchoServer> {
  const server = new grpc.Server();
  const calls = { Unary: 0, Slow: 0, Count: 0, Join: 0, Bidi: 0 };
  let last: grpc.Metadata | undefined;
  let deadlineLeft: number | undefined;
  const timers = new Set<NodeJS.Timeout>();
  server.addService(ECHO_SERVICE, {
    Unary(call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) {
      calls.Unary++;
      last = call.metadata;
      const fail = call.metadata.get('fail')[0];
      if (fail !== undefined) cb({ code: Number(fail), details: `failed as asked (${String(fail)})`, metadata: trailer() });
      else cb(null, call.request, trailer());
    },
    Slow(call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) {
      calls.Slow++;
      last = call.metadata;
      const deadline = Number(call.getDeadline());
      deadlineLeft = Number.isFinite(deadline) ? deadline - Date.now() : undefined;
      const t = setTimeout(() => {
        timers.delete(t);
        cb(null, call.request, trailer());
      }, Number(call.request.toString()) || 0);
      timers.add(t);
      call.on('cancelled', () => {
        clearTimeout(t);
        timers.delete(t);
      });
    },
    Count(call: grpc.ServerWritableStream<Buffer, Buffer>) {
      calls.Count++;
      last = call.metadata;
      const n = Number(call.request.toString()) || 0;
      for (let i = 0; i < n; i++) call.write(Buffer.from(String(i)));
      call.end(trailer());
    },
    Join(call: grpc.ServerReadableStream<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) {
      calls.Join++;
      last = call.metadata;
      const parts: string[] = [];
      call.on('data', (m: Buffer) => parts.push(m.toString()));
      call.on('end', () => cb(null, Buffer.from(parts.join('+')), trailer()));
      call.on('error', () => undefined);
    },
    Bidi(call: grpc.ServerDuplexStream<Buffer, Buffer>) {
      calls.Bidi++;
      last = call.metadata;
      call.on('data', (m: Buffer) => call.write(Buffer.from(m.toString().toUpperCase())));
      call.on('end', () => call.end(trailer()));
      call.on('error', () => undefined);
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  return {
    address: `127.0.0.1:${port}`,
    port,
    calls,
    lastMetadata: () => last,
    lastDeadlineLeftMs: () => deadlineLeft,
    close() {
      for (const t of timers) clearTimeout(t);
      server.forceShutdown();
      return Promise.resolve();
    },
  };
}

/** One unary call; resolves with the answer, or the error (a grpc.ServiceError) and the trailers either way. */
export function unary(client: EchoClient, name: 'Unary' | 'Slow', body: string, opts: { metadata?: grpc.Metadata; deadlineMs?: number } = {}): Promise<{ value?: Buffer; error?: grpc.ServiceError; trailers?: grpc.Metadata }> {
  return new Promise((resolve) => {
    let trailers: grpc.Metadata | undefined;
    let result: { value?: Buffer; error?: grpc.ServiceError } | undefined;
    const done = (): void => {
      if (result !== undefined && trailers !== undefined) resolve({ ...result, trailers });
    };
    const call = client[name](Buffer.from(body), opts.metadata ?? new grpc.Metadata(),
      opts.deadlineMs === undefined ? {} : { deadline: Date.now() + opts.deadlineMs }, (error, value) => {
        result = error === null ? { value: value as Buffer } : { error };
        if (error !== null) trailers ??= error.metadata;
        done();
      });
    call.on('status', (s: grpc.StatusObject) => {
      trailers = s.metadata;
      done();
    });
  });
}
