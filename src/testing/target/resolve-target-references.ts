import { PROVIDER_KEY_VARIABLES } from "../../config.ts";
import { jsonPath } from "../scenario/json-path.ts";
import { show } from "../scenario/show.ts";
import { PORT_PLACEHOLDER } from "./start/port-placeholder.ts";
import { startedAppProblems } from "./start/started-app-problems.ts";

type Environment = Readonly<Record<string, string | undefined>>;

// Named like a credential: its value is a secret, so the file may only say where to find it.
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$|token|secret|key/i;
const REFERENCE = /\$\{([^}]*)\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Shorter values would match ordinary text: a provider key that short is a local server's placeholder.
const MIN_PROVIDER_KEY = 8;
// Stands for the port chosen at start while a URL holding {{port}} is checked.
const SAMPLE_PORT = "65535";

/** What one string of the file says once its `${VAR}` references are read, and what was wrong with them. */
interface Resolved {
  value: string;
  references: number;
  problems: string[];
}

/** `text` with each `${VAR}` replaced by the variable's value; a variable unset or empty is a problem. */
function resolveText(text: string, at: string, env: Environment): Resolved {
  const problems: string[] = [];
  let references = 0;
  const value = text.replace(REFERENCE, (whole, name: string) => {
    references += 1;
    if (!VARIABLE_NAME.test(name)) {
      problems.push(`${at}: ${show(whole)} is not a reference; write \${NAME}, NAME being a variable's name.`);
      return whole;
    }
    if ((PROVIDER_KEY_VARIABLES as readonly string[]).includes(name)) {
      problems.push(
        `${at}: \${${name}} is the provider's key, which goes to the provider alone; give the target a credential of its own, e.g. \${STAGING_API_TOKEN}.`,
      );
      return whole;
    }
    const variable = env[name];
    // An empty value counts as unset, as it does for every variable flowcheck reads.
    if (variable === undefined || variable === "") {
      problems.push(
        `${at}: \${${name}} names a variable the environment lacks; set ${name} in the environment the run starts in (exported, or a CI secret).`,
      );
      return whole;
    }
    return variable;
  });
  if (value.replace(REFERENCE, "").includes("${"))
    problems.push(`${at}: ${show(text)} has a \${ that is not closed; write \${NAME}.`);
  return { value, references, problems };
}

/** A problem when `value` carries the provider's key, which would then be sent to the target. */
function providerKeyProblem(value: string, at: string, env: Environment): string[] {
  return PROVIDER_KEY_VARIABLES.flatMap((name) => {
    const key = env[name];
    if (key === undefined || key.length < MIN_PROVIDER_KEY || !value.includes(key)) return [];
    return [
      `${at} carries ${name}'s value (not shown), which would send the provider's key to the target; give the target a credential of its own.`,
    ];
  });
}

/** The reference a credential written as a value should be, e.g. `"Bearer ${STAGING_API_TOKEN}"` for staging's Authorization. */
function suggestedReference(target: string, header: string, text: string): string {
  const variable = `${target.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase()}_API_${/key/i.test(header) ? "KEY" : "TOKEN"}`;
  // The scheme is not the secret: `Bearer`, `Basic`.
  const scheme = /^([A-Za-z]+) +\S/.exec(text)?.[1];
  return `${scheme ? `${scheme} ` : ""}\${${variable}}`;
}

function resolvedHeader(target: string, header: string, text: string, at: string, env: Environment): Resolved {
  const resolved = resolveText(text, at, env);
  if (CREDENTIAL_HEADER.test(header) && resolved.references === 0) {
    const reference = suggestedReference(target, header, text);
    resolved.problems.push(
      `${at} is a credential written into the file (its value is not shown); write it as "${reference}" and set that variable in the run's environment.`,
    );
  }
  resolved.problems.push(...providerKeyProblem(resolved.value, at, env));
  return resolved;
}

function resolvedBaseUrl(text: string, at: string, env: Environment): Resolved {
  const resolved = resolveText(text, at, env);
  resolved.problems.push(...providerKeyProblem(resolved.value, at, env));
  // A URL of another scheme written as it is: the schema's pattern has said so.
  if (resolved.problems.length || (!resolved.references && !/^https?:\/\//.test(text))) return resolved;
  const shown = resolved.references ? `${show(text)} reads ${show(resolved.value)}, which` : show(text);
  let url: URL | undefined;
  try {
    url = new URL(resolved.value.replaceAll(PORT_PLACEHOLDER, SAMPLE_PORT));
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:"))
    resolved.problems.push(`${at}: ${shown} is not an http:// or https:// URL.`);
  else if (url.username || url.password)
    resolved.problems.push(
      `${at}: the URL carries a user name or password (not shown); send a credential as a header, e.g. "Authorization": "Bearer \${SUPPORT_API_TOKEN}".`,
    );
  return resolved;
}

const escaped = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The `${VAR}` references of a started app's `ready` URL and `env` values read, in place; their problems. */
function resolveStart(start: Record<string, unknown>, pointer: string, env: Environment): string[] {
  const problems: string[] = [];
  if (typeof start["ready"] === "string") {
    const ready = resolvedBaseUrl(start["ready"], jsonPath(`${pointer}/ready`), env);
    start["ready"] = ready.value;
    problems.push(...ready.problems);
  }
  const variables = start["env"];
  if (!isObject(variables)) return problems;
  for (const [name, text] of Object.entries(variables)) {
    if (typeof text !== "string") continue;
    const at = jsonPath(`${pointer}/env/${escaped(name)}`);
    const value = resolveText(text, at, env);
    variables[name] = value.value;
    problems.push(...value.problems, ...providerKeyProblem(value.value, at, env));
  }
  return problems;
}

/**
 * The file's targets with the `${VAR}` references of each `baseUrl`, header value, `start.ready`
 * and `start.env` value read from `env` (nowhere else: a template or a pointer is the file's own
 * text), and every problem of them: a variable the environment lacks, a credential header written
 * as a value, the provider's key sent to a target or its app; and of how an app is started
 * (`startedAppProblems`). A value that is not a string is the schema's problem, and left as it is.
 */
export function resolveTargetReferences(targets: unknown, env: Environment): { targets: unknown; problems: string[] } {
  if (!isObject(targets)) return { targets, problems: [] };
  const problems: string[] = [];
  const resolved = structuredClone(targets);
  for (const [name, entry] of Object.entries(resolved)) {
    if (!isObject(entry)) continue;
    const pointer = `/targets/${escaped(name)}`;
    problems.push(...startedAppProblems(entry, pointer));
    if (isObject(entry["start"])) problems.push(...resolveStart(entry["start"], `${pointer}/start`, env));
    if (typeof entry["baseUrl"] === "string") {
      const baseUrl = resolvedBaseUrl(entry["baseUrl"], jsonPath(`${pointer}/baseUrl`), env);
      entry["baseUrl"] = baseUrl.value;
      problems.push(...baseUrl.problems);
    }
    const headers = entry["headers"];
    if (!isObject(headers)) continue;
    for (const [header, text] of Object.entries(headers)) {
      if (typeof text !== "string") continue;
      const value = resolvedHeader(name, header, text, jsonPath(`${pointer}/headers/${escaped(header)}`), env);
      headers[header] = value.value;
      problems.push(...value.problems);
    }
  }
  return { targets: resolved, problems };
}
