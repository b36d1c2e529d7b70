import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { DeleteDynamicConfigResponse as _sluice_policies_v1_DeleteDynamicConfigResponse, DeleteDynamicConfigResponse__Output as _sluice_policies_v1_DeleteDynamicConfigResponse__Output } from './sluice/policies/v1/DeleteDynamicConfigResponse.js';
import type { DeletePolicyResponse as _sluice_policies_v1_DeletePolicyResponse, DeletePolicyResponse__Output as _sluice_policies_v1_DeletePolicyResponse__Output } from './sluice/policies/v1/DeletePolicyResponse.js';
import type { DynamicConfigRequest as _sluice_policies_v1_DynamicConfigRequest, DynamicConfigRequest__Output as _sluice_policies_v1_DynamicConfigRequest__Output } from './sluice/policies/v1/DynamicConfigRequest.js';
import type { DynamicConfigResponse as _sluice_policies_v1_DynamicConfigResponse, DynamicConfigResponse__Output as _sluice_policies_v1_DynamicConfigResponse__Output } from './sluice/policies/v1/DynamicConfigResponse.js';
import type { ListDecisionsRequest as _sluice_policies_v1_ListDecisionsRequest, ListDecisionsRequest__Output as _sluice_policies_v1_ListDecisionsRequest__Output } from './sluice/policies/v1/ListDecisionsRequest.js';
import type { ListDecisionsResponse as _sluice_policies_v1_ListDecisionsResponse, ListDecisionsResponse__Output as _sluice_policies_v1_ListDecisionsResponse__Output } from './sluice/policies/v1/ListDecisionsResponse.js';
import type { ListPoliciesRequest as _sluice_policies_v1_ListPoliciesRequest, ListPoliciesRequest__Output as _sluice_policies_v1_ListPoliciesRequest__Output } from './sluice/policies/v1/ListPoliciesRequest.js';
import type { ListPoliciesResponse as _sluice_policies_v1_ListPoliciesResponse, ListPoliciesResponse__Output as _sluice_policies_v1_ListPoliciesResponse__Output } from './sluice/policies/v1/ListPoliciesResponse.js';
import type { Policy as _sluice_policies_v1_Policy, Policy__Output as _sluice_policies_v1_Policy__Output } from './sluice/policies/v1/Policy.js';
import type { PolicyNameRequest as _sluice_policies_v1_PolicyNameRequest, PolicyNameRequest__Output as _sluice_policies_v1_PolicyNameRequest__Output } from './sluice/policies/v1/PolicyNameRequest.js';
import type { PolicyResponse as _sluice_policies_v1_PolicyResponse, PolicyResponse__Output as _sluice_policies_v1_PolicyResponse__Output } from './sluice/policies/v1/PolicyResponse.js';
import type { PolicyServiceClient as _sluice_policies_v1_PolicyServiceClient, PolicyServiceDefinition as _sluice_policies_v1_PolicyServiceDefinition } from './sluice/policies/v1/PolicyService.js';
import type { PublishedDecisionEntry as _sluice_policies_v1_PublishedDecisionEntry, PublishedDecisionEntry__Output as _sluice_policies_v1_PublishedDecisionEntry__Output } from './sluice/policies/v1/PublishedDecisionEntry.js';
import type { SetVariableRequest as _sluice_policies_v1_SetVariableRequest, SetVariableRequest__Output as _sluice_policies_v1_SetVariableRequest__Output } from './sluice/policies/v1/SetVariableRequest.js';
import type { SetVariableResponse as _sluice_policies_v1_SetVariableResponse, SetVariableResponse__Output as _sluice_policies_v1_SetVariableResponse__Output } from './sluice/policies/v1/SetVariableResponse.js';
import type { UpsertPolicyRequest as _sluice_policies_v1_UpsertPolicyRequest, UpsertPolicyRequest__Output as _sluice_policies_v1_UpsertPolicyRequest__Output } from './sluice/policies/v1/UpsertPolicyRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
  sluice: {
    policies: {
      v1: {
        DeleteDynamicConfigResponse: MessageTypeDefinition<_sluice_policies_v1_DeleteDynamicConfigResponse, _sluice_policies_v1_DeleteDynamicConfigResponse__Output>
        DeletePolicyResponse: MessageTypeDefinition<_sluice_policies_v1_DeletePolicyResponse, _sluice_policies_v1_DeletePolicyResponse__Output>
        DynamicConfigRequest: MessageTypeDefinition<_sluice_policies_v1_DynamicConfigRequest, _sluice_policies_v1_DynamicConfigRequest__Output>
        DynamicConfigResponse: MessageTypeDefinition<_sluice_policies_v1_DynamicConfigResponse, _sluice_policies_v1_DynamicConfigResponse__Output>
        ListDecisionsRequest: MessageTypeDefinition<_sluice_policies_v1_ListDecisionsRequest, _sluice_policies_v1_ListDecisionsRequest__Output>
        ListDecisionsResponse: MessageTypeDefinition<_sluice_policies_v1_ListDecisionsResponse, _sluice_policies_v1_ListDecisionsResponse__Output>
        ListPoliciesRequest: MessageTypeDefinition<_sluice_policies_v1_ListPoliciesRequest, _sluice_policies_v1_ListPoliciesRequest__Output>
        ListPoliciesResponse: MessageTypeDefinition<_sluice_policies_v1_ListPoliciesResponse, _sluice_policies_v1_ListPoliciesResponse__Output>
        Policy: MessageTypeDefinition<_sluice_policies_v1_Policy, _sluice_policies_v1_Policy__Output>
        PolicyNameRequest: MessageTypeDefinition<_sluice_policies_v1_PolicyNameRequest, _sluice_policies_v1_PolicyNameRequest__Output>
        PolicyResponse: MessageTypeDefinition<_sluice_policies_v1_PolicyResponse, _sluice_policies_v1_PolicyResponse__Output>
        PolicyService: SubtypeConstructor<typeof grpc.Client, _sluice_policies_v1_PolicyServiceClient> & { service: _sluice_policies_v1_PolicyServiceDefinition }
        PublishedDecisionEntry: MessageTypeDefinition<_sluice_policies_v1_PublishedDecisionEntry, _sluice_policies_v1_PublishedDecisionEntry__Output>
        SetVariableRequest: MessageTypeDefinition<_sluice_policies_v1_SetVariableRequest, _sluice_policies_v1_SetVariableRequest__Output>
        SetVariableResponse: MessageTypeDefinition<_sluice_policies_v1_SetVariableResponse, _sluice_policies_v1_SetVariableResponse__Output>
        UpsertPolicyRequest: MessageTypeDefinition<_sluice_policies_v1_UpsertPolicyRequest, _sluice_policies_v1_UpsertPolicyRequest__Output>
      }
    }
  }
}

