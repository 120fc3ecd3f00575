import http from "node:http";
import { RunArbiter } from "../testing/limits/run-arbiter.mjs";

// One run-specs invocation starts several test processes, and its limits (FLOW_CONCURRENCY,
// OPENAI_MAX_INFLIGHT, OPENAI_MAX_RPM, FLOW_MAX_TOKENS) hold for all of them together: this
// loopback server holds them. A slot is held for as long as the HTTP response that granted it
// stays open, so a test process that dies gives back its slots with its sockets. The limits come
// with each ask, from the asking process's configuration (src/config.ts reads the environment).

/** The environment variable a test process finds the coordinator by (src/config.ts reads it). */
export const COORDINATOR = "FLOWCHECK_COORDINATOR";

/** @param {http.IncomingMessage} request @returns {Promise<any>} */
async function bodyOf(request) {
  let text = "";
  for await (const chunk of request.setEncoding("utf8")) text += chunk;
  return JSON.parse(text);
}

/**
 * POST /hold (a HoldSpec): answers a first line with the grant once it is held, and holds it
 * until the connection closes. POST /note (a Note): answers 204 once noted. POST /defined: a test
 * process has asked for all its conversations (see RunArbiter.awaitDefinitions).
 * @returns {Promise<{ url: string, arbiter: RunArbiter, close(): Promise<void> }>}
 */
export async function startCoordinator() {
  const arbiter = new RunArbiter();
  const server = http.createServer(async (request, response) => {
    let body;
    try {
      body = await bodyOf(request);
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (request.url === "/note" || request.url === "/defined") {
      if (request.url === "/note") arbiter.note(body);
      else arbiter.defined();
      response.writeHead(204).end();
      return;
    }
    const release = arbiter.hold(body, (grant) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.write(`${JSON.stringify(grant)}\n`);
    });
    response.on("close", release);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    arbiter,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** @param {number} count @param {string} one @param {string} [many] */
const counted = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * What a run took of its providers, for the end of the output: nothing when it made no request.
 * @param {import("../testing/limits/run-arbiter.mjs").ArbiterSummary} summary @returns {string[]}
 */
export function summaryLines(summary) {
  const lines = summary.providers
    .filter((provider) => provider.granted > 0)
    .map(
      (provider) =>
        `provider ${provider.key}: ${counted(provider.granted, "request")}, at most ${provider.maxActive} in flight, ${counted(provider.retries, "SDK retry", "SDK retries")}` +
        (provider.pauses ? `, ${counted(provider.pauses, "pause")} after a 429` : ""),
    );
  const conversations = summary.conversations;
  if (conversations && (conversations.granted || conversations.skipped)) {
    lines.push(`conversations: ${conversations.granted} played, at most ${conversations.maxActive} at once` + (conversations.skipped ? `, ${conversations.skipped} not started (FLOW_MAX_TOKENS reached)` : ""));
  }
  if (summary.tokens.length === 0) return lines;
  /** @param {{ input: number, output: number }} tokens */
  const shown = (tokens) => `${tokens.input + tokens.output} (${tokens.input} in, ${tokens.output} out)`;
  for (const each of [...summary.tokens].sort((a, b) => a.scenario.localeCompare(b.scenario))) lines.push(`tokens ${each.scenario}: ${shown(each)}`);
  const price = summary.price;
  const cost = price ? `; estimated cost $${((summary.total.input * price.input + summary.total.output * price.output) / 1e6).toFixed(4)}` : "";
  lines.push(`tokens in total: ${shown(summary.total)}${cost}`);
  return lines;
}

// How long conversations wait for a test process that never says it has defined its own (one
// that died while importing its specs): well past what a loaded machine takes to start one (5 s
// was seen to be too short on this 2-core machine under other suites' load).
const DEFINING_MILLIS = 30_000;

/**
 * Starts the coordinator for a run's test processes, which grants no conversation until each of
 * the `processes` has defined its own (POST /defined, from its share file); `finish` prints what
 * the run took of its providers and closes it.
 * @param {Record<string, string>} childEnv what the test processes' environment gets
 * @param {number} processes
 */
export async function coordinateRun(childEnv, processes) {
  const coordinator = await startCoordinator();
  coordinator.arbiter.awaitDefinitions(processes, DEFINING_MILLIS);
  childEnv[COORDINATOR] = coordinator.url;
  return {
    url: coordinator.url,
    finish: async () => {
      for (const line of summaryLines(coordinator.arbiter.summary())) console.log(line);
      await coordinator.close();
    },
  };
}
