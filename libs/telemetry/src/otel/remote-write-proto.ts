import protobuf from 'protobufjs';

/**
 * Prometheus remote write 1.0's messages (prometheus/prompb: remote.proto and types.proto), as
 * protobufjs reflection types: what the remote write exporter encodes and what tests decode.
 * Only the fields the exporter writes are declared; field numbers are the protocol's.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    prometheus: {
      nested: {
        WriteRequest: {
          fields: {
            timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 },
            metadata: { rule: 'repeated', type: 'MetricMetadata', id: 3 },
          },
        },
        TimeSeries: {
          fields: {
            labels: { rule: 'repeated', type: 'Label', id: 1 },
            samples: { rule: 'repeated', type: 'Sample', id: 2 },
          },
        },
        Label: { fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        Sample: { fields: { value: { type: 'double', id: 1 }, timestamp: { type: 'int64', id: 2 } } },
        MetricMetadata: {
          fields: {
            type: { type: 'MetricType', id: 1 },
            metricFamilyName: { type: 'string', id: 2 },
            help: { type: 'string', id: 4 },
            unit: { type: 'string', id: 5 },
          },
        },
        MetricType: {
          values: { UNKNOWN: 0, COUNTER: 1, GAUGE: 2, HISTOGRAM: 3, GAUGEHISTOGRAM: 4, SUMMARY: 5, INFO: 6, STATESET: 7 },
        },
      },
    },
  },
});

export const WriteRequestType = root.lookupType('prometheus.WriteRequest');

export const METRIC_TYPE = { UNKNOWN: 0, COUNTER: 1, GAUGE: 2, HISTOGRAM: 3 } as const;

export interface RwLabel { name: string; value: string }
export interface RwSample { value: number; timestamp: number }
export interface RwTimeSeries { labels: RwLabel[]; samples: RwSample[] }
export interface RwMetadata { type: number; metricFamilyName: string; help: string; unit: string }
export interface RwWriteRequest { timeseries: RwTimeSeries[]; metadata: RwMetadata[] }

/**
 * The protobuf bytes of a WriteRequest (uncompressed). The plain object is encoded as it is: its
 * shape is the message's (timestamps are numbers, which int64 fields take), so no message
 * objects are made of it first.
 */
export function encodeWriteRequest(req: RwWriteRequest): Uint8Array {
  return WriteRequestType.encode(req).finish();
}

/** A WriteRequest from its protobuf bytes (uncompressed), timestamps as numbers. */
export function decodeWriteRequest(bytes: Uint8Array): RwWriteRequest {
  const msg = WriteRequestType.decode(bytes);
  return WriteRequestType.toObject(msg, { longs: Number, defaults: true, arrays: true }) as RwWriteRequest;
}
