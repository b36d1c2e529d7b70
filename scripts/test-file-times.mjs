// A reporter for Node's test runner (scripts/run-tests.mjs adds it beside the TAP one): one line per
// test file when the file ends, "<seconds>\t<ok|failed>\t<file>", the file's whole run (its process
// start, imports and tests).
export default async function* fileTimes(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { data } = event;
    if (data.nesting !== 0 || data.file === undefined || data.name !== data.file) continue;
    const failed = data.details?.error !== undefined || data.details?.passed === false;
    yield `${(data.details.duration_ms / 1000).toFixed(1)}\t${failed ? 'failed' : 'ok'}\t${data.file}\n`;
  }
}
