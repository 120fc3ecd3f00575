import { join } from "node:path";

/** The absolute path of `test/fixtures/scenarios/<name>.scenario.json`, a scenario file the specs own. */
export function fixtureScenario(name: string): string {
  return join(import.meta.dirname, "..", "fixtures", "scenarios", `${name}.scenario.json`);
}
