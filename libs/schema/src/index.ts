// @sluice/schema: what the configuration and the policy schemas share: one way to build a validator,
// JSON pointers, values shown in messages, and "did you mean".
export { SchemaValidator, type SchemaValidatorOptions } from './ajv.js';
export { editDistance, nearest } from './names.js';
export { pointerSegments, showValue } from './pointer.js';
export type { ErrorObject, ValidateFunction, KeywordDefinition, FormatDefinition } from 'ajv';
