/** The trivial gRPC method of the shared-port bench: raw bytes in, `pong` out. */
export const PING_PATH = '/sluice.bench.v1.Bench/Ping';
export const PING_MESSAGE = Buffer.from('ping');
