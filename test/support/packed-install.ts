import assert from "node:assert/strict";
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { ROOT, runCommand, type ChildRun } from "./child-run.ts";
import { withFolderLock } from "./folder-lock.ts";
import { TMP_ROOT } from "./temp-path.ts";

// The package as a team gets it: this repository packed by `npm pack` (which builds it) and the
// tarball installed into a new project that holds nothing else, fully offline. The project lives
// outside the repository, so that nothing it resolves can come from this repository's node_modules.

interface LockEntry {
  version: string;
  name?: string;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

export interface PackedInstall {
  /** The project the tarball is installed in. */
  project: string;
  /** The tarball's files, as `tar -tzf` lists them (`package/dist/...`). */
  tarballFiles: string[];
  /** How long `npm install` of the tarball took, in ms, and the size of the node_modules it made, in bytes. */
  installMs: number;
  nodeModulesBytes: number;
  /** `command <args>` in the project (or `cwd`), this process's Node first on the PATH (`npx flowcheck` runs on it), plus `env`. */
  run(command: string, args: string[], env?: Record<string, string>, cwd?: string): Promise<ChildRun>;
  remove(): Promise<void>;
}

/** The lock path a dependency `name` of the package at `from` resolves to, walking up as Node does. */
function lockedPath(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf("/node_modules/")))) {
    const path = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (packages[path]) return path;
    if (!base) return undefined;
  }
}

/** The registry URL of an entry's tarball, as npm writes it unless told to omit it. */
function tarballUrl(path: string, entry: LockEntry): string {
  const name = entry.name ?? path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
  return `https://registry.npmjs.org/${name}/-/${name.split("/").pop()}-${entry.version}.tgz`;
}

/** This repository's locked entries for `roots` and everything they depend on (optional platform builds too). */
function lockedClosure(roots: readonly string[]): Record<string, LockEntry> {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const kept: Record<string, LockEntry> = {};
  const visit = (from: string, name: string) => {
    const path = lockedPath(lock.packages, from, name);
    // Unlocked: an optional dependency of another platform, or an optional peer nobody installed.
    if (!path || path in kept) return;
    const entry = lock.packages[path]!;
    kept[path] = { ...entry, resolved: entry.resolved ?? tarballUrl(path, entry) };
    for (const dependency of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }))
      visit(path, dependency);
  };
  for (const root of roots) visit("", root);
  return kept;
}

/**
 * A project that has not installed anything yet, but whose package-lock.json already holds this
 * repository's locked entries for the package's production closure and for @types/node (its own
 * dev dependency, which a TypeScript project has). Why: a CI machine's npm cache holds the tarballs
 * `npm ci` fetched, found by their integrity, but no registry metadata, so npm cannot resolve a
 * version range offline; with every dependency of the tarball already locked it resolves nothing
 * and only unpacks. The tarball URLs are written because this repository's lockfile may omit them
 * (omit-lockfile-registry-resolved), and without one npm asks the registry where a tarball is.
 */
function writeProject(project: string): void {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;
  const devDependencies = { "@types/node": manifest.devDependencies["@types/node"]! };
  const root = { name: "consumer", version: "1.0.0", private: true, type: "module", devDependencies };
  writeFileSync(join(project, "package.json"), `${JSON.stringify(root, null, 2)}\n`);
  const packages = lockedClosure([...Object.keys(manifest.dependencies), "@types/node"]);
  const rootEntry = { name: root.name, version: root.version, devDependencies };
  const lock = {
    name: root.name,
    version: root.version,
    lockfileVersion: 3,
    requires: true,
    packages: { "": rootEntry, ...packages },
  };
  writeFileSync(join(project, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
}

/** The bytes of the files under `folder`, links not followed. */
function bytesUnder(folder: string): number {
  let bytes = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) bytes += lstatSync(join(entry.parentPath, entry.name)).size;
  return bytes;
}

interface Packed {
  tarball: string;
  /** The tarball's files, as `tar -tzf` lists them. */
  files: string[];
}

let packing: Promise<Packed> | undefined;

/**
 * This repository packed by `npm pack` (which builds dist/), once per process: every spec file run
 * in it shares the tarball. A run on several processes (`--workers`) packs in each, one after
 * another, so that no two packs rewrite dist/ at once. The tarball's folder goes when the process
 * exits.
 */
export function packedTarball(): Promise<Packed> {
  packing ??= (async () => {
    const folder = await mkdtemp(join(tmpdir(), "flowcheck-tarball-"));
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
    const packed = await withFolderLock(join(TMP_ROOT, "npm-pack.lock"), () =>
      runCommand("npm", ["pack", "--pack-destination", folder]),
    );
    assert.equal(packed.code, 0, packed.stderr);
    const tarball = join(folder, packed.stdout.trim().split("\n").pop()!);
    const listed = await runCommand("tar", ["-tzf", tarball]);
    return { tarball, files: listed.stdout.trim().split("\n") };
  })();
  return packing;
}

interface Installed {
  /** The project the tarball was installed in, never handed out: each packedInstall gets a copy. */
  project: string;
  files: string[];
  installMs: number;
  nodeModulesBytes: number;
}

let installing: Promise<Installed> | undefined;

/**
 * The tarball installed, offline, once per process, into a project that holds nothing else; the
 * folder goes when the process exits. An install costs about 3 s of CPU and a copy a tenth of it,
 * and a run installs for seven projects.
 */
function installedOnce(): Promise<Installed> {
  installing ??= (async () => {
    const { tarball, files } = await packedTarball();
    const work = await mkdtemp(join(tmpdir(), "flowcheck-package-"));
    process.once("exit", () => rmSync(work, { recursive: true, force: true }));
    const project = join(work, "consumer");
    mkdirSync(project);
    writeProject(project);
    const started = performance.now();
    // The unreachable registry makes any lookup the lock does not answer fail at once, never go out.
    const offline = ["--offline", "--no-audit", "--no-fund", "--registry", "http://127.0.0.1:9/"];
    const installed = await runCommand(
      "npm",
      ["install", ...offline, tarball],
      { PATH: pathWithThisNode() },
      undefined,
      project,
    );
    const installMs = performance.now() - started;
    assert.equal(installed.code, 0, installed.stderr);
    return { project, files, installMs, nodeModulesBytes: bytesUnder(join(project, "node_modules")) };
  })();
  return installing;
}

/** The PATH with this process's Node first: `npm` and `npx flowcheck` run on it. */
function pathWithThisNode(): string {
  return `${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}`;
}

/**
 * A new project of its own that holds nothing but the package's tarball, installed offline: a copy
 * of the project it was installed in once (`cp -a`, links kept as npm made them; the copy sits as
 * deep under the temporary folder, so the lock's relative path to the tarball still holds).
 */
export async function packedInstall(): Promise<PackedInstall> {
  const installed = await installedOnce();
  const work = await mkdtemp(join(tmpdir(), "flowcheck-package-"));
  const remove = () => rm(work, { recursive: true, force: true });
  try {
    const project = join(work, "consumer");
    const copied = await runCommand("cp", ["-a", installed.project, project]);
    assert.equal(copied.code, 0, copied.stderr);
    const run = (command: string, args: string[], env: Record<string, string> = {}, cwd = project) =>
      runCommand(command, args, { PATH: pathWithThisNode(), ...env }, undefined, cwd);
    return {
      project,
      tarballFiles: installed.files,
      installMs: installed.installMs,
      nodeModulesBytes: installed.nodeModulesBytes,
      run,
      remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}
