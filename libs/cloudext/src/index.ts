export { createHeartbeats, heartbeatsOn, type Heartbeats, type HeartbeatsOptions } from './heartbeats.js';
export { ReportBuilder, servicesOf, type HeartbeatIdentity, type HeartbeatState, type PolicyInfo, type ReportRequest, type ServiceInfo } from './report.js';
export {
  transportFor, httpTransport, grpcTransport, isHttpEndpoint, httpReportUrl, grpcTarget, API_KEY_HEADER, HTTP_REPORT_PATH, type HeartbeatTransport,
} from './transport.js';
