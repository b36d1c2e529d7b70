import { Ajv, type FormatDefinition, type KeywordDefinition, type ValidateFunction } from 'ajv';

export interface SchemaValidatorOptions {
  /** Annotations the schemas carry (`x-...` keywords), by the JSON type of their value. */
  annotations?: Readonly<Record<string, 'boolean' | 'string'>>;
  /** Keywords that validate (beyond the annotations). */
  keywords?: readonly KeywordDefinition[];
  /** Formats by name. */
  formats?: Readonly<Record<string, FormatDefinition<string>>>;
  /** Keep the value and schema of each error (`error.data`, `error.parentSchema`) for messages: on by default. */
  verbose?: boolean;
  /** Refuse NaN and ±Infinity as numbers (on by default; off where a schema marks the fields that allow them). */
  strictNumbers?: boolean;
  /** Fill in schema defaults while validating (off by default: defaults are applied by their owner). */
  useDefaults?: boolean;
}

/**
 * The one way Sluice builds a schema validator: every error at once, strict schemas, no type coercion,
 * the annotations, keywords and formats the caller's schemas use. Each validator compiles a schema once.
 */
export class SchemaValidator {
  private ajv: Ajv;
  private compiled = new WeakMap<object, ValidateFunction>();

  constructor(private readonly options: SchemaValidatorOptions = {}) {
    this.ajv = this.create();
  }

  private create(): Ajv {
    const o = this.options;
    // code.optimize off: Ajv's passes over the generated code (dropping unused names, inlining) take a
    // third of the compile of a large schema (the policy schema: 1.6 -> 1.0 CPU-s), paid by every
    // process at its first validation, for ~6% less code and no difference in what is accepted.
    const ajv = new Ajv({
      code: { optimize: false },
      allErrors: true, strict: true, coerceTypes: false,
      verbose: o.verbose ?? true, strictNumbers: o.strictNumbers ?? true, useDefaults: o.useDefaults ?? false,
    });
    for (const [keyword, schemaType] of Object.entries(o.annotations ?? {})) ajv.addKeyword({ keyword, schemaType });
    for (const k of o.keywords ?? []) ajv.addKeyword(k);
    for (const [name, format] of Object.entries(o.formats ?? {})) ajv.addFormat(name, format);
    return ajv;
  }

  /** Adds a format unless one of that name exists. */
  addFormat(name: string, format: FormatDefinition<string>): void {
    if (this.ajv.formats[name] === undefined) this.ajv.addFormat(name, format);
  }

  /** The compiled validator of `schema` (compiled on first use, then kept). */
  validator(schema: object): ValidateFunction {
    let v = this.compiled.get(schema);
    if (v === undefined) {
      v = this.ajv.compile(schema);
      this.compiled.set(schema, v);
    }
    return v;
  }

  /** Drops every compiled validator (their generated code can be megabytes); later calls compile again. */
  release(): void {
    this.ajv = this.create();
    this.compiled = new WeakMap();
  }
}
