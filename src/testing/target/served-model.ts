import type { Config } from "../../config.ts";
import { FlowcheckError } from "../../errors.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { liveSeamSource } from "../seam/live-seam-source.ts";
import { loadSeamScript } from "../seam/load-seam-script.ts";
import type { SeamSource } from "../seam/seam-call.ts";
import { SeamConversations } from "../seam/seam-conversations.ts";
import type { SeamScript } from "../seam/seam-request.ts";
import { startSeamServer } from "../seam/seam-server.ts";
import { scriptedSource } from "../seam/scripted-source.ts";
import { tapedSeamSource } from "../seam/taped-seam-source.ts";
import type { ScenarioTarget } from "./scenario-target.ts";
import { StartedApps, type AppSeam, type StartableEntry, type StartedAppsOptions } from "./start/started-apps.ts";

/**
 * What the app holds in place of the provider's key: SDKs refuse to start without one, and the
 * real key goes to the provider alone, from flowcheck's own process.
 */
export const SEAM_KEY = "flowcheck-seam-holds-no-key";

/** The model flowcheck serves a started app: the seam's endpoint, its ledger of turns, and the app's scripts. */
export interface ServedModel extends AppSeam {
  readonly target: string;
  readonly ledger: SeamConversations;
  /** The scripts module's default export, loaded on first use; it fails naming the module. */
  script(): Promise<{ script: SeamScript; file: string }>;
}

/**
 * Serves target `name`'s model at a seam of its own when its entry has `model`, the variables that
 * lead the app there (the base URL, a placeholder key) given to its start. With the scripted model
 * (`scripted`), the scripts are loaded now, so a module that is missing or exports no script
 * stops the run before anything plays.
 */
export async function serveModel(
  name: string,
  entry: StartableEntry,
  scripted: boolean,
): Promise<ServedModel | undefined> {
  const { model } = entry;
  if (!model) return undefined;
  let loaded: Promise<{ script: SeamScript; file: string }> | undefined;
  const script = () => (loaded ??= scriptsOf(name, model.scripts));
  if (scripted) await script();
  const ledger = new SeamConversations();
  const server = await startSeamServer(ledger);
  return {
    target: name,
    ledger,
    script,
    env: { [model.baseUrlEnv ?? "OPENAI_BASE_URL"]: server.baseUrl, [model.keyEnv ?? "OPENAI_API_KEY"]: SEAM_KEY },
    close: () => server.close(),
  };
}

async function scriptsOf(name: string, file: string | undefined): Promise<{ script: SeamScript; file: string }> {
  if (file === undefined)
    throw new FlowcheckError(
      "target_config_invalid",
      `Target ${name} of flowcheck.config.json has a "model" with no "scripts", and FLOW_MODEL is scripted: ` +
        'give its model "scripts", the module whose default export answers its model calls, or run with FLOW_MODEL=live.',
    );
  return { script: await loadSeamScript(file, `target ${name}'s model.scripts`), file };
}

/**
 * The target with its conversation opened at the seam of the model flowcheck serves its app, its
 * calls answered as FLOW_MODEL says: by the scripts (`scripted`, the default), by the run's
 * provider with flowcheck's own key (`live`), or on the scenario's cassette (`record`, `replay`).
 */
export async function withServedModel(
  target: ScenarioTarget,
  served: ServedModel,
  loaded: LoadedScenario,
): Promise<ScenarioTarget> {
  const { config, cassette, provider } = target.capabilities ?? {};
  const mode = config?.flowModel ?? "scripted";
  let source: SeamSource;
  try {
    const live = () => liveSource(config!, provider!.fetchFor("model"));
    if (mode === "scripted") {
      const { script, file } = await served.script();
      source = scriptedSource(script, file);
    } else if (mode === "live") source = live();
    else source = tapedSeamSource(cassette!, served.target, mode === "record" ? live() : undefined);
  } catch (error) {
    await target.close();
    throw error;
  }
  const seam = served.ledger.open({
    target: served.target,
    flow: loaded.scenario.flowName,
    label: `${loaded.scenario.flowName}: ${loaded.name}`,
    source,
  });
  return {
    ...target,
    capabilities: { ...target.capabilities, seam },
    close: async () => {
      seam.close();
      await target.close();
    },
  };
}

function liveSource(config: Config, fetch: typeof globalThis.fetch): SeamSource {
  return liveSeamSource({
    baseUrl: config.openai.baseURL,
    apiKey: config.openai.apiKey!,
    fetch,
    timeoutMs: config.openai.timeoutMs,
  });
}

/**
 * The apps a run starts, each target with a `model` served at a seam of its own; `flowModel` is the
 * run's FLOW_MODEL (unset: scripted), which says whether the scripts are loaded before anything plays.
 */
export function servedApps(
  options: Omit<StartedAppsOptions<ServedModel>, "seamOf">,
  flowModel: Config["flowModel"],
): StartedApps<ServedModel> {
  const scripted = flowModel === undefined || flowModel === "scripted";
  return new StartedApps({ ...options, seamOf: (name, entry) => serveModel(name, entry, scripted) });
}
