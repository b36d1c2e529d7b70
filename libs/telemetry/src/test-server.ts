import type { AddressInfo } from 'node:net';
import express, { type Router } from 'express';

/** Serves routers on 127.0.0.1 on a free port; closed when the test ends. */
export async function serve(t: { after(fn: () => Promise<void>): void }, ...routers: Router[]): Promise<string> {
  const app = express();
  for (const router of routers) app.use(router);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}
