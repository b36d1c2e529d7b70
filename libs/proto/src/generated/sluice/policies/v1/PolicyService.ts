// Original file: proto/sluice/policies/v1/policies.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DeleteDynamicConfigResponse as _sluice_policies_v1_DeleteDynamicConfigResponse, DeleteDynamicConfigResponse__Output as _sluice_policies_v1_DeleteDynamicConfigResponse__Output } from '../../../sluice/policies/v1/DeleteDynamicConfigResponse.js';
import type { DeletePolicyResponse as _sluice_policies_v1_DeletePolicyResponse, DeletePolicyResponse__Output as _sluice_policies_v1_DeletePolicyResponse__Output } from '../../../sluice/policies/v1/DeletePolicyResponse.js';
import type { DynamicConfigRequest as _sluice_policies_v1_DynamicConfigRequest, DynamicConfigRequest__Output as _sluice_policies_v1_DynamicConfigRequest__Output } from '../../../sluice/policies/v1/DynamicConfigRequest.js';
import type { DynamicConfigResponse as _sluice_policies_v1_DynamicConfigResponse, DynamicConfigResponse__Output as _sluice_policies_v1_DynamicConfigResponse__Output } from '../../../sluice/policies/v1/DynamicConfigResponse.js';
import type { ListDecisionsRequest as _sluice_policies_v1_ListDecisionsRequest, ListDecisionsRequest__Output as _sluice_policies_v1_ListDecisionsRequest__Output } from '../../../sluice/policies/v1/ListDecisionsRequest.js';
import type { ListDecisionsResponse as _sluice_policies_v1_ListDecisionsResponse, ListDecisionsResponse__Output as _sluice_policies_v1_ListDecisionsResponse__Output } from '../../../sluice/policies/v1/ListDecisionsResponse.js';
import type { ListPoliciesRequest as _sluice_policies_v1_ListPoliciesRequest, ListPoliciesRequest__Output as _sluice_policies_v1_ListPoliciesRequest__Output } from '../../../sluice/policies/v1/ListPoliciesRequest.js';
import type { ListPoliciesResponse as _sluice_policies_v1_ListPoliciesResponse, ListPoliciesResponse__Output as _sluice_policies_v1_ListPoliciesResponse__Output } from '../../../sluice/policies/v1/ListPoliciesResponse.js';
import type { PolicyNameRequest as _sluice_policies_v1_PolicyNameRequest, PolicyNameRequest__Output as _sluice_policies_v1_PolicyNameRequest__Output } from '../../../sluice/policies/v1/PolicyNameRequest.js';
import type { PolicyResponse as _sluice_policies_v1_PolicyResponse, PolicyResponse__Output as _sluice_policies_v1_PolicyResponse__Output } from '../../../sluice/policies/v1/PolicyResponse.js';
import type { SetVariableRequest as _sluice_policies_v1_SetVariableRequest, SetVariableRequest__Output as _sluice_policies_v1_SetVariableRequest__Output } from '../../../sluice/policies/v1/SetVariableRequest.js';
import type { SetVariableResponse as _sluice_policies_v1_SetVariableResponse, SetVariableResponse__Output as _sluice_policies_v1_SetVariableResponse__Output } from '../../../sluice/policies/v1/SetVariableResponse.js';
import type { UpsertPolicyRequest as _sluice_policies_v1_UpsertPolicyRequest, UpsertPolicyRequest__Output as _sluice_policies_v1_UpsertPolicyRequest__Output } from '../../../sluice/policies/v1/UpsertPolicyRequest.js';

export interface PolicyServiceClient extends grpc.Client {
  /**
   * DeleteDynamicConfig removes the dynamic configuration posted for a policy.
   */
  DeleteDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DeleteDynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  DeleteDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_DeleteDynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  DeleteDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DeleteDynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  DeleteDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, callback: grpc.requestCallback<_sluice_policies_v1_DeleteDynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DeleteDynamicConfig removes the dynamic configuration posted for a policy.
   */
  deleteDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DeleteDynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  deleteDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_DeleteDynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  deleteDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DeleteDynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  deleteDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, callback: grpc.requestCallback<_sluice_policies_v1_DeleteDynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * DeletePolicy removes a policy posted to the API and everything it published.
   */
  DeletePolicy(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DeletePolicyResponse__Output>): grpc.ClientUnaryCall;
  DeletePolicy(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_DeletePolicyResponse__Output>): grpc.ClientUnaryCall;
  DeletePolicy(argument: _sluice_policies_v1_PolicyNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DeletePolicyResponse__Output>): grpc.ClientUnaryCall;
  DeletePolicy(argument: _sluice_policies_v1_PolicyNameRequest, callback: grpc.requestCallback<_sluice_policies_v1_DeletePolicyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DeletePolicy removes a policy posted to the API and everything it published.
   */
  deletePolicy(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DeletePolicyResponse__Output>): grpc.ClientUnaryCall;
  deletePolicy(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_DeletePolicyResponse__Output>): grpc.ClientUnaryCall;
  deletePolicy(argument: _sluice_policies_v1_PolicyNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DeletePolicyResponse__Output>): grpc.ClientUnaryCall;
  deletePolicy(argument: _sluice_policies_v1_PolicyNameRequest, callback: grpc.requestCallback<_sluice_policies_v1_DeletePolicyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GetDynamicConfig answers the dynamic configuration in effect (the Policy resource's
   * `dynamicConfig` with what was posted over it); NOT_FOUND when there is none.
   */
  GetDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  GetDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  GetDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  GetDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GetDynamicConfig answers the dynamic configuration in effect (the Policy resource's
   * `dynamicConfig` with what was posted over it); NOT_FOUND when there is none.
   */
  getDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  getDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  getDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  getDynamicConfig(argument: _sluice_policies_v1_PolicyNameRequest, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GetPolicy answers one policy; NOT_FOUND when there is none by that name.
   */
  GetPolicy(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  GetPolicy(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  GetPolicy(argument: _sluice_policies_v1_PolicyNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  GetPolicy(argument: _sluice_policies_v1_PolicyNameRequest, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GetPolicy answers one policy; NOT_FOUND when there is none by that name.
   */
  getPolicy(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  getPolicy(argument: _sluice_policies_v1_PolicyNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  getPolicy(argument: _sluice_policies_v1_PolicyNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  getPolicy(argument: _sluice_policies_v1_PolicyNameRequest, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListDecisions answers the decisions currently published for one component kind (e.g. rate_limiter).
   */
  ListDecisions(argument: _sluice_policies_v1_ListDecisionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_ListDecisionsResponse__Output>): grpc.ClientUnaryCall;
  ListDecisions(argument: _sluice_policies_v1_ListDecisionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_ListDecisionsResponse__Output>): grpc.ClientUnaryCall;
  ListDecisions(argument: _sluice_policies_v1_ListDecisionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_ListDecisionsResponse__Output>): grpc.ClientUnaryCall;
  ListDecisions(argument: _sluice_policies_v1_ListDecisionsRequest, callback: grpc.requestCallback<_sluice_policies_v1_ListDecisionsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListDecisions answers the decisions currently published for one component kind (e.g. rate_limiter).
   */
  listDecisions(argument: _sluice_policies_v1_ListDecisionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_ListDecisionsResponse__Output>): grpc.ClientUnaryCall;
  listDecisions(argument: _sluice_policies_v1_ListDecisionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_ListDecisionsResponse__Output>): grpc.ClientUnaryCall;
  listDecisions(argument: _sluice_policies_v1_ListDecisionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_ListDecisionsResponse__Output>): grpc.ClientUnaryCall;
  listDecisions(argument: _sluice_policies_v1_ListDecisionsRequest, callback: grpc.requestCallback<_sluice_policies_v1_ListDecisionsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * ListPolicies answers every policy the controller runs (from the API and from custom resources).
   */
  ListPolicies(argument: _sluice_policies_v1_ListPoliciesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_ListPoliciesResponse__Output>): grpc.ClientUnaryCall;
  ListPolicies(argument: _sluice_policies_v1_ListPoliciesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_ListPoliciesResponse__Output>): grpc.ClientUnaryCall;
  ListPolicies(argument: _sluice_policies_v1_ListPoliciesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_ListPoliciesResponse__Output>): grpc.ClientUnaryCall;
  ListPolicies(argument: _sluice_policies_v1_ListPoliciesRequest, callback: grpc.requestCallback<_sluice_policies_v1_ListPoliciesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * ListPolicies answers every policy the controller runs (from the API and from custom resources).
   */
  listPolicies(argument: _sluice_policies_v1_ListPoliciesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_ListPoliciesResponse__Output>): grpc.ClientUnaryCall;
  listPolicies(argument: _sluice_policies_v1_ListPoliciesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_ListPoliciesResponse__Output>): grpc.ClientUnaryCall;
  listPolicies(argument: _sluice_policies_v1_ListPoliciesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_ListPoliciesResponse__Output>): grpc.ClientUnaryCall;
  listPolicies(argument: _sluice_policies_v1_ListPoliciesRequest, callback: grpc.requestCallback<_sluice_policies_v1_ListPoliciesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * PatchPolicy applies a JSON merge patch (RFC 7396) to the spec of an existing policy.
   */
  PatchPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  PatchPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  PatchPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  PatchPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * PatchPolicy applies a JSON merge patch (RFC 7396) to the spec of an existing policy.
   */
  patchPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  patchPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  patchPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  patchPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * PostDynamicConfig sets a policy's dynamic configuration: a JSON object whose members are the
   * keys its components name (`config_key`, `dry_run_config_key`, ...). A member no component names,
   * or a value of the wrong type, is INVALID_ARGUMENT naming it; NOT_FOUND when there is no policy.
   * Kept in etcd; applied without publishing the policy again.
   */
  PostDynamicConfig(argument: _sluice_policies_v1_DynamicConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  PostDynamicConfig(argument: _sluice_policies_v1_DynamicConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  PostDynamicConfig(argument: _sluice_policies_v1_DynamicConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  PostDynamicConfig(argument: _sluice_policies_v1_DynamicConfigRequest, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  /**
   * PostDynamicConfig sets a policy's dynamic configuration: a JSON object whose members are the
   * keys its components name (`config_key`, `dry_run_config_key`, ...). A member no component names,
   * or a value of the wrong type, is INVALID_ARGUMENT naming it; NOT_FOUND when there is no policy.
   * Kept in etcd; applied without publishing the policy again.
   */
  postDynamicConfig(argument: _sluice_policies_v1_DynamicConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  postDynamicConfig(argument: _sluice_policies_v1_DynamicConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  postDynamicConfig(argument: _sluice_policies_v1_DynamicConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  postDynamicConfig(argument: _sluice_policies_v1_DynamicConfigRequest, callback: grpc.requestCallback<_sluice_policies_v1_DynamicConfigResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * SetVariable sets the value of a `variable` component's signal.
   */
  SetVariable(argument: _sluice_policies_v1_SetVariableRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_SetVariableResponse__Output>): grpc.ClientUnaryCall;
  SetVariable(argument: _sluice_policies_v1_SetVariableRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_SetVariableResponse__Output>): grpc.ClientUnaryCall;
  SetVariable(argument: _sluice_policies_v1_SetVariableRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_SetVariableResponse__Output>): grpc.ClientUnaryCall;
  SetVariable(argument: _sluice_policies_v1_SetVariableRequest, callback: grpc.requestCallback<_sluice_policies_v1_SetVariableResponse__Output>): grpc.ClientUnaryCall;
  /**
   * SetVariable sets the value of a `variable` component's signal.
   */
  setVariable(argument: _sluice_policies_v1_SetVariableRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_SetVariableResponse__Output>): grpc.ClientUnaryCall;
  setVariable(argument: _sluice_policies_v1_SetVariableRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_SetVariableResponse__Output>): grpc.ClientUnaryCall;
  setVariable(argument: _sluice_policies_v1_SetVariableRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_SetVariableResponse__Output>): grpc.ClientUnaryCall;
  setVariable(argument: _sluice_policies_v1_SetVariableRequest, callback: grpc.requestCallback<_sluice_policies_v1_SetVariableResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * UpsertPolicy creates or replaces a policy. A spec that does not validate or compile is
   * INVALID_ARGUMENT with the JSON path of each field at fault, and nothing changes.
   */
  UpsertPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  UpsertPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  UpsertPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  UpsertPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  /**
   * UpsertPolicy creates or replaces a policy. A spec that does not validate or compile is
   * INVALID_ARGUMENT with the JSON path of each field at fault, and nothing changes.
   */
  upsertPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  upsertPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  upsertPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  upsertPolicy(argument: _sluice_policies_v1_UpsertPolicyRequest, callback: grpc.requestCallback<_sluice_policies_v1_PolicyResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface PolicyServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * DeleteDynamicConfig removes the dynamic configuration posted for a policy.
   */
  DeleteDynamicConfig: grpc.handleUnaryCall<_sluice_policies_v1_PolicyNameRequest__Output, _sluice_policies_v1_DeleteDynamicConfigResponse>;
  
  /**
   * DeletePolicy removes a policy posted to the API and everything it published.
   */
  DeletePolicy: grpc.handleUnaryCall<_sluice_policies_v1_PolicyNameRequest__Output, _sluice_policies_v1_DeletePolicyResponse>;
  
  /**
   * GetDynamicConfig answers the dynamic configuration in effect (the Policy resource's
   * `dynamicConfig` with what was posted over it); NOT_FOUND when there is none.
   */
  GetDynamicConfig: grpc.handleUnaryCall<_sluice_policies_v1_PolicyNameRequest__Output, _sluice_policies_v1_DynamicConfigResponse>;
  
  /**
   * GetPolicy answers one policy; NOT_FOUND when there is none by that name.
   */
  GetPolicy: grpc.handleUnaryCall<_sluice_policies_v1_PolicyNameRequest__Output, _sluice_policies_v1_PolicyResponse>;
  
  /**
   * ListDecisions answers the decisions currently published for one component kind (e.g. rate_limiter).
   */
  ListDecisions: grpc.handleUnaryCall<_sluice_policies_v1_ListDecisionsRequest__Output, _sluice_policies_v1_ListDecisionsResponse>;
  
  /**
   * ListPolicies answers every policy the controller runs (from the API and from custom resources).
   */
  ListPolicies: grpc.handleUnaryCall<_sluice_policies_v1_ListPoliciesRequest__Output, _sluice_policies_v1_ListPoliciesResponse>;
  
  /**
   * PatchPolicy applies a JSON merge patch (RFC 7396) to the spec of an existing policy.
   */
  PatchPolicy: grpc.handleUnaryCall<_sluice_policies_v1_UpsertPolicyRequest__Output, _sluice_policies_v1_PolicyResponse>;
  
  /**
   * PostDynamicConfig sets a policy's dynamic configuration: a JSON object whose members are the
   * keys its components name (`config_key`, `dry_run_config_key`, ...). A member no component names,
   * or a value of the wrong type, is INVALID_ARGUMENT naming it; NOT_FOUND when there is no policy.
   * Kept in etcd; applied without publishing the policy again.
   */
  PostDynamicConfig: grpc.handleUnaryCall<_sluice_policies_v1_DynamicConfigRequest__Output, _sluice_policies_v1_DynamicConfigResponse>;
  
  /**
   * SetVariable sets the value of a `variable` component's signal.
   */
  SetVariable: grpc.handleUnaryCall<_sluice_policies_v1_SetVariableRequest__Output, _sluice_policies_v1_SetVariableResponse>;
  
  /**
   * UpsertPolicy creates or replaces a policy. A spec that does not validate or compile is
   * INVALID_ARGUMENT with the JSON path of each field at fault, and nothing changes.
   */
  UpsertPolicy: grpc.handleUnaryCall<_sluice_policies_v1_UpsertPolicyRequest__Output, _sluice_policies_v1_PolicyResponse>;
  
}

export interface PolicyServiceDefinition extends grpc.ServiceDefinition {
  DeleteDynamicConfig: MethodDefinition<_sluice_policies_v1_PolicyNameRequest, _sluice_policies_v1_DeleteDynamicConfigResponse, _sluice_policies_v1_PolicyNameRequest__Output, _sluice_policies_v1_DeleteDynamicConfigResponse__Output>
  DeletePolicy: MethodDefinition<_sluice_policies_v1_PolicyNameRequest, _sluice_policies_v1_DeletePolicyResponse, _sluice_policies_v1_PolicyNameRequest__Output, _sluice_policies_v1_DeletePolicyResponse__Output>
  GetDynamicConfig: MethodDefinition<_sluice_policies_v1_PolicyNameRequest, _sluice_policies_v1_DynamicConfigResponse, _sluice_policies_v1_PolicyNameRequest__Output, _sluice_policies_v1_DynamicConfigResponse__Output>
  GetPolicy: MethodDefinition<_sluice_policies_v1_PolicyNameRequest, _sluice_policies_v1_PolicyResponse, _sluice_policies_v1_PolicyNameRequest__Output, _sluice_policies_v1_PolicyResponse__Output>
  ListDecisions: MethodDefinition<_sluice_policies_v1_ListDecisionsRequest, _sluice_policies_v1_ListDecisionsResponse, _sluice_policies_v1_ListDecisionsRequest__Output, _sluice_policies_v1_ListDecisionsResponse__Output>
  ListPolicies: MethodDefinition<_sluice_policies_v1_ListPoliciesRequest, _sluice_policies_v1_ListPoliciesResponse, _sluice_policies_v1_ListPoliciesRequest__Output, _sluice_policies_v1_ListPoliciesResponse__Output>
  PatchPolicy: MethodDefinition<_sluice_policies_v1_UpsertPolicyRequest, _sluice_policies_v1_PolicyResponse, _sluice_policies_v1_UpsertPolicyRequest__Output, _sluice_policies_v1_PolicyResponse__Output>
  PostDynamicConfig: MethodDefinition<_sluice_policies_v1_DynamicConfigRequest, _sluice_policies_v1_DynamicConfigResponse, _sluice_policies_v1_DynamicConfigRequest__Output, _sluice_policies_v1_DynamicConfigResponse__Output>
  SetVariable: MethodDefinition<_sluice_policies_v1_SetVariableRequest, _sluice_policies_v1_SetVariableResponse, _sluice_policies_v1_SetVariableRequest__Output, _sluice_policies_v1_SetVariableResponse__Output>
  UpsertPolicy: MethodDefinition<_sluice_policies_v1_UpsertPolicyRequest, _sluice_policies_v1_PolicyResponse, _sluice_policies_v1_UpsertPolicyRequest__Output, _sluice_policies_v1_PolicyResponse__Output>
}
