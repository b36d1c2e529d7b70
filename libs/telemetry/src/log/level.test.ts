import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import { levelEnabled, parseLogLevel } from './level.js';

test('parseLogLevel accepts the lower and upper case spellings of every documented level', () => {
  for (const name of ['debug', 'info', 'warn', 'error', 'fatal', 'panic', 'trace', 'disabled']) {
    assert.equal(parseLogLevel(name), name);
    assert.equal(parseLogLevel(name.toUpperCase()), name);
  }
});

test('parseLogLevel refuses mixed case, unknown names and the empty string, naming log.level', () => {
  for (const bad of ['Info', 'verbose', 'warning', '', ' info']) {
    assert.throws(() => parseLogLevel(bad), (err: unknown) => err instanceof InvalidArgumentError && err.field === 'log.level');
  }
});

test('levelEnabled orders panic > fatal > error > warn > info > debug > trace and disabled lets nothing through', () => {
  assert.equal(levelEnabled('error', 'fatal'), true);
  assert.equal(levelEnabled('error', 'panic'), true);
  assert.equal(levelEnabled('error', 'warn'), false);
  assert.equal(levelEnabled('trace', 'trace'), true);
  assert.equal(levelEnabled('debug', 'trace'), false);
  assert.equal(levelEnabled('disabled', 'panic'), false);
});
