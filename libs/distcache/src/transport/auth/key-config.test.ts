import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLoopbackBind, keyringFrom } from './key-config.js';

const LOOPBACK = { 'dist_cache.bind_addr': '127.0.0.1:0', 'dist_cache.memberlist_bind_addr': '[::1]:0' };
const EXPOSED = { 'dist_cache.bind_addr': ':3320', 'dist_cache.memberlist_bind_addr': '127.0.0.1:3322' };

test('loopback binds: 127/8, ::1 and localhost; wildcards and other hosts are not', () => {
  for (const a of ['127.0.0.1:1', '127.1.2.3:0', '[::1]:1', 'localhost:1']) assert.ok(isLoopbackBind(a), a);
  for (const a of [':3320', '0.0.0.0:1', '[::]:1', '10.0.0.5:1', 'agent.local:1']) assert.ok(!isLoopbackBind(a), a);
});

test('no key: fine on loopback or with insecure; a port beyond loopback is an error naming it and the keys to set', () => {
  assert.equal(keyringFrom({ keyFile: '', keys: '', insecure: false, bound: LOOPBACK }), undefined);
  assert.equal(keyringFrom({ keyFile: '', keys: '', insecure: true, bound: EXPOSED }), undefined);
  assert.throws(
    () => keyringFrom({ keyFile: '', keys: '', insecure: false, bound: EXPOSED, name: (p) => `${p} (ENV)` }),
    (e: Error) => /dist_cache\.bind_addr \(ENV\) :3320 not on loopback/.test(e.message) && /dist_cache\.auth\.key_file \(ENV\)/.test(e.message)
      && /dist_cache\.auth\.insecure/.test(e.message) && !e.message.includes('memberlist_bind_addr'),
  );
});

test('keys from the file first, then from `keys`; an unreadable file, an empty one or a short key is an error that never shows a key', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-keys-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'keys');
  writeFileSync(file, 'file-key-new-0123456789\nfile-key-old-0123456789\n');
  const ring = keyringFrom({ keyFile: file, keys: 'env-key-0123456789abc', insecure: false, bound: EXPOSED });
  assert.deepEqual(ring?.keys.map(String), ['file-key-new-0123456789', 'file-key-old-0123456789', 'env-key-0123456789abc']);
  assert.equal(String(keyringFrom({ keyFile: '', keys: 'env-key-0123456789abc', insecure: false, bound: EXPOSED })?.signing), 'env-key-0123456789abc');
  assert.throws(() => keyringFrom({ keyFile: join(dir, 'missing'), keys: '', insecure: true, bound: LOOPBACK }), /dist_cache\.auth\.key_file .*missing: cannot read/);
  writeFileSync(file, '\n# nothing yet\n');
  assert.throws(() => keyringFrom({ keyFile: file, keys: '', insecure: false, bound: EXPOSED }), /holds no key/);
  assert.throws(() => keyringFrom({ keyFile: '', keys: 'tiny-secret', insecure: false, bound: EXPOSED }), (e: Error) => /dist_cache\.auth\.keys: key 1 has 11 bytes/.test(e.message) && !e.message.includes('tiny-secret'));
});
