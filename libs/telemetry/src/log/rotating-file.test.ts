import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createLogger } from './create-logger.js';
import { backupNamePattern, backupTime, pruneOldBackups } from './age-pruning.js';
import { fileWriter, logConfig, readLines, tempDir } from './test-helpers.js';
import { fileTimestamp } from '../names.js';

const MB = 1024 * 1024;
const PAYLOAD = 'x'.repeat(900);

/** Writes about `megabytes` MB of ~1 KB lines. */
function writeMegabytes(log: { info(msg: string, meta?: Record<string, unknown>): void }, megabytes: number): number {
  const lines = Math.ceil((megabytes * MB) / 1000);
  for (let i = 0; i < lines; i++) log.info(PAYLOAD, { i });
  return lines;
}

function backups(dir: string): string[] {
  const pattern = backupNamePattern('app', '.log');
  return readdirSync(dir).filter((name) => pattern.test(name)).sort();
}

test('a file writer rotates at max_size MB and keeps max_backups rotated files', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'app.log');
  const log = createLogger(logConfig({ writers: [fileWriter(file, { max_size: 1, max_backups: 2 })] }), 'agent');
  const written = writeMegabytes(log, 3.6);
  await log.close();
  const rotated = backups(dir);
  assert.equal(rotated.length, 2, `backups: ${rotated.join(', ')}`);
  for (const name of rotated) {
    assert.doesNotMatch(name, /\.gz$/);
    const size = statSync(join(dir, name)).size;
    assert.ok(size >= MB && size < MB + 2000, `${name} is ${size} bytes`);
  }
  assert.ok(statSync(file).size < MB);
  // The newest two backups and the live file hold the last lines, in order, none lost at a rotation boundary.
  const lines = [...rotated.map((name) => join(dir, name)), file].flatMap(readLines);
  const indices = lines.map((line) => (line.meta as { i: number }).i);
  assert.equal(indices[indices.length - 1], written - 1);
  for (let k = 1; k < indices.length; k++) assert.equal(indices[k], indices[k - 1] + 1);
});

test('compress gzips rotated files to .gz that hold the JSON lines', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'app.log');
  const log = createLogger(logConfig({ writers: [fileWriter(file, { max_size: 1, max_backups: 3, compress: true })] }), 'agent');
  writeMegabytes(log, 1.2);
  await log.close();
  const rotated = backups(dir);
  assert.equal(rotated.length, 1);
  assert.match(rotated[0], /^app-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.log\.gz$/);
  const gz = readFileSync(join(dir, rotated[0]));
  assert.equal(gz.subarray(0, 2).toString('hex'), '1f8b');
  const lines = gunzipSync(gz).toString('utf8').trim().split('\n');
  assert.ok(lines.length > 1000);
  assert.equal((JSON.parse(lines[0]) as { msg: string }).msg, PAYLOAD);
});

test('rotated files older than max_age days are deleted; newer ones and other files are kept', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'app.log');
  const old = join(dir, 'app-2000-01-01T00-00-00.000Z.log.gz');
  const recent = join(dir, `app-${fileTimestamp(new Date(Date.now() - 2 * 86_400_000))}.log`);
  const other = join(dir, 'other-2000-01-01T00-00-00.000Z.log');
  for (const path of [old, recent, other]) writeFileSync(path, 'x\n');
  const log = createLogger(logConfig({ writers: [fileWriter(file, { max_age: 7, max_backups: 0 })] }), 'agent');
  log.info('hello');
  await log.close();
  assert.equal(existsSync(old), false);
  assert.equal(existsSync(recent), true);
  assert.equal(existsSync(other), true);
});

test('max_age 0 keeps rotated files of any age', async (t) => {
  const dir = tempDir(t);
  const old = join(dir, 'app-2000-01-01T00-00-00.000Z.log');
  writeFileSync(old, 'x\n');
  assert.deepEqual(await pruneOldBackups(dir, 'app', '.log', 0), []);
  assert.deepEqual(await pruneOldBackups(dir, 'app', '.log', 1), [old]);
  assert.deepEqual(await pruneOldBackups(join(dir, 'missing'), 'app', '.log', 1), []);
});

test('backupTime reads the UTC time from a rotated name and ignores other names', () => {
  const pattern = backupNamePattern('agent', '.log');
  assert.equal(backupTime('agent-2024-01-02T15-04-05.123Z.log', pattern), Date.UTC(2024, 0, 2, 15, 4, 5, 123));
  assert.equal(backupTime('agent-2024-01-02T15-04-05.123Z.2.log.gz', pattern), Date.UTC(2024, 0, 2, 15, 4, 5, 123));
  assert.equal(backupTime('agent.log', pattern), undefined);
  assert.equal(backupTime('agentx-2024-01-02T15-04-05.123Z.log', pattern), undefined);
  assert.equal(backupTime('agent-2024-13-45T15-04-05.123Z.log', pattern), undefined);
});
