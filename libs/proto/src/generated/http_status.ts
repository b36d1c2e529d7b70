import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { HttpStatus as _envoy_type_v3_HttpStatus, HttpStatus__Output as _envoy_type_v3_HttpStatus__Output } from './envoy/type/v3/HttpStatus.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  envoy: {
    type: {
      v3: {
        HttpStatus: MessageTypeDefinition<_envoy_type_v3_HttpStatus, _envoy_type_v3_HttpStatus__Output>
        StatusCode: EnumTypeDefinition
      }
    }
  }
}

