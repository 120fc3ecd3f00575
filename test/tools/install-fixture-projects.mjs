// npm test's pretest: installs each fixture project (test/fixtures/*/package-lock.json) whose
// node_modules is missing or was installed from another lockfile, with npm ci, one line for each;
// a project installed from its lockfile as it is costs nothing. A team that installs flowcheck
// runs none of this: pretest is this repository's own, and the package holds no fixtures.
import { spawnSync } from "node:child_process";
import {
  fixtureProject,
  fixtureProjects,
  installState,
  markInstalled,
  shownProject,
} from "../support/fixture-projects.mjs";

const WHY = { missing: "no node_modules yet", stale: "its package-lock.json changed since node_modules was installed" };

/** The npm that runs this script (npm test's), else the first on the PATH. @returns {[string, string[]]} */
function npm() {
  const cli = process.env["npm_execpath"];
  return cli ? [process.execPath, [cli]] : ["npm", []];
}

for (const name of fixtureProjects()) {
  const install = installState(name);
  if (install.state === "current") continue;
  if (install.state === "linked") {
    console.log(
      `${shownProject(name)}: node_modules links to ${install.to}, which holds no install of this lockfile; left as it is, for that checkout to install`,
    );
    continue;
  }
  console.log(`${shownProject(name)}: npm ci (${WHY[install.state]})`);
  const [command, args] = npm();
  const folder = fixtureProject(name);
  const run = spawnSync(command, [...args, "ci", "--no-audit", "--no-fund", "--prefix", folder], {
    cwd: folder,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (run.status !== 0) {
    process.stderr.write(`${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? `${run.error.message}\n` : ""}`);
    console.error(`${shownProject(name)}: npm ci failed (exit ${run.status ?? run.signal}); its output is above`);
    process.exit(run.status || 1);
  }
  markInstalled(name);
}
