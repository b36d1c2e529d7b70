export { PROTO_DIR, PROTO_FILES, LOADER_OPTIONS, SERVICE_NAMES, loadSluiceProtos, serviceClient, type ServiceKey } from './load.js';
