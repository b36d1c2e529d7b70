import { InvalidArgumentError } from '@sluice/errors';

/** A label matcher added to every selector of a query (`prometheus.labels`). */
export interface QueryLabel {
  name: string;
  value: string;
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const IDENT_START = /[a-zA-Z_:]/;
const IDENT_PART = /[a-zA-Z0-9_:]/;
const NUMBER_PART = /[0-9a-zA-Z_.]/;
/** Keywords followed by a parenthesised list of label names (never metric names). */
const GROUPING = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
/** Words that are operators, modifiers or number literals, never metric names. */
const NOT_METRICS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'atan2']);
/** Aggregation operators, which may put `by (...)` / `without (...)` before their parentheses. */
const AGGREGATIONS = new Set(['sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk', 'quantile', 'limitk', 'limit_ratio']);

function startsGrouping(q: string, i: number): boolean {
  const m = /^(by|without)\b/i.exec(q.slice(i, i + 8));
  return m !== null;
}

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

function matchersText(labels: readonly QueryLabel[]): string {
  // A JSON string is a valid PromQL double-quoted string (Go escapes).
  return labels.map((l) => `${l.name}=${JSON.stringify(l.value)}`).join(',');
}

/** Index just past a quoted string starting at `i` (PromQL: "..." and '...' with escapes, `...` raw). */
function skipString(q: string, i: number): number {
  const quote = q[i];
  let j = i + 1;
  while (j < q.length) {
    const c = q[j];
    if (c === '\\' && quote !== '`') j += 2;
    else if (c === quote) return j + 1;
    else j++;
  }
  throw new InvalidArgumentError(`unterminated string starting at offset ${i}`, 'query_string');
}

/** Index of the bracket closing the one at `i` (strings inside are skipped). */
function skipBalanced(q: string, i: number, open: string, close: string): number {
  let depth = 0;
  let j = i;
  while (j < q.length) {
    const c = q[j];
    if (c === '"' || c === "'" || c === '`') { j = skipString(q, j); continue; }
    if (c === '#') { j = skipComment(q, j); continue; }
    if (c === open) depth++;
    else if (c === close) {
      depth--;
      if (depth === 0) return j;
    }
    j++;
  }
  throw new InvalidArgumentError(`unbalanced '${open}' at offset ${i}`, 'query_string');
}

function skipComment(q: string, i: number): number {
  const nl = q.indexOf('\n', i);
  return nl < 0 ? q.length : nl + 1;
}

function skipSpace(q: string, i: number): number {
  let j = i;
  for (;;) {
    while (j < q.length && /\s/.test(q[j])) j++;
    if (q[j] === '#') j = skipComment(q, j);
    else return j;
  }
}

/**
 * Adds label matchers to every vector selector of a PromQL query: `m` becomes
 * `m{a="b"}`, `m{x="y"}` becomes `m{a="b",x="y"}` and `{__name__=~"m.*"}`
 * becomes `{a="b",__name__=~"m.*"}`. Written here (no PromQL parser for Node is
 * installed); it reads the query as tokens, enough to tell selectors from
 * functions, aggregations, keywords, label lists of `by`/`without`/`on`/
 * `ignoring`/`group_left`/`group_right`, durations, numbers, strings and
 * comments. Limits: it does not check the query otherwise (Prometheus does,
 * and its error makes the signal invalid); a matcher on a label the selector
 * already matches is added anyway, so both must hold (the query's own
 * `job="x"` and an injected `job="y"` select nothing). An unterminated string
 * or unbalanced bracket is an InvalidArgumentError.
 */
export function injectQueryLabels(query: string, labels: readonly QueryLabel[]): string {
  if (labels.length === 0) return query;
  const matchers = matchersText(labels);
  let out = '';
  let i = 0;
  while (i < query.length) {
    const c = query[i];
    if (c === '"' || c === "'" || c === '`') {
      const end = skipString(query, i);
      out += query.slice(i, end);
      i = end;
    } else if (c === '#') {
      const end = skipComment(query, i);
      out += query.slice(i, end);
      i = end;
    } else if (c === '[') {
      // A range or subquery: durations only.
      const end = skipBalanced(query, i, '[', ']') + 1;
      out += query.slice(i, end);
      i = end;
    } else if (c === '{') {
      out += braces(query, i, matchers);
      i = skipBalanced(query, i, '{', '}') + 1;
    } else if (/[0-9.]/.test(c)) {
      let j = i + 1;
      while (j < query.length && (NUMBER_PART.test(query[j]) || ((query[j] === '+' || query[j] === '-') && /[eE]/.test(query[j - 1])))) j++;
      out += query.slice(i, j);
      i = j;
    } else if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < query.length && IDENT_PART.test(query[j])) j++;
      const word = query.slice(i, j);
      const lower = word.toLowerCase();
      const next = skipSpace(query, j);
      out += word;
      i = j;
      if (GROUPING.has(lower)) {
        if (query[next] === '(') {
          const end = skipBalanced(query, next, '(', ')') + 1;
          out += query.slice(j, end);
          i = end;
        }
      } else if (NOT_METRICS.has(lower) || query[next] === '(' || (AGGREGATIONS.has(lower) && startsGrouping(query, next))) {
        // An operator, a number literal, or a function / aggregation name.
      } else if (query[next] === '{') {
        out += query.slice(j, next);
        out += braces(query, next, matchers);
        i = skipBalanced(query, next, '{', '}') + 1;
      } else {
        out += `{${matchers}}`;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The selector braces at `i` with the matchers added first. */
function braces(query: string, i: number, matchers: string): string {
  const end = skipBalanced(query, i, '{', '}');
  const inner = query.slice(i + 1, end);
  return inner.trim() === '' ? `{${matchers}}` : `{${matchers},${inner}}`;
}
