import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
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

let ajv: Ajv | undefined;

function instance(): Ajv {
  if (ajv === undefined) {
    ajv = new Ajv({ allErrors: true, strict: true, verbose: true, useDefaults: false, coerceTypes: false });
    ajv.addKeyword({ keyword: 'x-spec-type', schemaType: 'string' });
    ajv.addKeyword({ keyword: 'x-secret', schemaType: 'boolean' });
    ajv.addKeyword({ keyword: 'x-required', schemaType: 'boolean' });
    ajv.addKeyword({ keyword: 'x-old-env', schemaType: 'string' });
    ajv.addKeyword({ keyword: 'x-no-effect', schemaType: 'string' });
    ajv.addKeyword({
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
    });
  }
  return ajv;
}

let compiled = new WeakMap<TSchema, ValidateFunction>();

/** A compiled validator of a whole key tree, with every custom format registered. */
export function validatorFor(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    const a = instance();
    for (const format of formatsOf(schema, new Set())) {
      if (!isKnownFormat(format)) throw new Error(`configuration schema uses unknown format ${format}`);
      if (a.formats[format] === undefined) a.addFormat(format, { type: 'string', validate: (value: string) => checkFormat(format, value) });
    }
    validate = a.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * Drops the compiled validators and the ajv instance that holds them (for the agent's whole key
 * tree ~4 MB of generated code that a process needs once, at start-up). A later validatorFor
 * compiles again (~0.2 s).
 */
export function releaseValidators(): void {
  ajv = undefined;
  compiled = new WeakMap();
}
