import { resolve } from "node:path";
import {
  discoverScenarios,
  discoverSelected,
  scenarioHeaderOf,
  type ScenarioDiscovery,
  type ScenarioHeader,
} from "./scenario-discovery.ts";

/**
 * The scenario files of one run, each folder scanned and each file's header read once: the
 * planner, every flow spec and the checklist ask it instead of the disk. It lives as long as its
 * run, so a run that follows an edit sees the edit.
 */
export class ScenarioCatalog {
  readonly #found = new Map<string, ScenarioDiscovery>();
  readonly #headers = new Map<string, ScenarioHeader | undefined>();

  /** Every scenario file under `dir`, at any depth (`discoverScenarios`). */
  under(dir: string): ScenarioDiscovery {
    return this.#once(`under ${resolve(dir)}`, () => discoverScenarios(dir));
  }

  /** The scenario files of the files and folders `paths` name (`discoverSelected`). */
  selected(paths: readonly string[]): ScenarioDiscovery {
    return this.#once(`selected ${paths.map((path) => resolve(path)).join("\0")}`, () => discoverSelected(paths));
  }

  /** `file`'s header (`scenarioHeaderOf`); undefined for one that does not parse. */
  headerOf(file: string): ScenarioHeader | undefined {
    const key = resolve(file);
    if (!this.#headers.has(key)) this.#headers.set(key, scenarioHeaderOf(file));
    return this.#headers.get(key);
  }

  #once(key: string, discover: () => ScenarioDiscovery): ScenarioDiscovery {
    let found = this.#found.get(key);
    if (!found) this.#found.set(key, (found = discover()));
    return found;
  }
}
