// Speed of the page's engine under node (V8): perft and the Expert level's search, through the
// committed module and the page's own wrapper. From the repository's root:
//   node scripts/wasm-speed.mjs [NODES]
// and the same requests on the native build, to compare in the same minute:
//   cargo run --release -p reversi-web --example speed -- [NODES]
// NODES (default 1000000) is the search budget of each `eval` request, on the positions of
// scripts/speed-positions.txt; the search stops at it, so nodes per second are the budget over
// the time.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const nodes = Number(process.argv[2] ?? 1000000);
const root = new URL("..", import.meta.url);
const file = (p) => readFileSync(new URL(p, root));
const { loadEngine } = await import(pathToFileURL(new URL("examples/server/static/engine.js", root).pathname).href);
const engine = await loadEngine(file("examples/server/static/reversi.wasm"));
const installed = engine.installWeights(file("reversi-ai/weights/expert.bin"));
if (!installed.installed) throw new Error(`weights refused: ${JSON.stringify(installed)}`);
const boards = file("scripts/speed-positions.txt")
  .toString()
  .split("\n")
  .filter((l) => l.trim() !== "" && !l.startsWith("#"));

const timed = (request) => {
  const t = performance.now();
  const answer = engine.call(request);
  if (answer.type === "error") throw new Error(JSON.stringify(answer));
  return [answer, (performance.now() - t) / 1000];
};
for (const depth of [9, 11]) {
  const [a, s] = timed({ type: "perft", depth });
  console.log(`perft ${depth}: count=${a.count} time_s=${s.toFixed(3)} leaves_per_s=${Math.round(a.count / s)}`);
}
let total = 0;
for (const board of boards) total += timed({ type: "eval", board, nodes })[1];
console.log(
  `eval: ${boards.length} positions x ${nodes} nodes time_s=${total.toFixed(3)} nodes_per_s=${Math.round((boards.length * nodes) / total)}`,
);
