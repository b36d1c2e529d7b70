import { parser } from '@prometheus-io/lezer-promql';
import type { SyntaxNode, Tree } from '@lezer/common';
import { InvalidArgumentError } from '@sluice/errors';

/** A label matcher added to every selector of a query (`prometheus.labels`). */
export interface QueryLabel {
  name: string;
  value: string;
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Checks `prometheus.labels`: valid Prometheus label names, each at most once. */
export function checkQueryLabels(labels: readonly QueryLabel[]): QueryLabel[] {
  const seen = new Set<string>();
  return labels.map((l, i) => {
    if (!LABEL_NAME.test(l.name)) throw new InvalidArgumentError(`prometheus.labels[${i}].name ${JSON.stringify(l.name)} is not a Prometheus label name`, `prometheus.labels[${i}].name`);
    if (seen.has(l.name)) throw new InvalidArgumentError(`prometheus.labels[${i}].name ${JSON.stringify(l.name)} is given twice`, `prometheus.labels[${i}].name`);
    seen.add(l.name);
    return { name: l.name, value: String(l.value) };
  });
}

function matcherText(l: QueryLabel): string {
  // A JSON string is a valid PromQL double-quoted string (Go escapes).
  return `${l.name}=${JSON.stringify(l.value)}`;
}

/**
 * The query's syntax tree (Prometheus's own PromQL grammar, the one its UI
 * uses); a query with any syntax error is an InvalidArgumentError, so no
 * part of a query the parser could not read goes on to Prometheus.
 */
export function parsePromql(query: string): Tree {
  const tree = parser.parse(query);
  let errorAt = -1;
  tree.iterate({
    enter(n) {
      if (errorAt >= 0) return false;
      if (n.type.isError) errorAt = n.from;
      return undefined;
    },
  });
  if (errorAt >= 0) {
    const near = query.slice(errorAt, errorAt + 20);
    throw new InvalidArgumentError(`query is not valid PromQL at offset ${errorAt} (near ${JSON.stringify(near)})`, 'query_string');
  }
  return tree;
}

/** Every vector selector of the tree (bare names, `name{...}`, `{...}`), also those inside ranges and subqueries. */
export function vectorSelectors(tree: Tree): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  tree.iterate({
    enter(n) {
      if (n.name === 'VectorSelector') found.push(n.node);
    },
  });
  return found;
}

/** The `name=value` equality matchers written in a selector's braces (as the query spells them). */
export function selectorMatchers(query: string, selector: SyntaxNode): string[] {
  const braces = selector.getChild('LabelMatchers');
  if (braces === null) return [];
  return braces.getChildren('UnquotedLabelMatcher').map((m) => {
    const part = (n: SyntaxNode | null): string => (n === null ? '' : query.slice(n.from, n.to));
    return part(m.firstChild) + part(m.firstChild?.nextSibling ?? null).trim() + part(m.lastChild);
  });
}

/**
 * Adds label matchers to every vector selector of a PromQL query: `m` becomes
 * `m{a="b"}`, `m{x="y"}` becomes `m{a="b",x="y"}` and `{__name__=~"m.*"}`
 * becomes `{a="b",__name__=~"m.*"}`. The query is read with Prometheus's
 * PromQL grammar (numbers in every form Prometheus lexes, hex included,
 * durations, strings with every quote and escape, comments, functions,
 * aggregations and their modifiers, `offset`, `@`, subqueries). A query the
 * grammar cannot read is refused (InvalidArgumentError): a selector never
 * leaves without the matchers. The result is parsed again and checked, so a
 * selector the rewrite missed is an error rather than a query that
 * reads other series. A matcher on a label the selector already matches is
 * added anyway, so both must hold (the query's own `job="x"` and an injected
 * `job="y"` select nothing).
 */
export function injectQueryLabels(query: string, labels: readonly QueryLabel[]): string {
  if (labels.length === 0) return query;
  const matchers = labels.map(matcherText).join(',');
  const edits: Array<{ at: number; text: string }> = [];
  for (const sel of vectorSelectors(parsePromql(query))) {
    const braces = sel.getChild('LabelMatchers');
    if (braces === null) {
      edits.push({ at: sel.to, text: `{${matchers}}` });
    } else {
      const empty = braces.firstChild === null || query.slice(braces.from + 1, braces.to - 1).replace(/#[^\n]*/g, '').trim() === '';
      edits.push({ at: braces.from + 1, text: empty ? matchers : `${matchers},` });
    }
  }
  let out = query;
  for (const e of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, e.at) + e.text + out.slice(e.at);
  checkScoped(out, labels, edits.length);
  return out;
}

/** Throws unless every selector of `query` carries every matcher of `labels` (and there are `count` of them). */
function checkScoped(query: string, labels: readonly QueryLabel[], count: number): void {
  const want = labels.map(matcherText);
  const selectors = vectorSelectors(parsePromql(query));
  const bare = selectors.find((s) => {
    const have = new Set(selectorMatchers(query, s));
    return want.some((w) => !have.has(w));
  });
  if (bare !== undefined || selectors.length !== count) {
    throw new Error(`prometheus.labels could not be added to every selector of the query (at offset ${bare?.from ?? 0})`);
  }
}
