/** Operators of a requirement, as written in a filter. */
export const REQUIREMENT_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'DoesNotExists'] as const;

export type RequirementOperator = (typeof REQUIREMENT_OPERATORS)[number];

/** The operator after folding the two spellings of DoesNotExist into one. */
export type CanonicalOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

const KNOWN: ReadonlySet<string> = new Set(REQUIREMENT_OPERATORS);

/** The canonical operator for `name`, or undefined when it is not one. */
export function canonicalOperator(name: string): CanonicalOperator | undefined {
  if (!KNOWN.has(name)) return undefined;
  return name === 'DoesNotExists' ? 'DoesNotExist' : (name as CanonicalOperator);
}
