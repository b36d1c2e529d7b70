import * as grpc from '@grpc/grpc-js';
import { serviceClient } from '@sluice/proto';
import type { CheckHTTPStreamRequest, CheckHTTPStreamResponse } from '../check/check-stream.js';
import type { CheckHTTPRequest, CheckHTTPResponse } from '../check/types.js';
import type { FlowEndRequest__Output } from '@sluice/proto';
import { GrpcCode } from '@sluice/errors';

/** What the canned agent answers: a response, after an optional delay, or a gRPC error. */
export type CannedAnswer =
  | { response: Partial<CheckHTTPResponse>; delayMs?: number }
  | { error: { code: grpc.status; message: string }; delayMs?: number };

export interface CannedAgentOptions {
  /** Keep every request in `requests` (default true). */
  record?: boolean;
  port?: number;
  /** Serve unary CheckHTTP only, as an agent older than CheckHTTPStream (the stream answers UNIMPLEMENTED). */
  unaryOnly?: boolean;
}

export interface CannedAgent {
  /** `127.0.0.1:port` */
  readonly address: string;
  /** Every request received, in order. */
  readonly requests: CheckHTTPRequest[];
  /** FlowEnd calls received (aperture.flowcontrol.check.v1.FlowControlService), in order. */
  readonly flowEnds: FlowEndRequest__Output[];
  /** Requests received by way of unary CheckHTTP and of CheckHTTPStream, and streams opened. */
  readonly calls: { unary: number; streamed: number; streams: number };
  /** Replaces the answering function. */
  answer(fn: (request: CheckHTTPRequest) => CannedAnswer): void;
  /** Ends every open stream with `code` (the checks waiting on them get no answer). */
  breakStreams(code: grpc.status, message: string): void;
  close(): Promise<void>;
}

export const ACCEPT: CannedAnswer = { response: { ok_response: { headers: [] } } };

type StreamCall = grpc.ServerDuplexStream<CheckHTTPStreamRequest, CheckHTTPStreamResponse>;

/**
 * A real gRPC server implementing FlowControlServiceHTTP (CheckHTTP and,
 * unless `unaryOnly`, CheckHTTPStream) with answers chosen by the test (or
 * benchmark), and FlowEnd (recorded), on 127.0.0.1 and a free port.
 */
export async function startCannedAgent(answer: (request: CheckHTTPRequest) => CannedAnswer = () => ACCEPT, opts: CannedAgentOptions = {}): Promise<CannedAgent> {
  let fn = answer;
  const record = opts.record ?? true;
  const requests: CheckHTTPRequest[] = [];
  const flowEnds: FlowEndRequest__Output[] = [];
  const calls = { unary: 0, streamed: 0, streams: 0 };
  const server = new grpc.Server();
  const timers = new Set<NodeJS.Timeout>();
  const streams = new Set<StreamCall>();
  const later = (delayMs: number | undefined, reply: () => void): void => {
    if (delayMs === undefined || delayMs <= 0) return reply();
    const t = setTimeout(() => {
      timers.delete(t);
      reply();
    }, delayMs);
    timers.add(t);
  };
  const impl: grpc.UntypedServiceImplementation = {
    CheckHTTP(call: grpc.ServerUnaryCall<CheckHTTPRequest, CheckHTTPResponse>, callback: grpc.sendUnaryData<CheckHTTPResponse>) {
      calls.unary++;
      if (record) requests.push(call.request);
      const a = fn(call.request);
      later(a.delayMs, () => {
        if ('error' in a) callback({ code: a.error.code, details: a.error.message });
        else callback(null, a.response as CheckHTTPResponse);
      });
    },
  };
  if (opts.unaryOnly !== true) {
    impl.CheckHTTPStream = (call: StreamCall) => {
      calls.streams++;
      streams.add(call);
      const forget = (): void => { streams.delete(call); };
      call.on('cancelled', forget);
      call.on('error', forget);
      call.on('end', () => { forget(); call.end(); });
      call.on('data', (m: CheckHTTPStreamRequest) => {
        calls.streamed++;
        if (record) requests.push(m.request);
        const a = fn(m.request);
        later(a.delayMs, () => {
          if (!streams.has(call)) return;
          if ('error' in a) call.write({ id: m.id, response: null, code: a.error.code, message: a.error.message });
          else call.write({ id: m.id, response: a.response as CheckHTTPResponse, code: GrpcCode.OK, message: '' });
        });
      });
    };
  }
  server.addService(serviceClient('flowControlHttp').service, impl);
  server.addService(serviceClient('flowControl').service, {
    FlowEnd(call: grpc.ServerUnaryCall<FlowEndRequest__Output, object>, callback: grpc.sendUnaryData<object>) {
      flowEnds.push(call.request);
      callback(null, {});
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`127.0.0.1:${opts.port ?? 0}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  return {
    address: `127.0.0.1:${port}`,
    requests,
    flowEnds,
    calls,
    answer(next) {
      fn = next;
    },
    breakStreams(code, message) {
      for (const call of [...streams]) {
        streams.delete(call);
        call.emit('error', { code, details: message });
      }
    },
    close() {
      for (const t of timers) clearTimeout(t);
      server.forceShutdown();
      return Promise.resolve();
    },
  };
}
