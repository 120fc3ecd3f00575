import { PROVIDER_KEY_VARIABLES } from "../../../config.ts";

/**
 * The variables a started app never inherits from flowcheck's environment: the provider's keys
 * (the app's model is the seam or its own, never flowcheck's account) and the judge's.
 */
const WITHHELD_VARIABLES: readonly string[] = Object.freeze([...PROVIDER_KEY_VARIABLES, "JUDGE_API_KEY"]);

// LangChain's ChatOpenAI reads it before OPENAI_BASE_URL: left set, it would lead past the seam.
const SEAM_SHADOWED = ["OPENAI_API_BASE"];

/**
 * The environment a started app runs with: flowcheck's own without `WITHHELD_VARIABLES`, then the
 * target's `start.env` (resolved, `{{port}}` filled), then the seam's variables when it serves the
 * app's model (and without what would shadow them).
 */
export function appEnvironment(
  own: Readonly<Record<string, string | undefined>>,
  startEnv: Readonly<Record<string, string>> = {},
  seamEnv?: Readonly<Record<string, string>>,
): Record<string, string> {
  const withheld = new Set([...WITHHELD_VARIABLES, ...(seamEnv ? SEAM_SHADOWED : [])]);
  const inherited = Object.entries(own).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && !withheld.has(entry[0]),
  );
  return { ...Object.fromEntries(inherited), ...startEnv, ...seamEnv };
}
