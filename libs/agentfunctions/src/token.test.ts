import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentFunctionsTokenError, agentFunctionsToken, tokenOfFile } from './token.js';

test('a token file\'s token is its first line that is not empty or a comment', () => {
  assert.equal(tokenOfFile('# agents\n\n  abc  \nnext\n'), 'abc');
  assert.equal(tokenOfFile('# only a comment\n\n'), undefined);
});

test('agent_functions.token_file is read at each connection, keeps the last token while the file is away; token when no file; none at all', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'agentfn-token-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'token');
  writeFileSync(file, 'first\n');
  const token = agentFunctionsToken({ token_file: file, token: 'ignored' });
  assert.ok(token);
  assert.equal(token(), 'first');
  writeFileSync(file, 'second\n');
  assert.equal(token(), 'second');
  unlinkSync(file);
  assert.equal(token(), 'second');
  assert.equal(agentFunctionsToken({ token_file: '', token: 'plain' })?.(), 'plain');
  assert.equal(agentFunctionsToken({ token_file: '', token: '' }), undefined);
});

test('a token file that cannot be read or holds no token is refused at start', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'agentfn-token-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.throws(() => agentFunctionsToken({ token_file: join(dir, 'missing'), token: '' }), (e: unknown) => e instanceof AgentFunctionsTokenError && /token_file .*missing.* cannot be read: ENOENT/.test(e.message));
  const empty = join(dir, 'empty');
  writeFileSync(empty, '# nothing\n');
  assert.throws(() => agentFunctionsToken({ token_file: empty, token: '' }), /holds no token/);
});
