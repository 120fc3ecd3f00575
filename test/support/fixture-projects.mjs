// The fixture projects under test/fixtures/: each a folder with a package.json and package-lock.json
// of its own (the LangGraph dev server, the AI SDK app, the Mastra server the specs run against),
// never the root's. `npm test` installs them first (test/tools/install-fixture-projects.mjs, its
// pretest); specs that need one fail, saying so, when it is not installed. Plain JavaScript, so the
// install script runs on Node alone, before anything else.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");
const FIXTURES = join(ROOT, "test", "fixtures");

/**
 * What the last install of a project was made from, the lockfile's SHA-256, kept in its node_modules:
 * npm ci and removing node_modules both remove it, so it never outlives the install it describes.
 */
const STAMP = ".flowcheck-lockfile-sha256";

/**
 * The fixture projects: the folders of test/fixtures/ that hold a package-lock.json, by name.
 * @returns {string[]}
 */
export function fixtureProjects() {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(FIXTURES, entry.name, "package-lock.json")))
    .map((entry) => entry.name)
    .sort();
}

/**
 * A fixture project's folder, e.g. `fixtureProject("langgraph-project")`.
 * @param {string} name @returns {string}
 */
export function fixtureProject(name) {
  return join(FIXTURES, name);
}

/**
 * The folder as messages show it, from the repository's root: `test/fixtures/langgraph-project`.
 * @param {string} name @returns {string}
 */
export function shownProject(name) {
  return relative(ROOT, fixtureProject(name));
}

/** @param {string} name @returns {string} */
function lockfileHash(name) {
  return createHash("sha256")
    .update(readFileSync(join(fixtureProject(name), "package-lock.json")))
    .digest("hex");
}

/**
 * How a fixture project's install stands against its lockfile: `current` (installed from it as it
 * is now), `missing` (no node_modules), `stale` (installed from another lockfile, or with no record
 * of which), or `linked` (node_modules is a link to another checkout's install, which that checkout
 * keeps: `current` when that install was made from the same lockfile).
 * @param {string} name
 * @returns {{ state: "current" | "missing" | "stale" } | { state: "linked", to: string }}
 */
export function installState(name) {
  const modules = join(fixtureProject(name), "node_modules");
  if (!existsSync(modules)) return { state: "missing" };
  const stamp = join(modules, STAMP);
  const current = existsSync(stamp) && readFileSync(stamp, "utf8").trim() === lockfileHash(name);
  if (current) return { state: "current" };
  if (lstatSync(modules).isSymbolicLink()) return { state: "linked", to: realpathSync(modules) };
  return { state: "stale" };
}

/**
 * Records that `name` was just installed from its lockfile as it is now.
 * @param {string} name
 */
export function markInstalled(name) {
  writeFileSync(join(fixtureProject(name), "node_modules", STAMP), `${lockfileHash(name)}\n`);
}

/**
 * Why a spec cannot run against fixture project `name`: it is not installed. Undefined when it is.
 * @param {string} name @returns {string | undefined}
 */
export function fixtureProjectMissing(name) {
  if (!existsSync(join(fixtureProject(name), "package-lock.json")))
    return `${shownProject(name)} is no fixture project: it has no package-lock.json`;
  if (existsSync(join(fixtureProject(name), "node_modules"))) return undefined;
  return (
    `the fixture project ${shownProject(name)} is not installed (it has no node_modules): npm test installs ` +
    "every fixture project before its specs; to install them without the suite, run node test/tools/install-fixture-projects.mjs"
  );
}

/**
 * Fixture project `name`'s folder, for a spec that runs against it; throws, saying how to install
 * it, when it is not installed, so that the spec fails rather than passes without it.
 * @param {string} name @returns {string}
 */
export function requireFixtureProject(name) {
  const missing = fixtureProjectMissing(name);
  if (missing) throw new Error(missing);
  return fixtureProject(name);
}
