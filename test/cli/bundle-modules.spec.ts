import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { test } from "node:test";
import { bundleModules } from "../../src/cli/bundle-modules.mjs";
import { tempDir } from "../support/temp-path.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");

/** Runs run-specs on `args` in `cwd` (its results written there), with TAP output. */
function runSpecs(args: string[], cwd: string): Promise<{ code: number | null; stdout: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env["NODE_TEST_CONTEXT"];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "src", "cli", "run-specs.mjs"), ...args, "--test-reporter=tap"], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout }));
  });
}

/** A spec in `dir` that checks a helper's own import.meta and fails on purpose at line 9, and the helper. */
function writeSpecWithHelper(dir: string): string {
  const helper = join(dir, "lib", "where.ts");
  mkdirSync(join(dir, "lib"));
  writeFileSync(helper, "export const where = { url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename };\n");
  const spec = join(dir, "meta.spec.ts");
  writeFileSync(
    spec,
    [
      `import assert from "node:assert/strict";`,
      `import { test } from "node:test";`,
      `import { where } from "./lib/where.ts";`,
      `test("a helper sees its own import.meta", () => {`,
      `  assert.deepEqual(where, ${JSON.stringify({ url: pathToFileURL(helper).href, dirname: join(dir, "lib"), filename: helper })});`,
      `  assert.equal(import.meta.filename, ${JSON.stringify(spec)});`,
      `});`,
      `test("fails on purpose", () => {`,
      `  throw new Error("failed on purpose");`,
      `});`,
      "",
    ].join("\n"),
  );
  return spec;
}

for (const mode of ["bundled", "--no-bundle"] as const) {
  test(`${mode}: a spec and its helpers see their own import.meta, and a failure's stack names the TypeScript line`, async () => {
    const dir = await tempDir("bundle-meta");
    try {
      const spec = writeSpecWithHelper(dir.path);
      const { code, stdout } = await runSpecs([spec, ...(mode === "bundled" ? [] : [mode])], dir.path);
      assert.equal(code, 1, stdout);
      assert.match(stdout, /^ok \d+ - a helper sees its own import\.meta$/m);
      assert.match(stdout, /^not ok \d+ - fails on purpose$/m);
      assert.ok(stdout.includes(`${spec}:9:9`), `the stack names meta.spec.ts:9:9:\n${stdout}`);
      assert.doesNotMatch(stdout, /\.cache\/flowcheck/, "no line of the bundle is shown");
    } finally {
      dir.remove();
    }
  });
}

test("a spec's bundle is built once and used again while its inputs are unchanged, and built anew when one changes", async () => {
  const dir = await tempDir("bundle-cache");
  try {
    const spec = writeSpecWithHelper(dir.path);
    const first = (await bundleModules([spec]))?.get(spec);
    assert.ok(first && existsSync(fileURLToPath(first)), "a bundle is written");
    assert.equal((await bundleModules([spec]))?.get(spec), first, "unchanged inputs: the same bundle");

    const helper = join(dir.path, "lib", "where.ts");
    writeFileSync(helper, readFileSync(helper, "utf8").replace("{ url:", `{ changed: "changed on purpose", url:`));
    const second = (await bundleModules([spec]))?.get(spec);
    assert.notEqual(second, first, "a changed helper: a new bundle");
    assert.match(readFileSync(fileURLToPath(second!), "utf8"), /changed on purpose/);
    assert.ok(existsSync(fileURLToPath(first)), "the old build stays for a run that may still read it");
  } finally {
    dir.remove();
  }
});

test("specs that cannot be bundled run through tsx, and a file that does not parse is one failing test naming it", async () => {
  const dir = await tempDir("bundle-broken");
  try {
    writeFileSync(join(dir.path, "fine.spec.ts"), `import { test } from "node:test";\ntest("fine runs", () => {});\n`);
    writeFileSync(join(dir.path, "broken.spec.ts"), `import { test } from "node:test";\ntest("never", () => {\n`);
    assert.equal(await bundleModules([join(dir.path, "fine.spec.ts"), join(dir.path, "broken.spec.ts")]), undefined);

    const { code, stdout } = await runSpecs([dir.path], dir.path);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /^ok \d+ - fine runs$/m);
    assert.match(stdout, /^not ok \d+ - .*broken\.spec\.ts loads$/m);
  } finally {
    dir.remove();
  }
});

test("several bundles built at once all finish: run-specs builds its helpers' side by side", async () => {
  const dir = await tempDir("bundle-together");
  try {
    const specs = ["one", "two", "three"].map((name) => {
      const spec = join(dir.path, `${name}.spec.ts`);
      writeFileSync(spec, `import { test } from "node:test";\ntest(${JSON.stringify(name)}, () => {});\n`);
      return spec;
    });
    const built = await Promise.all(specs.map((spec) => bundleModules([spec])));
    assert.deepEqual(
      built.map((bundles, n) => existsSync(fileURLToPath(bundles!.get(specs[n]!)!))),
      [true, true, true],
    );
  } finally {
    dir.remove();
  }
});

test("two classes of one name in one bundle keep their names, as a flow's steps are named by their classes", async () => {
  const dir = await tempDir("bundle-names");
  try {
    // A team's step named like a demo flow's (InvoiceFlow's ConfirmStep, say), both in a flow spec's bundle.
    for (const folder of ["ours", "demo"]) {
      mkdirSync(join(dir.path, folder));
      writeFileSync(join(dir.path, folder, "confirm-step.ts"), "export class ConfirmStep {}\n");
    }
    const entry = join(dir.path, "names.ts");
    writeFileSync(entry, 'import { ConfirmStep as Ours } from "./ours/confirm-step.ts";\nimport { ConfirmStep as Demo } from "./demo/confirm-step.ts";\nexport const names = [Ours.name, Demo.name];\n');
    const url = (await bundleModules([entry]))?.get(entry);
    assert.ok(url, "a bundle is written");
    const { names } = (await import(url)) as { names: string[] };
    assert.deepEqual(names, ["ConfirmStep", "ConfirmStep"]);
  } finally {
    dir.remove();
  }
});
