import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localMetricsPipelineOn } from './local-pipeline.js';

test('the local metrics pipeline is on unless disable_local_otel_pipeline (or a cloud controller) says otherwise', () => {
  assert.equal(localMetricsPipelineOn({ cloudext: { disable_local_otel_pipeline: false } }), true);
  assert.equal(localMetricsPipelineOn({ cloudext: { disable_local_otel_pipeline: true } }), false);
  assert.equal(localMetricsPipelineOn({ cloudext: { disable_local_otel_pipeline: false, enable_cloud_controller: false } }), true);
  assert.equal(localMetricsPipelineOn({ cloudext: { disable_local_otel_pipeline: false, enable_cloud_controller: true } }), false);
});
