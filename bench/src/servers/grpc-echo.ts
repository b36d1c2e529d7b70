/**
 * The gRPC workload of tap-h2-overhead, run as its own process: a grpc-js server of the tap's
 * test echo service (`sluice.test.Echo/Unary` answers its request bytes). Prints `PORT <n>`
 * once listening on 127.0.0.1; exits on SIGTERM/SIGINT.
 *
 *   node bench/dist/servers/grpc-echo.js
 */
import { startEchoServer } from '@sluice/tap/testing';

const echo = await startEchoServer();
process.stdout.write(`PORT ${echo.port}\n`);
const stop = (): void => { void echo.close().finally(() => process.exit(0)); };
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
