/** Longest object name Kubernetes accepts for an Event (a DNS-1123 subdomain). */
export const MAX_EVENT_NAME_LENGTH = 253;
/** Longest Event message sent (the API server's `note` limit on events.k8s.io Events is 1 KiB). */
export const MAX_EVENT_MESSAGE_LENGTH = 1024;

/**
 * The name of an Event about object `objectName`: `<objectName>.<suffix>`, the object's name cut so
 * the whole stays within MAX_EVENT_NAME_LENGTH and still ends with a letter or digit (an object whose
 * name is near the limit would otherwise never get an Event).
 */
export function eventName(objectName: string, suffix: string): string {
  const room = MAX_EVENT_NAME_LENGTH - suffix.length - 1;
  let base = objectName.length > room ? objectName.slice(0, room) : objectName;
  base = base.replace(/[^a-z0-9]+$/, '');
  return base === '' ? suffix : `${base}.${suffix}`;
}

/** An Event message cut to MAX_EVENT_MESSAGE_LENGTH characters, marked when cut. */
export function eventMessage(message: string): string {
  if (message.length <= MAX_EVENT_MESSAGE_LENGTH) return message;
  const mark = ` … (${message.length} characters in all)`;
  return message.slice(0, MAX_EVENT_MESSAGE_LENGTH - mark.length) + mark;
}
