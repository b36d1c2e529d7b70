// A real Alertmanager (Debian's prometheus-alertmanager) on a free loopback port, with its own
// storage directory, clustering off and a minimal configuration (one receiver that sends nowhere),
// for end-to-end tests of the controller's alerts.
import type { TestContext } from 'node:test';
import { tempDir, writeFile, type Proc } from './processes.js';
import { freePort, startReadyDaemon } from './ready-daemon.js';

/** An alert as Alertmanager lists it (`GET /api/v2/alerts`). */
export interface ListedAlert {
  labels: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL?: string;
  status: { state: string };
}

export interface AlertmanagerServer {
  /** `http://127.0.0.1:<port>`, what `alerts.alertmanagers` takes. */
  readonly url: string;
  readonly proc: Proc;
  /** The alerts it holds active (`GET /api/v2/alerts`). */
  alerts(): Promise<ListedAlert[]>;
}

/** Starts Alertmanager and waits until it is ready; killed in t.after. `SLUICE_ALERTMANAGER_BIN` overrides the binary. */
export async function startAlertmanager(t: TestContext): Promise<AlertmanagerServer> {
  const dir = tempDir(t, 'sluice-am-');
  const port = await freePort();
  const config = [
    'route:',
    '  receiver: nowhere',
    '  group_wait: 1s',
    'receivers:',
    '  - name: nowhere',
    '',
  ].join('\n');
  const file = writeFile(dir, 'alertmanager.yml', config);
  const bin = process.env.SLUICE_ALERTMANAGER_BIN ?? '/usr/bin/prometheus-alertmanager';
  const { proc, url } = await startReadyDaemon(t, 'alertmanager', bin, [
    `--config.file=${file}`,
    `--storage.path=${dir}/data`,
    `--web.listen-address=127.0.0.1:${port}`,
    // no gossip port: one instance, nothing bound beyond the API
    '--cluster.listen-address=',
    '--log.level=warn',
  ], port);
  return {
    url,
    proc,
    async alerts() {
      const r = await fetch(`${url}/api/v2/alerts`);
      if (r.status !== 200) throw new Error(`GET /api/v2/alerts: ${r.status} ${await r.text()}`);
      return await r.json() as ListedAlert[];
    },
  };
}
