import { SchemaValidator, type ErrorObject, type ValidateFunction } from '@sluice/schema';
import type { TSchema } from '@sinclair/typebox';
import { checkFormat, isKnownFormat } from './schema/formats.js';
import { node } from './keys.js';

/** Collects the format names used anywhere in a schema. */
function formatsOf(schema: TSchema, out: Set<string>): Set<string> {
  const n = node(schema);
  if (n.format !== undefined) out.add(n.format);
  for (const child of Object.values(n.properties ?? {})) formatsOf(child, out);
  for (const child of Object.values(n.patternProperties ?? {})) formatsOf(child, out);
  if (n.items !== undefined) formatsOf(n.items, out);
  return out;
}

function strictlyIncreasing(values: unknown[]): boolean {
  for (let i = 1; i < values.length; i++) {
    const a = values[i - 1];
    const b = values[i];
    if (typeof a === 'number' && typeof b === 'number' && !(b > a)) return false;
  }
  return true;
}

const schemas = new SchemaValidator({
  annotations: { 'x-spec-type': 'string', 'x-secret': 'boolean', 'x-required': 'boolean', 'x-old-env': 'string', 'x-no-effect': 'string' },
  keywords: [{
    keyword: 'x-increasing',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: function increasing(enabled: boolean, data: unknown[]) {
      const ok = !enabled || strictlyIncreasing(data);
      if (!ok) {
        (increasing as unknown as { errors: Partial<ErrorObject>[] }).errors = [
          { keyword: 'x-increasing', message: 'must be strictly increasing', params: {} },
        ];
      }
      return ok;
    },
  }],
});

/** A compiled validator of a whole key tree, with every custom format registered. */
export function validatorFor(schema: TSchema): ValidateFunction {
  for (const format of formatsOf(schema, new Set())) {
    if (!isKnownFormat(format)) throw new Error(`configuration schema uses unknown format ${format}`);
    schemas.addFormat(format, { type: 'string', validate: (value: string) => checkFormat(format, value) });
  }
  return schemas.validator(schema);
}

/**
 * Drops the compiled validators and the ajv instance that holds them (for the agent's whole key
 * tree ~4 MB of generated code that a process needs once, at start-up). A later validatorFor
 * compiles again (~0.2 s).
 */
export function releaseValidators(): void {
  schemas.release();
}
