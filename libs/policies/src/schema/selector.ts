import { Type, type Static } from '@sinclair/typebox';
import { LABEL_MATCHER_LIMITS } from '@sluice/selectors';
import { freeForm, list, obj, str } from './fields.js';

/** Names used inside etcd keys: no `/`. */
export const KEY_SEGMENT_PATTERN = '^[^/]+$';

export const Selector = obj(
  {
    control_point: str('The control point the component applies to (required).', { minLength: 1 }),
    agent_group: Type.Optional(str('The agent group whose agents enforce the component.', { default: 'default', minLength: 1, pattern: KEY_SEGMENT_PATTERN })),
    service: Type.Optional(str('The service whose flows are selected; `any` selects every flow.', { default: 'any', minLength: 1 })),
    label_matcher: Type.Optional(
      freeForm('A label filter (`match_labels`, `match_expressions`, `expression`), the same language as the preview; absent matches every flow. ' +
        `Bounded: a \`label_matches.regex\` has at most ${LABEL_MATCHER_LIMITS.maxRegexLength} characters, the regexes of one filter compile to ` +
        `at most ${LABEL_MATCHER_LIMITS.maxRegexProgramSize} RE2 instructions together, and a filter has at most ${LABEL_MATCHER_LIMITS.maxNodes} nodes ` +
        `nested at most ${LABEL_MATCHER_LIMITS.maxDepth} deep.`),
    ),
  },
  'Which flows a component applies to.',
  { title: 'Selector' },
);
export type Selector = Static<typeof Selector>;

/**
 * Most selectors of one component. Every selector is matched against every
 * flow at its control point, so their number is the flow's cost: bounded here
 * (and, over all components, by each agent).
 */
export const MAX_SELECTORS_PER_COMPONENT = 64;

export const Selectors = list(Selector, `Selectors: a flow matches when any selector matches. At least one, at most ${MAX_SELECTORS_PER_COMPONENT}.`,
  { minItems: 1, maxItems: MAX_SELECTORS_PER_COMPONENT });
