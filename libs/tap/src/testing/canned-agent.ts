import * as grpc from '@grpc/grpc-js';
import { serviceClient } from '@sluice/proto';
import type { CheckHTTPRequest, CheckHTTPResponse } from '../check/types.js';

/** What the canned agent answers: a response, after an optional delay, or a gRPC error. */
export type CannedAnswer =
  | { response: Partial<CheckHTTPResponse>; delayMs?: number }
  | { error: { code: grpc.status; message: string }; delayMs?: number };

export interface CannedAgent {
  /** `127.0.0.1:port` */
  readonly address: string;
  /** Every request received, in order. */
  readonly requests: CheckHTTPRequest[];
  /** Replaces the answering function. */
  answer(fn: (request: CheckHTTPRequest) => CannedAnswer): void;
  close(): Promise<void>;
}

export const ACCEPT: CannedAnswer = { response: { ok_response: { headers: [] } } };

/**
 * A real gRPC server implementing FlowControlServiceHTTP.CheckHTTP with
 * answers chosen by the test (or benchmark), on 127.0.0.1 and a free port.
 */
export async function startCannedAgent(answer: (request: CheckHTTPRequest) => CannedAnswer = () => ACCEPT, opts: { record?: boolean; port?: number } = {}): Promise<CannedAgent> {
  let fn = answer;
  const record = opts.record ?? true;
  const requests: CheckHTTPRequest[] = [];
  const server = new grpc.Server();
  const timers = new Set<NodeJS.Timeout>();
  server.addService(serviceClient('flowControlHttp').service, {
    CheckHTTP(call: grpc.ServerUnaryCall<CheckHTTPRequest, CheckHTTPResponse>, callback: grpc.sendUnaryData<CheckHTTPResponse>) {
      if (record) requests.push(call.request);
      const a = fn(call.request);
      const reply = (): void => {
        if ('error' in a) callback({ code: a.error.code, details: a.error.message });
        else callback(null, a.response as CheckHTTPResponse);
      };
      if (a.delayMs === undefined || a.delayMs <= 0) reply();
      else {
        const t = setTimeout(() => {
          timers.delete(t);
          reply();
        }, a.delayMs);
        timers.add(t);
      }
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`127.0.0.1:${opts.port ?? 0}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  return {
    address: `127.0.0.1:${port}`,
    requests,
    answer(next) {
      fn = next;
    },
    close() {
      for (const t of timers) clearTimeout(t);
      server.forceShutdown();
      return Promise.resolve();
    },
  };
}
