// SPDX-License-Identifier: MIT OR Apache-2.0
// Run every case of onnx_ort_check.py's cases.json with onnxruntime-node
// (CPU execution provider, graph optimizations off): feeds from the raw
// little-endian .bin files, the output's values to DIR/ort.bin.
// usage: node onnx_ort_run.cjs ORT_MODULE_DIR CASES_JSON
const fs = require("fs");
const path = require("path");
const ort = require(path.resolve(process.argv[2]));
const cases = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const arrays = { float32: Float32Array, float16: Uint16Array, int64: BigInt64Array, uint8: Uint8Array };

(async () => {
    for (const c of cases) {
        const session = await ort.InferenceSession.create(path.join(c.dir, "model.onnx"),
                                                          { executionProviders: ["cpu"], graphOptimizationLevel: "disabled" });
        const feeds = {};
        for (const [name, f] of Object.entries(c.feeds)) {
            const buf = fs.readFileSync(f.path);
            const A = arrays[f.type];
            const data = new A(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
            feeds[name] = new ort.Tensor(f.type, data, f.dims);
        }
        const out = (await session.run(feeds))[c.output];
        const d = out.data;
        fs.writeFileSync(path.join(c.dir, "ort.bin"), Buffer.from(d.buffer, d.byteOffset, d.byteLength));
    }
})().catch((e) => { console.error(e); process.exit(1); });
