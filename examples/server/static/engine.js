// The hand-written wrapper of reversi.wasm, the engine of local games (package reversi-web):
// requests and answers are JSON, passed through the module's memory. Used by the page's Web
// Worker (worker.js) and by the Rust test that runs the module under node.
//
//   const engine = await loadEngine(bytes);          // bytes: the module's ArrayBuffer
//   engine.call({ type: "perft", depth: 3 });         // { type: "perft", depth: 3, count: 44 }
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
  return {
    call(request) {
      const text = encoder.encode(JSON.stringify(request));
      const ptr = ex.rv_alloc(text.length);
      new Uint8Array(ex.memory.buffer, ptr, text.length).set(text);
      const len = ex.rv_call(ptr, text.length);
      return JSON.parse(decoder.decode(new Uint8Array(ex.memory.buffer, ex.rv_answer(), len)));
    },
  };
}
