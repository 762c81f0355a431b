// Draws the page's install icons (examples/server/static/icon-192.png and icon-512.png): the
// favicon's design (four discs on the felt) as PNG, which installable web apps need.
//   node web-tests/tools/make-icons.js
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const zlib = require("node:zlib");

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc32(buf) {
  let c = -1;
  for (const b of buf) c = CRC[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function icon(size) {
  const s = size / 32; // the favicon's units
  const felt = [0x2f, 0x8a, 0x4c], line = [0x17, 0x4a, 0x27], black = [0x11, 0x11, 0x11], white = [0xfa, 0xfa, 0xfa];
  const discs = [[11, 11, black], [21, 21, white], [21, 11, white], [11, 21, black]];
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const u = (x + 0.5) / s, v = (y + 0.5) / s;
      let px = felt;
      for (const [cx, cy, col] of discs) {
        const d = Math.hypot(u - cx, v - cy);
        if (d <= 6.5) px = d > 6.0 && col === white ? line : col;
      }
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = px[0]; raw[o + 1] = px[1]; raw[o + 2] = px[2]; raw[o + 3] = 255;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0)),
  ]);
}

const out = path.resolve(__dirname, "..", "..", "examples", "server", "static");
for (const size of [192, 512]) fs.writeFileSync(path.join(out, `icon-${size}.png`), icon(size));
