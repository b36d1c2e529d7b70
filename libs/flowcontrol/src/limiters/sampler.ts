import { createHash } from 'node:crypto';
import type { FlowLabels } from '@sluice/selectors';
import type { ComponentIdentity, DecideContext, Limiter, LimiterKind, LimiterResult } from '../check/component.js';
import { readLabel } from '../labels/flow-reads.js';
import { SAMPLER_INFO } from './limiter-details.js';
import { labelValueOf } from '../labels/label-value.js';

/** A sampler's live numbers (the controller's `sampler` decision). */
export interface SamplerDecision {
  /** Share of flows accepted, 0..100. */
  accept_percentage: number;
  /** Accept every flow. */
  pass_through: boolean;
}

export interface SamplerOptions {
  identity: ComponentIdentity;
  /** Acceptance is sticky per value of this label; unset: each flow is drawn at random. */
  labelKey?: string;
  /** Flows whose `labelKey` value is one of these are always accepted. */
  passThroughLabelValues?: readonly string[];
  /** The first decision; without one the sampler lets every flow through. */
  decision?: SamplerDecision;
  /** Uniform draw in [0, 1); default Math.random. */
  random?: () => number;
}

const PASS: LimiterResult = Object.freeze({ accepted: true, waitMs: 0 });
const TWO_POW_32 = 2 ** 32;

/**
 * Where a label value falls in [0, 100): the first 32 bits of its SHA-1,
 * scaled. Every agent computes the same number for the same value, so a
 * value is accepted everywhere or nowhere.
 */
export function stickyPoint(value: string): number {
  return (createHash('sha1').update(value).digest().readUInt32BE(0) / TWO_POW_32) * 100;
}

/** The sampler's kind: first group, 403 REGULATED, SamplerInfo; it reads its label key. */
export const SAMPLER_KIND: LimiterKind = {
  name: 'sampler',
  group: 0,
  rejectReason: 'REJECT_REASON_REGULATED',
  deniedStatus: 403,
  counter: 'sampler',
  details: SAMPLER_INFO,
  reads(limiter, into) {
    if (!(limiter instanceof Sampler)) into.all = true;
    else if (limiter.labelKey !== undefined) readLabel(into, limiter.labelKey);
  },
};

/**
 * A sampler (rejects with 403, REGULATED): accepts `accept_percentage` of
 * the flows, at random, or sticky per value of `labelKey` (a flow without
 * the label is drawn at random). Runs in pass-through until its first
 * decision; `setDecision` applies the next one in place.
 */
export class Sampler implements Limiter {
  readonly kind = SAMPLER_KIND;
  readonly identity: ComponentIdentity;
  readonly labelKey: string | undefined;
  private readonly passThroughValues: ReadonlySet<string>;
  private readonly random: () => number;
  private percentage = 100;
  private passThrough = true;

  constructor(opts: SamplerOptions) {
    this.identity = opts.identity;
    this.labelKey = opts.labelKey === undefined || opts.labelKey === '' ? undefined : opts.labelKey;
    this.passThroughValues = new Set(opts.passThroughLabelValues ?? []);
    this.random = opts.random ?? Math.random;
    if (opts.decision !== undefined) this.setDecision(opts.decision);
  }

  /** Apply a decision; a percentage outside 0..100 or not a number throws RangeError and changes nothing. */
  setDecision(decision: SamplerDecision): void {
    const p = decision.accept_percentage;
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 100) {
      throw new RangeError(`sampler ${this.identity.component_id}: accept_percentage must be within 0..100, got ${String(p)}`);
    }
    this.percentage = p;
    this.passThrough = decision.pass_through === true;
  }

  /** The decision in force; undefined fields never: pass-through until the first decision. */
  decision(): SamplerDecision {
    return { accept_percentage: this.percentage, pass_through: this.passThrough };
  }

  decide(labels: FlowLabels, _ctx?: DecideContext): LimiterResult {
    if (this.passThrough || this.percentage >= 100) return PASS;
    if (this.labelKey !== undefined) {
      const value = labelValueOf(labels, this.labelKey);
      if (value !== undefined) {
        if (this.passThroughValues.has(value)) return { accepted: true, waitMs: 0, label: value };
        return { accepted: stickyPoint(value) < this.percentage, waitMs: 0, label: value };
      }
    }
    return { accepted: this.random() * 100 < this.percentage, waitMs: 0 };
  }
}
