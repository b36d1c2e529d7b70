// Every key of each process's tree either changes what the process does (the code reads it, as
// found by e2e/src/support/config-reads.ts over the process's own sources) or is marked in the
// schema as accepted with no effect (`noEffect`, shown in docs/configuration.md). A key that is
// neither is documented as working and silently ignored: this test names it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { leafNodes, noEffectOf, PROCESSES } from '@sluice/config';
import { appProgram, keysRead } from './support/config-reads.js';
import { ROOT } from './support/processes.js';

const CONFIG_SOURCES = join(ROOT, 'libs', 'config', 'src');

for (const app of ['agent', 'controller'] as const) {
  test(`every ${app} key is read by the ${app} or marked as accepted with no effect`, () => {
    const spec = PROCESSES[app];
    const read = keysRead(appProgram(ROOT, app), spec.schema, CONFIG_SOURCES);
    const leaves = leafNodes(spec).map((k) => k.path);
    const silent = leaves.filter((p) => !read.has(p) && noEffectOf(spec, p) === undefined);
    assert.deepEqual(silent, [], `${app} keys neither read nor marked noEffect in libs/config/src/schema:\n  ${silent.join('\n  ')}`);
    // The derivation finds reads at all (a broken analysis would find none and pass by marking).
    const known = ['server.listener.addr', 'log.level', 'crash_report.dsn', 'crash_report.environment', 'cloudext.api_key', 'cloudext.heartbeat_interval', 'cloudext.disable_local_otel_pipeline'];
    if (app === 'controller') known.push('cloudext.enable_cloud_controller', 'prometheus.address');
    else known.push('agent_info.agent_group', 'dist_cache.auth.keys');
    for (const p of known) assert.ok(read.has(p), `${p} should be found read by the ${app}`);
    // ...and not everywhere: a key no code reads is not found read.
    if (app === 'agent') assert.ok(!read.has('otel.disable_kubelet_scraper'));
  });
}
