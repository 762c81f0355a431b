// Runs requests through the committed WebAssembly module under node, with the page's own wrapper:
//   node run_wasm.mjs MODULE.wasm ENGINE.js < requests.json   (a JSON array)
// prints the JSON array of the answers.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, wrapperPath] = process.argv.slice(2);
const { loadEngine } = await import(pathToFileURL(wrapperPath).href);
const engine = await loadEngine(readFileSync(modulePath));
const requests = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(requests.map((r) => engine.call(r))));
