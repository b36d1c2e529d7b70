/**
 * The baseline server of check-grpc, run as its own process: a plain grpc-js server with
 * FlowControlService whose Check answers a fixed CheckResponse (the one Sluice's engine
 * builds for the bench's request, computed once at start), so both targets carry the
 * same message types on the wire. Prints `PORT <n>` once listening on 127.0.0.1; exits
 * on SIGTERM/SIGINT or when its stdin closes (the bench process went away).
 *
 *   node bench/dist/servers/noop-check.js
 */
import * as grpc from '@grpc/grpc-js';
import { serviceClient } from '@sluice/proto';
import { Engine, applyLocalLimiters, loadLocalLimiters, toCheckResponse } from '@sluice/flowcontrol';
import { BENCH_CHECK_REQUEST, BENCH_LIMITERS_YAML, BENCH_SERVICES } from '../support/check-fixture.js';

const engine = new Engine();
applyLocalLimiters(engine, loadLocalLimiters(BENCH_LIMITERS_YAML));
const fixed = toCheckResponse(await engine.check({
  controlPoint: BENCH_CHECK_REQUEST.control_point, labels: BENCH_CHECK_REQUEST.labels, services: BENCH_SERVICES,
}));

const server = new grpc.Server();
server.addService(serviceClient('flowControl').service, {
  Check: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => cb(null, fixed),
});
const port = await new Promise<number>((resolve, reject) =>
  server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
process.stdout.write(`PORT ${port}\n`);

const stop = (): void => { server.forceShutdown(); process.exit(0); };
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
