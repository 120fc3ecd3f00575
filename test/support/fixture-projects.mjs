// The fixture projects under test/fixtures/: each a folder with a package.json and package-lock.json
// of its own (the LangGraph dev server, the AI SDK app, the Mastra server the specs run against),
// never the root's. `npm test` installs them first (its pretest, test/tools/install-fixture-projects.mjs);
// specs that need one fail, saying so, when it is not installed. Plain JavaScript, so the install
// runs on Node alone, before anything else.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";

/** The folder that holds them: test/fixtures/. */
export const FIXTURES = resolve(import.meta.dirname, "..", "fixtures");

/**
 * What the last install of a project was made from, its lockfile's SHA-256, kept in its node_modules:
 * npm ci and removing node_modules both remove it, so it never outlives the install it describes.
 */
const STAMP = ".flowcheck-lockfile-sha256";

/**
 * A folder as the lines show it: from the working directory when it lies there (test/fixtures/…).
 * @param {string} folder @returns {string}
 */
function shown(folder) {
  const fromHere = relative(process.cwd(), folder);
  return fromHere.startsWith("..") || isAbsolute(fromHere) ? folder : fromHere;
}

/**
 * The fixture projects: the folders of `fixtures` that hold a package-lock.json, in name order.
 * @param {string} [fixtures] @returns {string[]}
 */
export function fixtureProjects(fixtures = FIXTURES) {
  return readdirSync(fixtures, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(fixtures, entry.name, "package-lock.json")))
    .map((entry) => join(fixtures, entry.name))
    .sort();
}

/** @param {string} folder @returns {string} */
function lockfileHash(folder) {
  return createHash("sha256")
    .update(readFileSync(join(folder, "package-lock.json")))
    .digest("hex");
}

/**
 * How a project's install stands against its lockfile: `current` (installed from it as it is now),
 * `missing` (no node_modules), `stale` (installed from another lockfile, or with no record of
 * which), or `linked` (node_modules is a link to another checkout's install, not recorded as made
 * from this lockfile: that checkout keeps it).
 * @param {string} folder
 * @returns {{ state: "current" | "missing" | "stale" } | { state: "linked", to: string }}
 */
export function installState(folder) {
  const modules = join(folder, "node_modules");
  if (!existsSync(modules)) return { state: "missing" };
  const stamp = join(modules, STAMP);
  if (existsSync(stamp) && readFileSync(stamp, "utf8").trim() === lockfileHash(folder)) return { state: "current" };
  if (lstatSync(modules).isSymbolicLink()) return { state: "linked", to: realpathSync(modules) };
  return { state: "stale" };
}

/** The npm that runs this process (npm test's), else the first on the PATH. @returns {[string, string[]]} */
function npm() {
  const cli = process.env["npm_execpath"];
  return cli ? [process.execPath, [cli]] : ["npm", []];
}

const WHY = { missing: "no node_modules yet", stale: "its package-lock.json changed since node_modules was installed" };

/**
 * Installs, with `npm ci`, each fixture project of `fixtures` whose install is missing or stale,
 * saying so in one line each through `log`, and records the lockfile it installed from; a project
 * installed from its lockfile as it is costs nothing. `npmArgs` are added to each npm ci (a spec's
 * `--offline`). Returns the folders it installed; throws, with npm's output, when npm ci fails.
 * @param {{ fixtures?: string, log?: (line: string) => void, npmArgs?: string[] }} [options]
 * @returns {string[]}
 */
export function installFixtureProjects({ fixtures = FIXTURES, log = console.log, npmArgs = [] } = {}) {
  const installed = [];
  for (const folder of fixtureProjects(fixtures)) {
    const install = installState(folder);
    if (install.state === "current") continue;
    if (install.state === "linked") {
      log(
        `${shown(folder)}: node_modules links to ${install.to}, not installed there from this lockfile; left as it is`,
      );
      continue;
    }
    log(`${shown(folder)}: npm ci (${WHY[install.state]})`);
    const [command, args] = npm();
    const run = spawnSync(command, [...args, "ci", "--no-audit", "--no-fund", ...npmArgs, "--prefix", folder], {
      cwd: folder,
      encoding: "utf8",
      env: { ...process.env, npm_config_update_notifier: "false" },
    });
    if (run.status !== 0) {
      const output = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error?.message ?? ""}`.trim();
      throw new Error(`${shown(folder)}: npm ci failed (exit ${run.status ?? run.signal}):\n${output}`);
    }
    // A project whose lockfile lists nothing to install gets no node_modules from npm ci.
    mkdirSync(join(folder, "node_modules"), { recursive: true });
    writeFileSync(join(folder, "node_modules", STAMP), `${lockfileHash(folder)}\n`);
    installed.push(folder);
  }
  return installed;
}

/**
 * Why a spec cannot run against fixture project `name` (a folder of test/fixtures/): it is not
 * installed. Undefined when it is.
 * @param {string} name @returns {string | undefined}
 */
export function fixtureProjectMissing(name) {
  const folder = join(FIXTURES, name);
  if (!existsSync(join(folder, "package-lock.json")))
    return `${shown(folder)} is not a fixture project: it has no package-lock.json`;
  if (existsSync(join(folder, "node_modules"))) return undefined;
  return (
    `the fixture project ${shown(folder)} is not installed (it has no node_modules): npm test installs every ` +
    "fixture project before its specs; to install them without the suite, run node test/tools/install-fixture-projects.mjs"
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
  return join(FIXTURES, name);
}
