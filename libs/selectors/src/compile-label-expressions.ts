import type { CompileContext } from './compile-context.js';
import { compileRegex } from './compile-regex.js';
import { memberPath } from './json-path.js';
import { checkedKeys, expectObject, fail, jsonTypeName, member, requiredName } from './json-shape.js';
import type { LabelPredicate } from './label-matcher.js';
import { labelEquals, labelExists, labelMatches } from './predicates.js';

const LABEL_EQUALS_MEMBERS: ReadonlySet<string> = new Set(['label', 'value']);
const LABEL_MATCHES_MEMBERS: ReadonlySet<string> = new Set(['label', 'regex']);

/**
 * `label_equals: {label, value}`: the label is present and its value equals
 * `value` exactly. `value` defaults to "" (which matches only a present,
 * empty label); a missing label is false.
 */
export function compileLabelEquals(json: unknown, path: string): LabelPredicate {
  const obj = expectObject(json, path, 'label_equals');
  checkedKeys(obj, LABEL_EQUALS_MEMBERS, path, 'label_equals');
  const label = requiredName(obj, 'label', path, 'label');
  const raw = member(obj, 'value');
  const value = raw === undefined ? '' : raw;
  if (typeof value !== 'string') throw fail(memberPath(path, 'value'), `value must be a string, got ${jsonTypeName(value)}`);
  return labelEquals(label, value);
}

/** `label_exists: "<name>"`: a label with that name is present. */
export function compileLabelExists(json: unknown, path: string): LabelPredicate {
  if (typeof json !== 'string') throw fail(path, `label_exists must be a label name (string), got ${jsonTypeName(json)}`);
  if (json === '') throw fail(path, 'label_exists must not be empty');
  return labelExists(json);
}

/**
 * `label_matches: {label, regex}`: the label is present and the RE2 regex
 * finds a match in its value (unanchored search); a missing label is false.
 */
export function compileLabelMatches(json: unknown, path: string, ctx: CompileContext): LabelPredicate {
  const obj = expectObject(json, path, 'label_matches');
  checkedKeys(obj, LABEL_MATCHES_MEMBERS, path, 'label_matches');
  const label = requiredName(obj, 'label', path, 'label');
  const regexPath = memberPath(path, 'regex');
  const source = requiredName(obj, 'regex', path, 'regex');
  return labelMatches(label, compileRegex(source, regexPath, ctx));
}
