// Runs requests through the committed WebAssembly module under node, with the page's own wrapper:
//   node run_wasm.mjs MODULE.wasm ENGINE.js < requests.json   (a JSON array)
// prints the JSON array of the answers. A request {"$weights": FILE} hands the bytes of FILE to
// the module's installWeights instead (with "flip": I, byte I flipped first: a corrupt file).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, wrapperPath] = process.argv.slice(2);
const { loadEngine } = await import(pathToFileURL(wrapperPath).href);
const engine = await loadEngine(readFileSync(modulePath));
const requests = JSON.parse(readFileSync(0, "utf8"));
const answer = (r) => {
  if (r.$weights === undefined) return engine.call(r);
  const bytes = readFileSync(r.$weights);
  if (r.flip !== undefined) bytes[r.flip] ^= 0x01;
  return engine.installWeights(bytes);
};
process.stdout.write(JSON.stringify(requests.map(answer)));
