import { Type } from '@sinclair/typebox';
import { bool } from './fields.js';

export const CRWatcherConfigSchema = Type.Object({
  enabled: bool(false, 'Watches Policy custom resources in the orchestrator.'),
}, { additionalProperties: false });
