// npm test's pretest: installs each fixture project (test/fixtures/*/package-lock.json) whose
// node_modules is missing or was installed from another lockfile, with npm ci, one line for each;
// a project installed from its lockfile as it is costs nothing. A team that installs flowcheck
// runs none of this: pretest is this repository's own script, and the package holds no fixtures.
import { installFixtureProjects } from "../support/fixture-projects.mjs";

try {
  installFixtureProjects();
} catch (error) {
  console.error(/** @type {Error} */ (error).message);
  process.exit(1);
}
