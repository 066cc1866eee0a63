// The page's worker: converts with the WebAssembly module off the page's thread. A script
// defining one function; the page (app.js) starts each worker from its text as a blob: a
// module worker importing pgn-iccf.mjs when the page is served, a classic one over the text
// of PgnIccfSource (pgn-iccf.js, the same code) from file://.
//
// Messages in:  {id, kind: 'convert', bytes, options} | {id, kind: 'position', bytes, offset,
//               options} | {id, kind: 'languages'} | {id, kind: 'sniff', bytes}
//               | {id, kind: 'defaults'}
// Messages out: {id, progress: [done, total]} while converting, then {id, result} or
//               {id, error}. Cancel: the page terminates the worker.
/* exported pgnIccfWorkerMain */
function pgnIccfWorkerMain(scope, factory) {
  const ready = factory();
  scope.onmessage = async (event) => {
    const { id, kind } = event.data;
    try {
      const m = await ready;
      if (kind === 'convert') {
        let last = 0;
        const result = m.convertWithProgress(event.data.bytes, event.data.options, (done, total) => {
          const now = Date.now();
          if (now - last >= 50 || done === total) {
            last = now;
            scope.postMessage({ id, progress: [done, total] });
          }
        });
        const transfer = result.output ? [result.output.buffer, result.rejects.buffer] : [];
        scope.postMessage({ id, result }, transfer);
      } else if (kind === 'position') {
        scope.postMessage({ id, result: m.positionAt(event.data.bytes, event.data.offset, event.data.options) });
      } else if (kind === 'sniff') {
        scope.postMessage({ id, result: m.sniff(event.data.bytes) });
      } else if (kind === 'languages') {
        scope.postMessage({ id, result: m.languages() });
      } else if (kind === 'defaults') {
        scope.postMessage({ id, result: m.defaults() });
      } else {
        scope.postMessage({ id, error: `unknown request ${kind}` });
      }
    } catch (error) {
      scope.postMessage({ id, error: String(error && error.message ? error.message : error) });
    }
  };
}
