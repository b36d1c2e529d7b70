import type { CheckHTTPRequest__Output } from '@sluice/proto';

export type ControlPointType = 'http' | 'feature';

/** One flow to decide on. */
export interface FlowRequest {
  readonly controlPoint: string;
  /**
   * The flow's labels. The engine never changes this object: when
   * classifiers add labels it works on a copy.
   */
  readonly labels: Readonly<Record<string, string>>;
  /** Services of the flow (from service discovery); `any` components always apply. */
  readonly services: readonly string[];
  /** `http` for CheckHTTP, `feature` for Check (SDK). Default `feature`. */
  readonly type?: ControlPointType;
  /** The caller's deadline, epoch milliseconds. */
  readonly deadlineMs?: number;
  /** The HTTP request behind the flow (CheckHTTP), for classifiers and the HTTP preview. */
  readonly http?: CheckHTTPRequest__Output;
  readonly rampMode?: boolean;
}
