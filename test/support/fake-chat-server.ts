import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ExecutionEntry, SessionDocument } from "../../src/engine/session-document.ts";
import { runScenario } from "../../src/testing/index.ts";
import type { FinalReport, Scenario, TurnReport } from "../../src/testing/index.ts";
import { flowcheckApi } from "../../src/testing/target/flowcheck-api.ts";
import type { ScenarioTarget } from "../../src/testing/target/scenario-target.ts";
import type { ScenarioEvent } from "../../src/testing/run/scenario-event.ts";
import type { LoadedScenario } from "../../src/testing/scenario/scenario.ts";
import type { Check } from "../../src/testing/checks/check.ts";
import type { RunOptions } from "../../src/testing/run/run-options.ts";

/** What the fake server saw of one request. */
export interface FakeRequest {
  /** 1-based, counting every request the server answered. */
  number: number;
  /** The `CHAT_SESSION_ID` the client sent, if any. */
  session: string | undefined;
  message: string;
  accept: string;
  /** The `Idempotency-Key` the client sent, if any. */
  idempotencyKey: string | undefined;
}

/** An answer as it goes on the wire. A header set to undefined is not sent. */
export interface FakeReply {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

export interface FakeOptions {
  /**
   * Rewrites what the server is about to store after a request (the next document, or after an
   * error answer the unchanged one); return undefined to store nothing.
   */
  store?: (next: SessionDocument, request: FakeRequest, status: number) => SessionDocument | undefined;
  /** Rewrites the answer before it is sent. */
  reply?: (reply: FakeReply, request: FakeRequest) => FakeReply;
  /** A store that cannot tell whether it was written (no write mark), as MongoDB's. */
  withoutWriteMark?: boolean;
  /** Replaces the answer to `GET /ai/flows` (by default FakeFlow with AskStep and NextStep). */
  flows?: FakeReply;
}

export const FAKE_FLOW = "FakeFlow";

const FAKE_FLOWS: FakeReply = {
  status: 200,
  headers: { "Content-Type": "application/json; charset=utf-8" },
  body: JSON.stringify({
    flows: [{ name: FAKE_FLOW, description: "Echoes what it is told.", steps: ["AskStep", "NextStep"] }],
  }),
};

/**
 * A small chat server on 127.0.0.1 that speaks flowcheck's chat API for one made-up flow, and keeps
 * its sessions in a Map the test can read. Left alone it behaves: the first turn ends on AskStep,
 * later turns on NextStep, "bye" completes the run, a completed session answers 409, the answer is
 * `You said: <message>` (or an event stream of it with `Accept: text/event-stream`). The options make
 * it misbehave in one precise way.
 */
export class FakeChatServer {
  readonly documents = new Map<string, SessionDocument>();
  readonly requests: FakeRequest[] = [];
  /** The headers of every request it received, `GET /ai/flows` included, in order. */
  readonly received: { method: string; url: string; headers: http.IncomingHttpHeaders }[] = [];
  /** How many times the runner read a session whole. */
  wholeReads = 0;
  #writes = 0;
  readonly #server: http.Server;
  readonly #options: FakeOptions;
  #url = "";
  #sessions = 0;

  private constructor(options: FakeOptions) {
    this.#options = options;
    this.#server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        this.received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
        const reply =
          req.method === "GET" && req.url === "/ai/flows"
            ? (options.flows ?? FAKE_FLOWS)
            : this.#answer(req, Buffer.concat(chunks).toString("utf8"));
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(reply.headers)) if (value !== undefined) headers[name] = value;
        res.writeHead(reply.status, headers);
        res.end(reply.body);
      });
    });
  }

  static async start(options: FakeOptions = {}): Promise<FakeChatServer> {
    const fake = new FakeChatServer(options);
    await new Promise<void>((resolve, reject) => {
      fake.#server.once("error", reject);
      fake.#server.listen(0, "127.0.0.1", () => resolve());
    });
    fake.#url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  get url(): string {
    return this.#url;
  }

  /** A target whose store is this server's Map, read as a copy; its write mark counts the writes. */
  target(): ScenarioTarget {
    return {
      description: { baseUrl: this.#url, pins: { FAKE_FLOW_CURRENT_DATE: "2027-07-15T00:00:00.000Z" } },
      ...flowcheckApi(this.#url),
      sessions: {
        reader: {
          description: "the fake server's Map",
          fetchAll: async (id) => {
            this.wholeReads++;
            const document = this.documents.get(id);
            return document === undefined ? undefined : structuredClone(document);
          },
          ...(this.#options.withoutWriteMark ? {} : { writeMark: () => String(this.#writes) }),
        },
      },
      close: () => this.close(),
    };
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    return closed;
  }

  #answer(req: http.IncomingMessage, text: string): FakeReply {
    const header = req.headers["chat_session_id"];
    const request: FakeRequest = {
      number: this.requests.length + 1,
      session: Array.isArray(header) ? header[0] : header,
      message: (JSON.parse(text) as { message: string }).message,
      accept: req.headers.accept ?? "",
      idempotencyKey: req.headers["idempotency-key"] as string | undefined,
    };
    this.requests.push(request);
    const reply = this.#behave(request);
    return this.#options.reply ? this.#options.reply(reply, request) : reply;
  }

  #save(next: SessionDocument, request: FakeRequest, status: number): void {
    // Left alone, an error answer writes nothing; the store option decides what a misbehaving one writes.
    if (!this.#options.store && status !== 200) return;
    const stored = this.#options.store ? this.#options.store(structuredClone(next), request, status) : next;
    if (!stored) return;
    this.documents.set(stored.id, stored);
    this.#writes++;
  }

  #behave(request: FakeRequest): FakeReply {
    const previous = request.session === undefined ? undefined : this.documents.get(request.session);
    if (request.session !== undefined && !previous) {
      return errorReply(404, "session_not_found", `There is no session "${request.session}".`);
    }
    if (previous && previous.runStatus !== "running") {
      this.#save(previous, request, 409);
      return errorReply(
        409,
        "flow_completed",
        `Session "${previous.id}" of ${FAKE_FLOW} has ended (runStatus completed).`,
        previous.id,
      );
    }
    const now = "2027-07-15T00:00:00.000Z";
    const id = previous?.id ?? `session-${++this.#sessions}`;
    const turns = (previous?.turns ?? 0) + 1;
    const completed = request.message === "bye";
    const step = turns === 1 ? "AskStep" : "NextStep";
    const response = completed ? "Goodbye." : `You said: ${request.message}`;
    const entry: ExecutionEntry = {
      seq: (previous?.execution.length ?? 0) + 1,
      turn: turns,
      step,
      kind: "tool",
      name: "echo",
      outcome: completed ? "complete" : "stay",
    };
    const next: SessionDocument = {
      id,
      version: 1,
      turns,
      flow: { name: FAKE_FLOW, currentStep: step },
      runStatus: completed ? "completed" : "running",
      steps: { ...previous?.steps, [step]: { said: request.message, count: turns } },
      children: [],
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
      memory: {
        flow: [
          ...(previous?.memory["flow"] ?? []),
          { role: "user", content: request.message },
          { role: "assistant", content: response },
        ],
      },
      execution: [...(previous?.execution ?? []), entry],
    };
    this.#save(next, request, 200);
    const outcome = { session: id, response, currentStep: step, runStatus: next.runStatus, completed };
    if (/text\/event-stream/.test(request.accept)) {
      const tokens = response.match(/\s*\S+\s*/g) ?? [];
      return {
        status: 200,
        headers: { "Content-Type": "text/event-stream; charset=utf-8", CHAT_SESSION_ID: id },
        body: [
          ...tokens.map((token) => sse("token", { text: token })),
          sse("done", { success: true, ...outcome }),
        ].join(""),
      };
    }
    return jsonReply(200, { success: true, ...outcome }, id);
  }
}

export function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function jsonReply(status: number, body: Record<string, unknown>, session?: string): FakeReply {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", CHAT_SESSION_ID: session },
    body: JSON.stringify(body),
  };
}

function errorReply(status: number, code: string, message: string, session?: string): FakeReply {
  return jsonReply(status, { success: false, ...(session ? { session } : {}), error: { code, message } }, session);
}

/** A scenario for FakeFlow, built in code: `turns` are completed with the well-behaved server's steps. */
export function fakeScenario(turns: Scenario["turns"], extra: Partial<Scenario> = {}): LoadedScenario {
  return { file: "test/testing/fake.scenario.json", name: "fake", scenario: { flowName: FAKE_FLOW, turns, ...extra } };
}

export interface Played {
  turns: TurnReport[];
  final: FinalReport;
  outcome: "passed" | "failed";
  /** The event types in order. */
  events: ScenarioEvent["type"][];
  fake: FakeChatServer;
}

/** Plays `loaded` with `runScenario` against a fake server made with `options`, then closes it. */
export async function playAgainstFake(
  loaded: LoadedScenario,
  options: FakeOptions = {},
  run: RunOptions = {},
): Promise<Played> {
  const fake = await FakeChatServer.start(options);
  try {
    return { ...(await collect(runScenario(loaded, fake.target(), run))), fake };
  } finally {
    await fake.close();
  }
}

/** Every event of a run, sorted into its turn reports, final report and outcome. */
export async function collect(events: AsyncIterable<ScenarioEvent>): Promise<Omit<Played, "fake">> {
  const turns: TurnReport[] = [];
  const types: ScenarioEvent["type"][] = [];
  let final: FinalReport | undefined;
  let outcome: "passed" | "failed" | undefined;
  for await (const event of events) {
    types.push(event.type);
    if (event.type === "turn:end") turns.push(event.report);
    if (event.type === "final") final = event.report;
    if (event.type === "scenario:end") outcome = event.outcome;
  }
  if (!final || !outcome) throw new Error(`the run ended without a final report or an outcome: ${types.join(", ")}`);
  return { turns, final, outcome, events: types };
}

/** The check of `report` named `name`; fails the test, listing the names there are, when there is none. */
export function checkNamed(report: { checks: Check[] }, name: string): Check {
  const found = report.checks.find((c) => c.name === name);
  if (!found)
    throw new Error(
      `no check named ${JSON.stringify(name)}; the checks are ${report.checks.map((c) => c.name).join(", ")}`,
    );
  return found;
}

/** The failed checks of `report`, as `name: message`. */
export function failures(report: { checks: Check[] }): string[] {
  return report.checks.filter((c) => c.outcome === "failed").map((c) => `${c.name}: ${c.message}`);
}
