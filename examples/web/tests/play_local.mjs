// Plays local games through the committed WebAssembly module under node, as the page's worker
// drives it (engine.js, the `local` requests of the contract):
//   node play_local.mjs MODULE.wasm ENGINE.js < games.json
// games.json: an array of `local_new` messages. Against the computer, the person plays the
// legal move at index (7 * its move number) mod their count; the computer moves on `think`.
// Prints, for each game, every answer of the module in order (a JSON array of arrays).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, wrapperPath] = process.argv.slice(2);
const { loadEngine } = await import(pathToFileURL(wrapperPath).href);
const engine = await loadEngine(readFileSync(modulePath));
const games = JSON.parse(readFileSync(0, "utf8"));
let now = 1_767_225_600_000;
const results = [];
for (const newGame of games) {
  const answers = [];
  let a = engine.call({ type: "local", msg: newGame, now: (now += 10) });
  answers.push(a);
  const id = a.out[0].game;
  let state = a.out[1];
  let n = 0;
  for (let guard = 0; guard < 200 && state.status === "playing"; guard++) {
    if (a.think) {
      a = engine.call({ type: "local_think", now: (now += 10) });
    } else {
      const legal = state.legal;
      const square = legal[(7 * n++) % legal.length].square;
      a = engine.call({ type: "local", msg: { type: "move", game: id, square, version: state.version }, now: (now += 10) });
    }
    answers.push(a);
    const states = a.out.filter((m) => m.type === "state");
    if (states.length === 0) break;
    state = states[states.length - 1];
  }
  results.push(answers);
}
process.stdout.write(JSON.stringify(results));
