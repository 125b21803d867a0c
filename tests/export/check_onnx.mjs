// Runs every ONNX file of an export test folder in ONNX Runtime (the npm package
// onnxruntime-node, CPU) and compares its output with LibTorch's. Prints one JSON line per file:
// {"case", "max_diff"} (or "error", also when either output holds a NaN or an infinity).
//
//   node tests/export/check_onnx.mjs FOLDER ORT_DIR     # FOLDER/cases.json; ORT_DIR/node_modules
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [folder, ortDir] = process.argv.slice(2);
const ort = createRequire(path.join(ortDir, 'package.json'))('onnxruntime-node');

function read(entry) {
  const bytes = fs.readFileSync(path.join(folder, entry.file));
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const data = entry.dtype === 'int64' ? new BigInt64Array(buffer) : new Float32Array(buffer);
  return new ort.Tensor(entry.dtype, data, entry.shape);
}

const { cases } = JSON.parse(fs.readFileSync(path.join(folder, 'cases.json'), 'utf8'));
for (const c of cases) {
  for (const file of c.onnx) {
    const name = `${c.name} (${file.replace(/^case\d+_/, '').replace('.onnx', '')})`;
    try {
      const session = await ort.InferenceSession.create(path.resolve(folder, file), { intraOpNumThreads: 1 });
      const feeds = {};
      for (const e of c.inputs) feeds[e.name] = read(e);
      const out = (await session.run(feeds))[c.output];
      const expected = read(c.expected);
      if (JSON.stringify(out.dims) !== JSON.stringify(expected.dims)) {
        throw new Error(`shape [${out.dims}], expected [${expected.dims}]`);
      }
      // A NaN or an infinity on either side is a failure, never a difference: Math.max would carry
      // NaN through, JSON.stringify would write it as null, and a reader would take null for 0.
      let diff = 0;
      for (let i = 0; i < out.data.length; ++i) {
        const got = Number(out.data[i]), want = Number(expected.data[i]);
        if (!Number.isFinite(got)) throw new Error(`output ${i} is ${got} (expected ${want})`);
        if (!Number.isFinite(want)) throw new Error(`expected output ${i} is ${want}: the reference is not finite`);
        diff = Math.max(diff, Math.abs(got - want));
      }
      console.log(JSON.stringify({ case: name, max_diff: diff }));
    } catch (e) {
      console.log(JSON.stringify({ case: name, error: String(e.message || e) }));
    }
  }
}
