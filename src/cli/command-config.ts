import { environment, loadConfig, type Config } from "../config.ts";
import { dotenvDefaults } from "./dotenv-defaults.ts";

/** What a command is configured with: the environment, read once, and that environment checked. */
export interface CommandConfig {
  readonly environment: Readonly<Record<string, string>>;
  readonly config: Config;
}

/** The environment, read once for a command; with `dotenv`, `.env`'s values under it (a variable already set wins). */
export function commandEnvironment({ dotenv = false }: { dotenv?: boolean } = {}): Readonly<Record<string, string>> {
  return Object.freeze({ ...(dotenv ? dotenvDefaults() : {}), ...environment() });
}

/**
 * A command's configuration: the environment read once and checked, both handed down from
 * there. Throws `config_invalid` with every problem.
 */
export function commandConfig(options: { dotenv?: boolean } = {}): CommandConfig {
  const read = commandEnvironment(options);
  return Object.freeze({ environment: read, config: loadConfig(read) });
}
