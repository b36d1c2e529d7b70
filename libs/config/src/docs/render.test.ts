import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CONFIG_DOCS_PATH } from './paths.js';
import { renderConfigDocs } from './render.js';
import { PROCESSES } from '../process.js';
import { leafNodes } from '../keys.js';

test('docs/configuration.md is what the generator produces from the schema', () => {
  let onDisk = '';
  try {
    onDisk = readFileSync(CONFIG_DOCS_PATH, 'utf8');
  } catch {
    assert.fail(`${CONFIG_DOCS_PATH} is missing: run \`make docs\``);
  }
  assert.ok(onDisk === renderConfigDocs(), 'docs/configuration.md is out of date with the schema: run `make docs`');
});

test('the documentation lists every leaf of both trees with its env variable and a description', () => {
  const text = renderConfigDocs();
  for (const spec of Object.values(PROCESSES)) {
    for (const key of leafNodes(spec)) {
      assert.ok(text.includes(`| \`${key.path}\` | \`${key.env}\` |`), key.env);
      assert.ok(typeof (key.schema as { description?: unknown }).description === 'string', `${key.path} has a description`);
    }
  }
  assert.match(text, /\| `server\.listener\.addr` \| `SLUICE_AGENT_SERVER_LISTENER_ADDR` \| string \| `":8080"` \| format hostname_port/);
  assert.match(text, /### Entity/);
  assert.match(text, /\| `injector\.tap_port` \| `SLUICE_CONTROLLER_INJECTOR_TAP_PORT` \| int64 \| `8081` \| min 1; max 65535 \| .* Until the next release also read from `SLUICE_INJECTOR_TAP_PORT`, its old name\. \|/);
});

test('keys accepted with no effect say so, with the reason, in their row', () => {
  const text = renderConfigDocs();
  assert.match(text, /\| `otel\.disable_kubelet_scraper` \| `SLUICE_AGENT_OTEL_DISABLE_KUBELET_SCRAPER` \| .*\*\*Accepted, no effect:\*\* deprecated/);
  assert.doesNotMatch(text, /\| `otel\.ports\.debug_port` \| `SLUICE_AGENT_OTEL_PORTS_DEBUG_PORT` \| .*Accepted, no effect/);
  assert.doesNotMatch(text, /\| `crash_report\.dsn` \| `SLUICE_AGENT_CRASH_REPORT_DSN` \| .*Accepted, no effect/);
});
