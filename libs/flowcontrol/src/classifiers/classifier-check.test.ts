import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@sluice/errors';
import { CLASSIFIER_FIXED_ATTRIBUTE_PATHS, checkClassifierRule } from '@sluice/policies';
import { attributeReader } from './flow-attribute.js';
import { PolicyClassifier, type ClassifierRule } from './classifier.js';

const identity = { policy_name: 'p', policy_hash: 'h', classifier_index: 0 };

test('every attribute path the policy language accepts has a reader on the agent', () => {
  for (const path of [...CLASSIFIER_FIXED_ATTRIBUTE_PATHS, 'request.http.headers.x-user']) assert.ok(attributeReader(path) !== undefined, path);
});

test('the agent refuses exactly the rules the controller refuses, naming the same field', () => {
  const rules: unknown[] = [
    { extractor: { from: 'request.http.method' } },
    { extractor: { from: 'request.http.nope' } },
    { extractor: { json: { from: 'request.http.body', pointer: '/a~2' } } },
    { extractor: { json: { from: 'request.http.body' } } },
    { extractor: { json: { from: 'source.addr', pointer: '/a' } } },
    { extractor: { from: 'request.http.method', json: { from: 'request.http.body', pointer: '' } } },
    { extractor: { from: 'request.http.method' }, telemetry: 1 },
    { extractor: { address: { from: 'source.address' } } },
    { extractor: { address: { from: 'request.http.host' } } },
    { extractor: { jwt: { from: 'request.http.headers.authorization' } } },
    { extractor: { path_templates: { template_values: { '/a/{id}': 'a' } } } },
    { extractor: { path_templates: { template_values: { '/*/a': 'a' } } } },
    {},
  ];
  for (const rule of rules) {
    const expected = checkClassifierRule('x', rule, 'rules.x');
    let refused: InvalidArgumentError | undefined;
    try {
      new PolicyClassifier({ identity, rules: { x: rule as ClassifierRule } });
    } catch (e) {
      assert.ok(e instanceof InvalidArgumentError);
      refused = e;
    }
    if ('problem' in expected) assert.equal(refused?.field, expected.problem.path, JSON.stringify(rule));
    else assert.equal(refused, undefined, JSON.stringify(rule));
  }
});
