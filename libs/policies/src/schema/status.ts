// The status the controller writes on a Policy resource (the CRD's `status`, a subresource): the
// outcome of applying its spec, the generation it applied, and a Ready condition.

const CONDITION = {
  type: 'object',
  description: 'A condition of the Policy: the controller writes one, `Ready`.',
  required: ['type', 'status'],
  properties: {
    type: { type: 'string', description: 'The kind of condition: `Ready` (the policy is applied).' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'], description: '`True`: applied (`PolicyUploaded`); `False`: refused (`PolicyFailed`); `Unknown`: being applied (`PolicyUploading`).' },
    reason: { type: 'string', description: 'Why, in one word: `PolicyUploaded`, `PolicyFailed` or `PolicyUploading`.' },
    message: { type: 'string', description: 'The same text as `status.message`.' },
    observedGeneration: { type: 'integer', format: 'int64', description: 'The `metadata.generation` this condition is about.' },
    lastTransitionTime: { type: 'string', format: 'date-time', description: 'When `status` last changed (not moved by writes that keep it).' },
  },
} as const;

/** The Policy resource's `status`, written by the controller's Policy watcher. */
export const PolicyStatusSchema = {
  type: 'object',
  description: 'Written by the controller: how applying the spec went.',
  properties: {
    status: {
      type: 'string',
      enum: ['uploading', 'uploaded', 'failed'],
      description: '`uploading` while the controller applies the spec, then `uploaded` (compiled and published to the agents) or `failed` (refused; a version that compiled before keeps running).',
    },
    message: {
      type: 'string',
      description: 'When `failed`, every compile problem as `<JSON path>: <problem>`, separated by `; `; when parts of the spec are accepted and ignored, `ignored: <JSON paths>`; empty otherwise.',
    },
    observedGeneration: { type: 'integer', format: 'int64', description: 'The `metadata.generation` of the spec the status is about.' },
    conditions: { type: 'array', description: 'One `Ready` condition, as `kubectl wait --for=condition=Ready` reads it.', items: CONDITION },
  },
} as const;
