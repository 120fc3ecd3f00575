import * as esbuild from "esbuild";
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { dirname } from "node:path";
const t = performance.now();
const r = await esbuild.build({
  entryPoints: ["test/flows/basic-flow.spec.ts"], bundle: true, format: "esm", platform: "node", target: "node20",
  packages: "external", splitting: true, outdir: "node_modules/.cache/fc-bundle", sourcemap: "inline", metafile: true, logLevel: "warning",
  plugins: [{ name: "meta", setup(b) { b.onLoad({ filter: /\.ts$/ }, async (a) => { let c = await readFile(a.path, "utf8"); if (c.includes("import.meta")) c = c.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(a.path).href)).replaceAll("import.meta.dirname", JSON.stringify(dirname(a.path))); return { contents: c, loader: "ts" }; }); } }],
});
console.log("build ms", (performance.now() - t).toFixed(0), Object.keys(r.metafile.inputs).length, "inputs", Object.keys(r.metafile.outputs));
await esbuild.stop?.();
