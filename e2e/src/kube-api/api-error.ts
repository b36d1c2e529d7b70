// Errors of the test API server, answered as meta/v1 Status objects the way
// the real API server answers them (code, reason, message, details).

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'UnsupportedMediaType'
  | 'NotAcceptable'
  | 'Gone'
  | 'Expired'
  | 'ServiceUnavailable'
  | 'InternalError';

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: { reason?: string; message: string; field?: string }[];
}

export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** An error the handler turns into a Status body with `code` as the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): StatusObject {
    const s: StatusObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason, code: this.code };
    if (this.details) s.details = this.details;
    return s;
  }
}

/** `policies.sluice.dev` for a group's resource, `pods` for the core group. */
export function qualifiedResource(group: string, resource: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

export function notFound(group: string, resource: string, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${qualifiedResource(group, resource)} "${name}" not found`, { name, group, kind: resource });
}

export function alreadyExists(group: string, resource: string, name: string): ApiError {
  return new ApiError(409, 'AlreadyExists', `${qualifiedResource(group, resource)} "${name}" already exists`, { name, group, kind: resource });
}

export function conflict(group: string, resource: string, name: string): ApiError {
  return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(group, resource)} "${name}": the object has been modified; please apply your changes to the latest version and try again`, { name, group, kind: resource });
}

export function invalid(group: string, kind: string, name: string, causes: { field: string; message: string }[]): ApiError {
  const text = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  return new ApiError(422, 'Invalid', `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${text}`, {
    name, group, kind, causes: causes.map((c) => ({ reason: 'FieldValueInvalid', message: c.message, field: c.field })),
  });
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function gone(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}
