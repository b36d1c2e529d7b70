import net from 'node:net';

/** Test helper: connect, write `data` (if any), collect the answer until the peer closes or `limitMs` passes. */
export function rawExchange(port: number, data: string | Buffer | undefined, limitMs = 3000, host = '127.0.0.1'): Promise<{ text: string; closed: boolean; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = net.connect(port, host, () => {
      if (data !== undefined) socket.write(data);
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed: false, elapsedMs: Date.now() - started });
    }, limitMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET') {
        clearTimeout(timer);
        reject(err);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed: true, elapsedMs: Date.now() - started });
    });
  });
}
