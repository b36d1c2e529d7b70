import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_STATUS_MESSAGE_LENGTH, desiredStatus, kubeTime, sameStatus, statusPatch } from './policy-status.js';

test('desiredStatus sets the phase, message, observedGeneration and a Ready condition per phase', () => {
  const up = desiredStatus(undefined, 'uploaded', '', 3, 'h1', 'T1');
  assert.deepEqual(up, { status: 'uploaded', message: '', observedGeneration: 3, hash: 'h1', conditions: [{ type: 'Ready', status: 'True', reason: 'PolicyUploaded', message: 'uploaded', observedGeneration: 3, lastTransitionTime: 'T1' }] });
  const failed = desiredStatus(up, 'failed', 'spec.x: bad', 4, undefined, 'T2');
  assert.equal(failed.conditions?.[0].status, 'False');
  assert.equal(failed.conditions?.[0].reason, 'PolicyFailed');
  assert.equal(failed.conditions?.[0].lastTransitionTime, 'T2');
  assert.equal(desiredStatus(undefined, 'uploading', '', 1, undefined, 'T').conditions?.[0].status, 'Unknown');
});

test('the Ready condition keeps its lastTransitionTime while its status does not change; other conditions are kept', () => {
  const a = desiredStatus({ conditions: [{ type: 'Other', status: 'True', reason: 'X', message: 'm', lastTransitionTime: 'T0' }] }, 'uploaded', '', 1, 'h', 'T1');
  const b = desiredStatus(a, 'uploaded', '', 2, 'h2', 'T2');
  assert.equal(b.conditions?.[0].lastTransitionTime, 'T1');
  assert.deepEqual(b.conditions?.[1], { type: 'Other', status: 'True', reason: 'X', message: 'm', lastTransitionTime: 'T0' });
});

test('sameStatus ignores lastTransitionTime only; statusPatch clears a hash that is gone', () => {
  const a = desiredStatus(undefined, 'uploaded', '', 1, 'h', 'T1');
  const b = { ...a, conditions: a.conditions?.map((c) => ({ ...c, lastTransitionTime: 'T9' })) };
  assert.equal(sameStatus(a, b), true);
  assert.equal(sameStatus(a, desiredStatus(undefined, 'uploaded', '', 2, 'h', 'T1')), false);
  assert.equal(sameStatus(a, desiredStatus(undefined, 'uploaded', '', 1, 'h2', 'T1')), false);
  assert.equal(sameStatus(undefined, a), false);
  assert.deepEqual(statusPatch(a, desiredStatus(a, 'failed', 'x', 1, undefined, 'T')).status.hash, null);
  assert.match(kubeTime(0), /^1970-01-01T00:00:00Z$/);
});

test('a long failure message (thousands of problems) is cut to the bound in the status and its Ready condition', () => {
  const long = Array.from({ length: 5000 }, (_, i) => `spec.circuit.components[${i}]: in a cycle`).join('; ');
  const s = desiredStatus(undefined, 'failed', long, 1, undefined, '2026-01-01T00:00:00Z');
  assert.ok((s.message ?? '').length <= MAX_STATUS_MESSAGE_LENGTH);
  assert.match(s.message ?? '', /^spec\.circuit\.components\[0\]: in a cycle; .* … \(\d+ characters in all\)$/);
  assert.equal(s.conditions?.[0].message, s.message);
});
