/** Test helpers for other workspaces' tests (never imported by production code). */
export { createTestPki, type TestPki } from './cert-support.js';
