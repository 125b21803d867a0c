// The accuracy of ONNX classifiers in ONNX Runtime (onnxruntime-node, CPU) on images.bin and
// labels.bin (fashion_slice.py's): one JSON line per file, {"file", "accuracy", "examples"}.
//
//   node tests/export/onnx_accuracy.mjs FOLDER ORT_DIR MODEL.onnx [MODEL.onnx ...]
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [folder, ortDir, ...models] = process.argv.slice(2);
const ort = createRequire(path.join(ortDir, 'package.json'))('onnxruntime-node');
const read = (name) => {
  const b = fs.readFileSync(path.join(folder, name));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};
const images = new Float32Array(read('images.bin'));
const labels = new BigInt64Array(read('labels.bin'));
const n = labels.length;
for (const model of models) {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1 });
  const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', images, [n, 1, 28, 28]) };
  const out = (await session.run(feeds))[session.outputNames[0]];
  const classes = out.dims[1];
  let correct = 0;
  for (let i = 0; i < n; ++i) {
    let best = 0;
    for (let c = 1; c < classes; ++c) if (out.data[i * classes + c] > out.data[i * classes + best]) best = c;
    if (BigInt(best) === labels[i]) ++correct;
  }
  console.log(JSON.stringify({ file: model, accuracy: correct / n, examples: n }));
}
