import { Type, type Static } from '@sinclair/typebox';
import { publishedComponent, publishedKind } from './common.js';

/** One rule of a classifier: sets its label from an attribute path or a JSON pointer into the body. */
export const PublishedClassifierRule = Type.Object({
  extractor: Type.Union([
    Type.Object({ from: Type.String() }),
    Type.Object({ json: Type.Object({ from: Type.String(), pointer: Type.String() }) }),
  ]),
});
export type PublishedClassifierRule = Static<typeof PublishedClassifierRule>;

export const PublishedClassifier = publishedComponent('classifier', {
  classifier_index: Type.Integer({ minimum: 0, description: 'Index of the classifier in `resources.flow_control.classifiers`.' }),
  rules: Type.Record(Type.String(), PublishedClassifierRule, { description: 'Rules by the label they set.' }),
});
export type PublishedClassifier = Static<typeof PublishedClassifier>;

export const classifierContract = publishedKind({ component: PublishedClassifier, decision: undefined });
