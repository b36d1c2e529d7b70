// Kubernetes label selectors in their string form (`a=b,c!=d,e in (x,y),f notin (z),g,!h`),
// parsed once and matched against an object's labels. A malformed selector is a 400.
import { badRequest } from './api-error.js';

type Requirement =
  | { op: 'eq' | 'neq'; key: string; value: string }
  | { op: 'in' | 'notin'; key: string; values: Set<string> }
  | { op: 'exists' | 'notexists'; key: string };

export type LabelMatcher = (labels: Readonly<Record<string, string>> | undefined) => boolean;

const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkKey(key: string, selector: string): string {
  if (!KEY.test(key) || key.length > 317) throw badRequest(`unable to parse requirement: invalid label key "${key}" in selector "${selector}"`);
  return key;
}

function checkValue(value: string, selector: string): string {
  if (!VALUE.test(value) || value.length > 63) throw badRequest(`unable to parse requirement: invalid label value "${value}" in selector "${selector}"`);
  return value;
}

/** Splits on commas that are not inside parentheses. */
function splitTerms(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function parseTerm(term: string, selector: string): Requirement {
  const t = term.trim();
  if (t === '') throw badRequest(`unable to parse requirement: empty term in selector "${selector}"`);
  const setMatch = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(t);
  if (setMatch) {
    const values = setMatch[3].split(',').map((v) => checkValue(v.trim(), selector));
    return { op: setMatch[2] as 'in' | 'notin', key: checkKey(setMatch[1], selector), values: new Set(values) };
  }
  const eqMatch = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(t);
  if (eqMatch) {
    return { op: eqMatch[2] === '!=' ? 'neq' : 'eq', key: checkKey(eqMatch[1], selector), value: checkValue(eqMatch[3], selector) };
  }
  if (t.startsWith('!')) return { op: 'notexists', key: checkKey(t.slice(1).trim(), selector) };
  return { op: 'exists', key: checkKey(t, selector) };
}

/** Parses a label selector; an empty or absent selector matches everything. */
export function parseLabelSelector(selector: string | undefined | null): LabelMatcher {
  if (selector === undefined || selector === null || selector.trim() === '') return () => true;
  const reqs = splitTerms(selector).map((term) => parseTerm(term, selector));
  return (labels) => {
    const l = labels ?? {};
    for (const r of reqs) {
      const has = Object.prototype.hasOwnProperty.call(l, r.key);
      const v = has ? l[r.key] : undefined;
      switch (r.op) {
        case 'eq': if (v !== r.value) return false; break;
        case 'neq': if (v === r.value) return false; break;
        case 'in': if (v === undefined || !r.values.has(v)) return false; break;
        case 'notin': if (v !== undefined && r.values.has(v)) return false; break;
        case 'exists': if (!has) return false; break;
        case 'notexists': if (has) return false; break;
      }
    }
    return true;
  };
}

/** `matchLabels` of a LabelSelector object in string form (`a=b,c=d`), as Scale.status.selector carries it. */
export function matchLabelsString(selector: unknown): string {
  if (!selector || typeof selector !== 'object') return '';
  const ml = (selector as { matchLabels?: Record<string, string> }).matchLabels ?? {};
  return Object.keys(ml).sort().map((k) => `${k}=${ml[k]}`).join(',');
}
