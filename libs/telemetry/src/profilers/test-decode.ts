import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';

/** Decodes a gzipped pprof profile and names its sample types (`type/unit`). */
export function decodeProfile(data: Uint8Array): { profile: Profile; sampleTypes: string[]; functions: string[] } {
  const profile = Profile.decode(gunzipSync(data));
  const strings = profile.stringTable.strings;
  const sampleTypes = profile.sampleType.map((v) => `${strings[Number(v.type)]}/${strings[Number(v.unit)]}`);
  const functions = profile.function.map((f) => strings[Number(f.name)]);
  return { profile, sampleTypes, functions };
}
