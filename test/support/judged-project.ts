import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JudgeMaterial } from "../../src/testing/judge/judge-prompt.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { type ChildRun, runFlowcheck } from "./child-run.ts";
import { startFakeOpenAI, type FakeOpenAI } from "./fake-openai-server.ts";
import { sessionChatEntry, startSessionChatServer, type SessionChatServer } from "./session-chat-server.ts";
import { tempDir } from "./temp-path.ts";

/** The value the project's target header resolves to: no event, result or transcript may hold it. */
export const SECRET_TOKEN = "fixture-token-4c1e";

/** The expectation the fake judge scores below the default bar. */
const LOW = "The assistant should offer a refund.";

/** The contact flow's two judged turns: the first meets its expectation, the second scores 0.4. */
export const JUDGED_SCENARIO = {
  flowName: "ContactFlow",
  turns: [
    {
      label: "asks for the name again",
      input: "R2D2",
      expectedActiveStep: "NameStep",
      expectedResponse: "The assistant should ask for the user's name.",
    },
    { label: "takes the name", input: "Ada Lovelace", expectedActiveStep: "EmailStep", expectedResponse: LOW },
  ],
};

/**
 * A project of a spec's own whose one target, a chat API on 127.0.0.1, echoes the secret header it
 * is sent into every answer, with a fake OpenAI-compatible judge beside it; `run` plays
 * `flowcheck test` there, in a child process.
 */
export interface JudgedProject {
  path: string;
  chat: SessionChatServer;
  run(args: string[], env?: Record<string, string>): Promise<ChildRun>;
  results(): RunResults;
  close(): Promise<void>;
}

/** Starts the servers and writes `scenarios` (name → scenario) under `judged/`, with the config naming the target. */
export async function judgedProject(prefix: string, scenarios: Record<string, object>): Promise<JudgedProject> {
  const dir = await tempDir(prefix);
  const chat = await startSessionChatServer({ echoAuthorization: true });
  const judge: FakeOpenAI = await startFakeOpenAI([]);
  judge.answer = (request) => {
    const { expectation } = JSON.parse(request.messages[1]!.content!) as JudgeMaterial;
    const verdict = { pass: true, score: expectation === LOW ? 0.4 : 0.9, reason: `graded: ${expectation}` };
    return { judge: JSON.stringify({ ...verdict, missing: [], contradictions: [] }) };
  };
  const support = { ...sessionChatEntry(chat.url), headers: { authorization: "Bearer ${SUPPORT_TOKEN}" } };
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets: { support } }));
  mkdirSync(join(dir.path, "judged"));
  for (const [name, scenario] of Object.entries(scenarios))
    writeFileSync(join(dir.path, "judged", `${name}.scenario.json`), JSON.stringify(scenario, null, 2));
  const env = {
    FLOW_TARGET: "support",
    SUPPORT_TOKEN: SECRET_TOKEN,
    JUDGE: "required",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: judge.baseURL,
  };
  return {
    path: dir.path,
    chat,
    run: (args, more = {}) => runFlowcheck(["test", ...args], { ...env, ...more }, undefined, dir.path),
    results: () => JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults,
    close: async () => {
      await Promise.all([chat.close(), judge.close()]);
      dir.remove();
    },
  };
}
