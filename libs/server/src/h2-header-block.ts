import hpack from 'hpack.js';

/** SETTINGS_HEADER_TABLE_SIZE before either side changes it (RFC 9113 §6.5.2). */
const DEFAULT_HEADER_TABLE_SIZE = 4096;

/**
 * The fields of a connection's first header block, decoded (HPACK, RFC 7541) with a fresh
 * dynamic table of the default size, as a server's decoder holds it before the first request.
 * Throws on a block that does not decode (an index outside the tables, a truncated literal).
 */
export function decodeFirstHeaderBlock(block: Buffer): Array<{ name: string; value: string }> {
  const decoder = hpack.decompressor.create({ table: { size: DEFAULT_HEADER_TABLE_SIZE } });
  let failure: Error | undefined;
  decoder.on('error', (err) => { failure = err; });
  decoder.write(block);
  decoder.execute();
  if (failure !== undefined) throw new Error(`the header block does not decode: ${failure.message}`);
  const fields: Array<{ name: string; value: string }> = [];
  for (let field = decoder.read(); field !== null; field = decoder.read()) fields.push({ name: field.name, value: field.value });
  return fields;
}

/** Whether a request's content type makes it a gRPC call: `application/grpc`, `application/grpc+proto`, … */
export function isGrpcContentType(type: string | undefined): boolean {
  return type !== undefined && type.startsWith('application/grpc');
}
