import { SchemaValidator, type ErrorObject } from '@sluice/schema';
import { tryParseDuration } from '@sluice/config';
import { PolicySpecSchema } from './schema/policy.js';
import { MIN_EVALUATION_INTERVAL, MIN_EVALUATION_INTERVAL_MS } from './schema/fields.js';
import type { PolicyProblem } from './problems.js';
import { nearest, pointerSegments } from '@sluice/schema';
import { isJsonObject, pathOfSegments } from './path.js';

// strictNumbers off: NaN and ±Infinity reach the schema only where normaliseNumbers allowed them
// (`x-sluice-nonfinite` fields); JSON itself cannot carry them.
const schemas = new SchemaValidator({
  strictNumbers: false,
  annotations: {
    'x-kubernetes-preserve-unknown-fields': 'boolean', 'x-sluice-unsupported': 'boolean', 'x-sluice-ignored': 'boolean',
    'x-sluice-nonfinite': 'boolean', 'x-sluice-type': 'string',
  },
  formats: {
    positive_duration: { type: 'string', validate: (s: string) => (tryParseDuration(s) ?? 0) > 0 },
    evaluation_interval: { type: 'string', validate: (s: string) => (tryParseDuration(s) ?? 0) >= MIN_EVALUATION_INTERVAL_MS },
    nonnegative_duration: { type: 'string', validate: (s: string) => (tryParseDuration(s) ?? -1) >= 0 },
  },
});

function validator() {
  return schemas.validator(PolicySpecSchema);
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function problemOf(error: ErrorObject): PolicyProblem | undefined {
  const segments = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const parent = error.parentSchema as { properties?: Record<string, unknown>; format?: string } | undefined;
  const known = Object.keys(parent?.properties ?? {});
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      // A kind written one level too high (`rate_limiter` instead of `flow_control.rate_limiter`).
      const nested = known.find((k) => Object.hasOwn((parent?.properties?.[k] as { properties?: object } | undefined)?.properties ?? {}, key));
      const typo = key.length > 64 ? undefined : nearest(key, known, Math.max(2, Math.floor(key.length / 3)));
      const hint = nested !== undefined ? `; did you mean ${nested}.${key}?` : typo !== undefined ? `; did you mean ${typo}?` : '';
      return {
        path: pathOfSegments('spec', [...segments, key]),
        message: `unknown field ${JSON.stringify(key)}${hint}; known fields here: ${known.join(', ')}`,
      };
    }
    case 'required':
      return { path: pathOfSegments('spec', [...segments, String(params.missingProperty)]), message: 'missing required field' };
    case 'minProperties':
      return { path: pathOfSegments('spec', segments), message: `set exactly one of: ${known.join(', ')}` };
    case 'maxProperties':
      return {
        path: pathOfSegments('spec', segments),
        message: `set exactly one of: ${known.join(', ')} (found ${isJsonObject(error.data) ? Object.keys(error.data).join(', ') : '?'})`,
      };
    case 'format':
      return {
        path: pathOfSegments('spec', segments),
        message:
          params.format === 'positive_duration'
            ? `${show(error.data)} is not a positive duration in Go syntax (such as 10s, 1m30s, 250ms)`
            : params.format === 'evaluation_interval'
              ? `${show(error.data)} is not a duration of at least ${MIN_EVALUATION_INTERVAL} in Go syntax (such as 1s, 1m30s, 250ms)`
              : `${show(error.data)} is not a non-negative duration in Go syntax (such as 0s, 10s, 1m30s)`,
      };
    case 'propertyNames':
      return undefined; // the pattern error that follows names the key
    case 'pattern':
      if ((error as { propertyName?: string }).propertyName !== undefined) {
        const key = String((error as { propertyName?: string }).propertyName);
        return { path: pathOfSegments('spec', [...segments, key]), message: `name ${JSON.stringify(key)} must match ${String(params.pattern)}` };
      }
      return { path: pathOfSegments('spec', segments), message: `${show(error.data)} must match ${String(params.pattern)}` };
    default:
      return { path: pathOfSegments('spec', segments), message: `${show(error.data)} ${error.message ?? 'is invalid'}` };
  }
}

/** Problems the schema finds (types, unknown and missing fields, bounds, enums, durations), every one at once. */
export function schemaProblems(spec: unknown): PolicyProblem[] {
  const v = validator();
  if (v(spec)) return [];
  const seen = new Set<string>();
  const problems: PolicyProblem[] = [];
  for (const error of v.errors ?? []) {
    const p = problemOf(error);
    if (p === undefined) continue;
    const key = `${p.path}\n${p.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(p);
    }
  }
  return problems;
}
