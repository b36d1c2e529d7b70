// @sluice/policies: the policy language (schema, validation, compiler, circuit) and what the controller publishes for agents.
export * from './published.js';
