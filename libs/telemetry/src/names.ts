import { join } from 'node:path';
import { InvalidArgumentError } from '@sluice/errors';

/** Where Sluice keeps its files by default (/etc/sluice, /var/log/sluice; docs/configuration.md). */
export const VENDOR_LOG_DIR = '/var/log/sluice';

const SERVICE_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** The service name, checked to be safe inside a file name. */
export function checkServiceName(service: string): string {
  if (!SERVICE_NAME.test(service)) {
    throw new InvalidArgumentError(`service name "${service}" must match ${SERVICE_NAME.source}`, 'service');
  }
  return service;
}

/** `log.writers[].file: default` → /var/log/sluice/<service>.log */
export function defaultLogFile(service: string): string {
  return join(VENDOR_LOG_DIR, `${checkServiceName(service)}.log`);
}

/** `profilers.profiles_path: default` → /var/log/sluice/<service>/profiles */
export function defaultProfilesDir(service: string): string {
  return join(VENDOR_LOG_DIR, checkServiceName(service), 'profiles');
}

/** A timestamp usable in a file name: 2024-01-02T15-04-05.123Z (UTC). */
export function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/:/g, '-');
}
