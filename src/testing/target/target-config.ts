import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compileSchema } from "../../engine/schema-validator.ts";
import { frozenCopy } from "../../engine/frozen-copy.ts";
import { describeJsonError } from "../scenario/describe-json-error.ts";
import { describeSchemaError } from "../scenario/describe-schema-error.ts";
import { invalidFile } from "../scenario/invalid-file.ts";
import { shownPath } from "../scenario/scenario-location.ts";
import type { AiSdkTargetEntry } from "./ai-sdk/ai-sdk-target-entry.ts";
import type { HttpTargetEntry } from "./http/http-target-entry.ts";
import type { LanggraphGraphEntry } from "./langgraph/langgraph-turn-view.ts";
import type { MastraTargetEntry } from "./mastra/mastra-target-entry.ts";
import { resolveTargetReferences } from "./resolve-target-references.ts";
import { anchorStartPaths } from "./start/anchor-start-paths.ts";
import type { StartedAppKeys } from "./start/start-entry.ts";
import configSchema from "../../../flowcheck.config.schema.json" with { type: "json" };

/** What every kind of target has: where the server is, how long a request may take, what every request carries, how its app is started. */
export interface TargetEntryBase extends StartedAppKeys {
  kind: "flowcheck" | "langgraph" | "http" | "ai-sdk" | "mastra";
  /** An http(s) URL, its `${VAR}` references read from the environment. */
  baseUrl: string;
  /** Per request; default 30000. */
  timeoutMs?: number;
  /** Sent with every request, their `${VAR}` references read from the environment. */
  headers?: Record<string, string>;
}

/** A server speaking flowcheck's HTTP API. */
export interface FlowcheckTargetEntry extends TargetEntryBase {
  kind: "flowcheck";
  /** The server's SQLite file, read for the persisted checks. */
  sqlitePath?: string;
}

/** A LangGraph server. */
export interface LanggraphTargetEntry extends TargetEntryBase {
  kind: "langgraph";
  /** By the scenarios' flowName. */
  graphs?: Record<string, LanggraphGraphEntry>;
}

export type { AiSdkTargetEntry, HttpTargetEntry, LanggraphGraphEntry, MastraTargetEntry };

export type TargetEntry =
  | FlowcheckTargetEntry
  | LanggraphTargetEntry
  | HttpTargetEntry
  | AiSdkTargetEntry
  | MastraTargetEntry;

/** A project's `flowcheck.config.json`, checked, its references read, frozen. */
export interface TargetConfig {
  /** The file it was read from. */
  path: string;
  /** Empty when the file names none. */
  targets: Record<string, TargetEntry>;
}

/** A project's `flowcheck.config.json` as written: valid JSON that matches the schema, its references unread. */
export interface ConfigFile {
  /** The file it was read from. */
  path: string;
  targets?: Record<string, TargetEntry>;
  /** The module that exports the project's flows as `registeredFlows`, relative to the file's folder. */
  flows?: string;
  /** Mutants of a strength run marked equivalent: each id's reason. */
  strength?: { equivalent?: Record<string, string> };
}

/** The file's name at a project's root. */
export const TARGET_CONFIG_FILE = "flowcheck.config.json";

const validateConfig = compileSchema<Omit<ConfigFile, "path">>(configSchema, "2020-12");

function schemaProblems(data: unknown): string[] {
  if (validateConfig(data)) return [];
  return (
    (validateConfig.errors ?? [])
      // Each comes with the error it sums up: a header name's pattern, the kind's own keys.
      .filter((error) => error.keyword !== "propertyNames" && error.keyword !== "if")
      .map((error) => describeSchemaError(error))
  );
}

/**
 * Reads `<root>/flowcheck.config.json`, the targets a project's scenarios are played against;
 * undefined when there is none. The `${VAR}` references in each `baseUrl`, header, `start.ready`
 * and `start.env` value are read from `env`; `start.cwd` and `model.scripts` are made absolute from
 * the file's folder; `{{port}}` is left for the app's start to fill. Every problem (not JSON, the
 * schema's, a variable `env` lacks, a credential written as a value, the provider's key sent to a
 * target or its app, a `{{port}}` nothing fills, a `model` or `reuse` that cannot be served) is
 * reported at once in one `target_config_invalid` error, each with its JSON path and the value
 * found, secrets not shown.
 *
 * @example
 * // flowcheck.config.json: { "targets": { "staging": { "kind": "flowcheck",
 * //   "baseUrl": "https://staging.example.com", "headers": { "Authorization": "Bearer ${STAGING_API_TOKEN}" } } } }
 * const config = loadTargetConfig(process.cwd(), process.env);
 * config?.targets["staging"]?.headers; // { Authorization: "Bearer <the variable's value>" }
 */
export function loadTargetConfig(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): TargetConfig | undefined {
  const read = readConfig(root);
  if (!read) return undefined;
  const resolved = resolveTargetReferences(read.data?.targets ?? {}, env);
  anchorStartPaths(resolved.targets, dirname(read.path));
  const problems = [...read.problems, ...resolved.problems];
  if (problems.length) throw configInvalid(read.path, problems);
  return frozenCopy({ path: read.path, targets: resolved.targets as Record<string, TargetEntry> }) as TargetConfig;
}

/**
 * `<root>/flowcheck.config.json` as written, proved valid JSON matching the schema, with no
 * `${VAR}` read: for what needs none of the targets, such as the project's flows. Undefined when
 * there is none; its problems are `target_config_invalid`, as `loadTargetConfig`'s.
 */
export function loadConfigFile(root: string): ConfigFile | undefined {
  const read = readConfig(root);
  if (!read) return undefined;
  if (read.problems.length) throw configInvalid(read.path, read.problems);
  return frozenCopy({ ...read.data, path: read.path }) as ConfigFile;
}

function configInvalid(path: string, problems: readonly string[]): Error {
  return invalidFile("target_config_invalid", shownPath(path), TARGET_CONFIG_FILE, "no scenario was run", problems);
}

/** The file's data and the problems of its JSON and schema; undefined when there is no file. */
function readConfig(
  root: string,
): { path: string; data: Omit<ConfigFile, "path"> | null; problems: string[] } | undefined {
  const path = join(root, TARGET_CONFIG_FILE);
  if (!existsSync(path)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const reason = (error as Error).message;
    const problem =
      error instanceof SyntaxError
        ? `the file is not valid JSON${describeJsonError(reason)}`
        : `the file cannot be read: ${reason}`;
    return { path, data: null, problems: [problem] };
  }
  const problems = schemaProblems(data);
  // Only an object can carry targets; the schema's problems say what else it is.
  const object = data !== null && typeof data === "object" && !Array.isArray(data);
  return { path, data: object ? (data as Omit<ConfigFile, "path">) : null, problems };
}
