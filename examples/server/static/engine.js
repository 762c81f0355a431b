// The hand-written wrapper of reversi.wasm, the engine of local games (package reversi-web):
// requests and answers are JSON, passed through the module's memory. Used by the page's Web
// Worker (worker.js) and by the Rust test that runs the module under node.
//
//   const engine = await loadEngine(bytes);          // bytes: the module's ArrayBuffer
//   engine.call({ type: "perft", depth: 3 });         // { type: "perft", depth: 3, count: 44 }
//   engine.installWeights(weightsBytes);              // { type: "weights", installed: true }
//
// installWeights hands the Expert level's weights file (weights/expert.bin, fetched from the
// server) to the module, which checks it: a bad file is answered
// { type: "error", code: "bad_weights", message } and nothing is installed.
//
// `now` is the time source the engine's clock and search are handed: milliseconds from any fixed
// origin (performance.now() in a worker).
export async function loadEngine(bytes, now = () => performance.now()) {
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: { rv_now_ms: () => now() },
  });
  const ex = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  // Copies `bytes` into the module's memory, calls `fn` on them, reads its JSON answer.
  const through = (fn, bytes) => {
    const ptr = ex.rv_alloc(bytes.length);
    new Uint8Array(ex.memory.buffer, ptr, bytes.length).set(bytes);
    const len = fn(ptr, bytes.length);
    return JSON.parse(decoder.decode(new Uint8Array(ex.memory.buffer, ex.rv_answer(), len)));
  };
  return {
    call(request) {
      return through(ex.rv_call, encoder.encode(JSON.stringify(request)));
    },
    installWeights(bytes) {
      return through(ex.rv_weights, new Uint8Array(bytes));
    },
  };
}
