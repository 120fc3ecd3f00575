import assert from "node:assert/strict";
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test, type TestContext } from "node:test";
import { FIXTURES, fixtureProjectMissing, installFixtureProjects, installState } from "./fixture-projects.mjs";
import { tempDir } from "./temp-path.ts";

// npm test's pretest on fixture folders of its own: a project whose one dependency is a folder
// beside it (`file:`), so that npm ci makes a real node_modules with no registry, the registry
// given being one nothing answers at.
const OFFLINE = ["--offline", "--registry", "http://127.0.0.1:9/"];

const LOCKFILE = (version: string) => ({
  name: "demo-project",
  version,
  lockfileVersion: 3,
  requires: true,
  packages: {
    "": { name: "demo-project", version, dependencies: { "local-thing": "file:./local" } },
    local: { name: "local-thing", version: "1.0.0" },
    "node_modules/local-thing": { resolved: "local", link: true },
  },
});

/** A folder of fixture projects: `demo-project`, and a folder without a lockfile, which is none. */
async function fixtures(t: TestContext): Promise<{ root: string; project: string }> {
  const dir = await tempDir("fixture-projects");
  t.after(dir.remove);
  const project = join(dir.path, "demo-project");
  mkdirSync(join(project, "local"), { recursive: true });
  writeFileSync(join(project, "local", "package.json"), JSON.stringify({ name: "local-thing", version: "1.0.0" }));
  writeProject(project, "0.0.0");
  mkdirSync(join(dir.path, "scenarios-only"));
  return { root: dir.path, project };
}

function writeProject(project: string, version: string): void {
  const manifest = { name: "demo-project", version, private: true, dependencies: { "local-thing": "file:./local" } };
  writeFileSync(join(project, "package.json"), JSON.stringify(manifest));
  writeFileSync(join(project, "package-lock.json"), JSON.stringify(LOCKFILE(version)));
}

function install(root: string): { lines: string[]; installed: string[] } {
  const lines: string[] = [];
  const installed = installFixtureProjects({ fixtures: root, log: (line) => lines.push(line), npmArgs: OFFLINE });
  return { lines, installed };
}

test("a fixture project without node_modules is installed by npm ci, in one line; the next run finds it current and installs nothing", async (t) => {
  const { root, project } = await fixtures(t);
  assert.deepEqual(installState(project), { state: "missing" });
  assert.deepEqual(install(root), {
    lines: [`${relative(process.cwd(), project)}: npm ci (no node_modules yet)`],
    installed: [project],
  });
  assert.ok(lstatSync(join(project, "node_modules", "local-thing")).isSymbolicLink());
  assert.deepEqual(installState(project), { state: "current" });
  assert.deepEqual(install(root), { lines: [], installed: [] });
});

test("a lockfile changed since the install, or an install with no record of its lockfile, is installed again", async (t) => {
  const { root, project } = await fixtures(t);
  install(root);
  writeProject(project, "0.0.1");
  assert.deepEqual(installState(project), { state: "stale" });
  assert.deepEqual(install(root).lines, [
    `${relative(process.cwd(), project)}: npm ci (its package-lock.json changed since node_modules was installed)`,
  ]);
  assert.equal(JSON.parse(readFileSync(join(project, "node_modules", ".package-lock.json"), "utf8")).version, "0.0.1");
  assert.deepEqual(install(root).installed, []);
  rmSync(join(project, "node_modules", ".flowcheck-lockfile-sha256"));
  assert.deepEqual(installState(project), { state: "stale" });
  assert.deepEqual(install(root).installed, [project]);
});

test("a node_modules that links to another checkout's install is left as it is: current when made from the same lockfile, else said so", async (t) => {
  const { root, project } = await fixtures(t);
  install(root);
  const other = await tempDir("fixture-projects-clone");
  t.after(other.remove);
  const clone = join(other.path, "demo-project");
  cpSync(project, clone, { recursive: true, filter: (source) => !source.endsWith("node_modules") });
  symlinkSync(join(project, "node_modules"), join(clone, "node_modules"));
  assert.deepEqual(install(other.path), { lines: [], installed: [] });
  writeProject(clone, "0.0.2");
  const { lines, installed } = install(other.path);
  assert.deepEqual(installed, []);
  assert.deepEqual(lines, [
    `${relative(process.cwd(), clone)}: node_modules links to ${join(project, "node_modules")}, not installed there from this lockfile; left as it is`,
  ]);
  assert.ok(lstatSync(join(clone, "node_modules")).isSymbolicLink());
});

test("an npm ci that fails throws, naming the project and quoting npm", async (t) => {
  const { root, project } = await fixtures(t);
  const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ ...manifest, dependencies: { "left-pad": "1.3.0" } }));
  assert.throws(() => install(root), {
    message: new RegExp(`^${relative(process.cwd(), project)}: npm ci failed \\(exit \\d+\\):\\nnpm (error|ERR!)`),
  });
  assert.equal(existsSync(join(project, "node_modules", ".flowcheck-lockfile-sha256")), false);
});

test("a spec is told a fixture project is missing, and how to install it, only when it has no node_modules", () => {
  assert.equal(fixtureProjectMissing("langgraph-project"), undefined);
  assert.equal(
    fixtureProjectMissing("no-such-project"),
    `${relative(process.cwd(), join(FIXTURES, "no-such-project"))} is not a fixture project: it has no package-lock.json`,
  );
});
