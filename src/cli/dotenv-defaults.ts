import { existsSync, readFileSync } from "node:fs";
import { parse } from "dotenv";

/** `.env` as defaults under the environment, as the scenarios' env is; neither is written into it. */
export function dotenvDefaults(): Record<string, string> {
  return existsSync(".env") ? parse(readFileSync(".env")) : {};
}
