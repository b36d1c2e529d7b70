// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type { OkHttpResponse as _sluice_flowcontrol_checkhttp_v1_OkHttpResponse, OkHttpResponse__Output as _sluice_flowcontrol_checkhttp_v1_OkHttpResponse__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/OkHttpResponse.js';
import type { DeniedHttpResponse as _sluice_flowcontrol_checkhttp_v1_DeniedHttpResponse, DeniedHttpResponse__Output as _sluice_flowcontrol_checkhttp_v1_DeniedHttpResponse__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/DeniedHttpResponse.js';
import type { CheckResponse as _aperture_flowcontrol_check_v1_CheckResponse, CheckResponse__Output as _aperture_flowcontrol_check_v1_CheckResponse__Output } from '../../../../aperture/flowcontrol/check/v1/CheckResponse.js';
import type { HeaderInterest as _sluice_flowcontrol_checkhttp_v1_HeaderInterest, HeaderInterest__Output as _sluice_flowcontrol_checkhttp_v1_HeaderInterest__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/HeaderInterest.js';

export interface CheckHTTPResponse {
  'ok_response'?: (_sluice_flowcontrol_checkhttp_v1_OkHttpResponse | null);
  'denied_response'?: (_sluice_flowcontrol_checkhttp_v1_DeniedHttpResponse | null);
  'check_response'?: (_aperture_flowcontrol_check_v1_CheckResponse | null);
  /**
   * Set when check_response.expect_end is true (flux meters measure the
   * flow): the caller reports the flow's end with FlowEnd(control_point,
   * flow_id, status_code, duration) once the workload's response has ended.
   */
  'flow_id'?: (string);
  /**
   * What the agent needs of the control point's requests, set when the
   * request's interest_generation is not the current one. Absent (an older
   * agent): send everything.
   */
  'header_interest'?: (_sluice_flowcontrol_checkhttp_v1_HeaderInterest | null);
  /**
   * The request was filtered by an interest that is no longer current and
   * was not decided: ask again with every header and the body.
   * header_interest carries the current interest.
   */
  'resend_unfiltered'?: (boolean);
  'http_response'?: "ok_response"|"denied_response";
  '_resend_unfiltered'?: "resend_unfiltered";
}

export interface CheckHTTPResponse__Output {
  'ok_response'?: (_sluice_flowcontrol_checkhttp_v1_OkHttpResponse__Output | null);
  'denied_response'?: (_sluice_flowcontrol_checkhttp_v1_DeniedHttpResponse__Output | null);
  'check_response': (_aperture_flowcontrol_check_v1_CheckResponse__Output | null);
  /**
   * Set when check_response.expect_end is true (flux meters measure the
   * flow): the caller reports the flow's end with FlowEnd(control_point,
   * flow_id, status_code, duration) once the workload's response has ended.
   */
  'flow_id': (string);
  /**
   * What the agent needs of the control point's requests, set when the
   * request's interest_generation is not the current one. Absent (an older
   * agent): send everything.
   */
  'header_interest': (_sluice_flowcontrol_checkhttp_v1_HeaderInterest__Output | null);
  /**
   * The request was filtered by an interest that is no longer current and
   * was not decided: ask again with every header and the body.
   * header_interest carries the current interest.
   */
  'resend_unfiltered'?: (boolean);
  'http_response'?: "ok_response"|"denied_response";
  '_resend_unfiltered'?: "resend_unfiltered";
}
