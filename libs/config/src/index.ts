export { parseDuration, tryParseDuration, formatDuration } from "./duration.js";
