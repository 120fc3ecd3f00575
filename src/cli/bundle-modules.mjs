import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

// A test process that imports its spec files through tsx pays for every module it loads: on Node
// 20 each one is a round trip to tsx's hooks thread, and a flow spec loads about 190 of them
// (half a second here). Bundled with esbuild (which tsx runs on anyway) into one module per spec
// file, with the shared code in common chunks, the same specs load in plain `node` with no tsx at
// all; and so do run-specs' own TypeScript helpers, without starting tsx in run-specs. Packages stay outside the bundle, as they were; a bundle lives under node_modules/.cache so
// that they resolve from it as from the project.
//
// A bundle is kept and used again while none of its inputs has changed (size and mtime), so a
// run that changes nothing pays a few stats for it. Builds are never changed once written: a run
// that finds its inputs changed builds a new folder and points the index at it, so a run started
// on the old one keeps reading it.

const ROOT = resolve(import.meta.dirname, "..", "..");
const ESBUILD_VERSION = /** @type {{ version: string }} */ (createRequire(import.meta.url)("esbuild/package.json")).version;
/**
 * The cache folder, by its real path: Node runs a bundle from its real path, and a map's sources are
 * relative to it, so with node_modules a symlink (a second checkout sharing the first's) a map
 * written through the link would name the other checkout's files in stacks.
 */
const CACHE = (() => {
  const path = join(ROOT, "node_modules", ".cache", "flowcheck", "modules");
  mkdirSync(path, { recursive: true });
  return realpathSync(path);
})();
// Old builds are removed once there are more than this many, and only those not used for a while.
const KEPT_BUILDS = 24;
const STALE_MILLIS = 10 * 60_000;

/**
 * `import.meta` in a bundle would be the bundle's: each source file gets its own values, declared
 * at the start of its first line (so its line numbers stay as they are) and put in place of
 * `import.meta.url`, `.dirname` and `.filename` by esbuild's `define`.
 */
const META = { "import.meta.url": "__flowcheckMetaUrl", "import.meta.dirname": "__flowcheckMetaDirname", "import.meta.filename": "__flowcheckMetaFilename" };

/** @type {import("esbuild").Plugin} */
const ownImportMeta = {
  name: "own-import-meta",
  setup(build) {
    // Every script: `define` puts the names in JavaScript files as well (packages are not bundled).
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      const loader = /\.[cm]?ts$/.test(args.path) ? "ts" : "js";
      if (!text.includes("import.meta")) return { contents: text, loader };
      const values = `const __flowcheckMetaUrl = ${JSON.stringify(pathToFileURL(args.path).href)}, __flowcheckMetaDirname = ${JSON.stringify(dirname(args.path))}, __flowcheckMetaFilename = ${JSON.stringify(args.path)};`;
      return { contents: values + text, loader };
    });
  },
};

/** @param {string} path */
const stamp = (path) => {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : "gone";
};

/**
 * The bundled module of each file in `files` (spec files, or run-specs' own TypeScript helpers),
 * as file URLs by path; undefined when they cannot be bundled (a syntax error, an import that does
 * not resolve): the run then imports them through tsx as before, and a spec's failure is reported
 * there, naming the file.
 * @param {string[]} files
 * @returns {Promise<Map<string, string> | undefined>}
 */
export async function bundleModules(files) {
  const specs = files.map((file) => resolve(file));
  // A new Node, esbuild or way of bundling (this file) is a new bundle.
  const key = createHash("sha256").update(`${process.version}\n${ESBUILD_VERSION}\n${stamp(fileURLToPath(import.meta.url))}\n${specs.join("\n")}`).digest("hex").slice(0, 16);
  const index = join(CACHE, `${key}.json`);
  const kept = readIndex(index);
  const build = kept ?? (await buildBundle(specs, key, index));
  if (!build) return undefined;
  return new Map(files.map((file, n) => [file, pathToFileURL(join(CACHE, build, `module-${n}.mjs`)).href]));
}

/** The build folder `index` names, if every input it was built from is as it was then. @param {string} index */
function readIndex(index) {
  try {
    const { build, inputs } = /** @type {{ build: string, inputs: Record<string, string> }} */ (JSON.parse(readFileSync(index, "utf8")));
    const fresh = Object.entries(inputs).every(([path, was]) => stamp(path) === was);
    if (!fresh) return undefined;
    // Marks it used, so no other run removes it as old; throws if one already has.
    utimesSync(join(CACHE, build), new Date(), new Date());
    return build;
  } catch {
    return undefined;
  }
}

/** @param {string[]} specs @param {string} key @param {string} index @returns {Promise<string | undefined>} */
async function buildBundle(specs, key, index) {
  // Not stopped after the build: run-specs builds several at once, and esbuild's service holds a
  // process open only while a build is under way.
  const esbuild = await import("esbuild");
  const build = `${key}-${Date.now().toString(36)}-${process.pid}`;
  const outdir = join(CACHE, build);
  let result;
  try {
    result = await esbuild.build({
      entryPoints: specs.map((path, n) => ({ in: path, out: `module-${n}` })),
      outdir,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: `node${process.versions.node}`,
      packages: "external",
      sourcemap: "linked",
      sourcesContent: false,
      metafile: true,
      logLevel: "silent",
      absWorkingDir: ROOT,
      define: META,
      // Two classes of one name in a bundle are renamed apart (NameStep2), and a step is named by
      // its class: a team's step named like a demo's would no longer be its flow's step.
      keepNames: true,
      plugins: [ownImportMeta],
    });
  } catch {
    rmSync(outdir, { recursive: true, force: true });
    return undefined;
  }
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((input) => [resolve(ROOT, input), stamp(resolve(ROOT, input))]));
  // Written whole, then put in place: another run reads the old index or the new, never half of one.
  const written = `${index}.${process.pid}`;
  writeFileSync(written, JSON.stringify({ build, inputs }));
  renameSync(written, index);
  removeOldBuilds(build);
  return build;
}

/**
 * Keeps the newest builds, and any used in the last minutes (another run may be reading it), and
 * the indexes written in that time (an index whose build is gone is only a rebuild).
 * @param {string} current
 */
function removeOldBuilds(current) {
  const entries = readdirSync(CACHE, { withFileTypes: true })
    .filter((entry) => entry.name !== current)
    .map((entry) => ({ path: join(CACHE, entry.name), folder: entry.isDirectory(), used: statSync(join(CACHE, entry.name), { throwIfNoEntry: false })?.mtimeMs ?? Date.now() }))
    .sort((a, b) => b.used - a.used);
  const old = [...entries.filter((entry) => entry.folder).slice(KEPT_BUILDS - 1), ...entries.filter((entry) => !entry.folder).slice(KEPT_BUILDS)];
  for (const entry of old) if (Date.now() - entry.used > STALE_MILLIS) rmSync(entry.path, { recursive: true, force: true });
}
