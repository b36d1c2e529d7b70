import { FlowEnds, FluxMeterHistogram, registerOtlpTraceService, registerOtlpLogsService, registerOtlpTracesHttpRoute, type Engine } from '@sluice/flowcontrol';
import type { ProcessRuntime } from '@sluice/runtime';

/**
 * Wires flux meters' measurements: the `flux_meter` histogram and
 * `flow_ends_total` on the agent's /metrics, and the OTLP trace service
 * (`opentelemetry.proto.collector.trace.v1.TraceService/Export`) on its gRPC
 * port, where the Aperture SDKs export one span per flow, and its OTLP/HTTP twin
 * `POST /v1/traces` (protobuf or JSON) on the HTTP side of the same port. The answer is handed
 * to registerFlowControlServices, so that CheckHTTP answers flow ids and
 * FlowEnd ends them.
 */
export function installFlowEnds(runtime: ProcessRuntime, engine: Engine): FlowEnds {
  const histogram = new FluxMeterHistogram(runtime.registry);
  const flowEnds = new FlowEnds({ fluxMeters: engine, histogram, registry: runtime.registry });
  // On the agent's server port: the intake inherits server.tls (client_ca_file, allowed_cn) as every other service does.
  registerOtlpTraceService(runtime.server, flowEnds);
  registerOtlpTracesHttpRoute(runtime.server, flowEnds);
  // Envoy's OpenTelemetry access logs (opentelemetry.proto.collector.logs.v1.LogsService/Export) end ext_authz flows.
  registerOtlpLogsService(runtime.server, flowEnds);
  return flowEnds;
}
