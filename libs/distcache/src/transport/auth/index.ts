export { Keyring, parseKeys, MIN_KEY_BYTES, TAG_BYTES } from './keyring.js';
export { PacketSealer, claimedSender, type OpenResult } from './packet-seal.js';
export { OpsChannel, HelloVerifier, clientHello, type HelloResult } from './ops-channel.js';
export { ReplayWindow } from './replay-window.js';
export { keyringFrom, isLoopbackBind, type KeySettings } from './key-config.js';
