// Original file: proto/aperture/flowcontrol/checkhttp/v1/checkhttp.proto


// Original file: proto/aperture/flowcontrol/checkhttp/v1/checkhttp.proto

export const _aperture_flowcontrol_checkhttp_v1_SocketAddress_Protocol = {
  TCP: 'TCP',
  UDP: 'UDP',
} as const;

export type _aperture_flowcontrol_checkhttp_v1_SocketAddress_Protocol =
  | 'TCP'
  | 0
  | 'UDP'
  | 1

export type _aperture_flowcontrol_checkhttp_v1_SocketAddress_Protocol__Output = typeof _aperture_flowcontrol_checkhttp_v1_SocketAddress_Protocol[keyof typeof _aperture_flowcontrol_checkhttp_v1_SocketAddress_Protocol]

export interface SocketAddress {
  'protocol'?: (_aperture_flowcontrol_checkhttp_v1_SocketAddress_Protocol);
  'address'?: (string);
  'port'?: (number);
}

export interface SocketAddress__Output {
  'protocol': (_aperture_flowcontrol_checkhttp_v1_SocketAddress_Protocol__Output);
  'address': (string);
  'port': (number);
}
