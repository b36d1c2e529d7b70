import { Type, type Static } from '@sinclair/typebox';
import { publishedComponent, publishedKind, EXAMPLE_COMMON } from './common.js';

/** One rule of a classifier: sets its label from an attribute path, a JSON pointer into the body, an address as `<ip>:<port>`, a JWT's claim or a path template. */
export const PublishedClassifierRule = Type.Object({
  extractor: Type.Union([
    Type.Object({ from: Type.String() }),
    Type.Object({ json: Type.Object({ from: Type.String(), pointer: Type.String() }) }),
    Type.Object({ address: Type.Object({ from: Type.String() }) }),
    Type.Object({ jwt: Type.Object({ from: Type.String(), json_pointer: Type.String() }) }),
    Type.Object({ path_templates: Type.Object({ template_values: Type.Record(Type.String(), Type.String()) }) }),
  ]),
  /** Present (false) when the label stays out of the baggage the agent sets and out of telemetry. */
  telemetry: Type.Optional(Type.Boolean({ description: 'False: the label stays out of the baggage the agent sets and out of telemetry.' })),
});
export type PublishedClassifierRule = Static<typeof PublishedClassifierRule>;

export const PublishedClassifier = publishedComponent('classifier', {
  classifier_index: Type.Integer({ minimum: 0, description: 'Index of the classifier in `resources.flow_control.classifiers`.' }),
  rules: Type.Record(Type.String(), PublishedClassifierRule, { description: 'Rules by the label they set.' }),
});
export type PublishedClassifier = Static<typeof PublishedClassifier>;

export const classifierContract = publishedKind({
  component: PublishedClassifier,
  decision: undefined,
  example: {
    component: {
      ...EXAMPLE_COMMON, kind: 'classifier', component_id: 'classifier.0', selectors: [{ control_point: 'ingress' }],
      classifier_index: 0, rules: { user: { extractor: { from: 'request.http.headers.user' } } },
    },
    decision: undefined,
  },
});
