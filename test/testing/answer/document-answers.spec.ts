import assert from "node:assert/strict";
import http from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  defineFlow,
  scriptedText,
  scriptedToolCalls,
  Step,
  stay,
  tool,
  type FlowEntry,
  type StepContext,
} from "../../../src/engine/index.ts";
import { loadScenario, runScenario, startScenarioTarget, type TurnReport } from "../../../src/testing/index.ts";
import { startTestServer } from "../../support/test-server.ts";
import { jsonClient } from "../../support/json-client.ts";
import { tempDir } from "../../support/temp-path.ts";

// A flow that keeps a list and renders it as CSV, to prove the text/csv path end to end.
class ListStep extends Step<{ items?: string[] }> {
  systemPrompt(): string {
    return "Add what the user names with add_item.";
  }

  @tool({
    name: "add_item",
    description: "Add an item.",
    parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  })
  addItem(args: { name: string }, context: StepContext<{ items?: string[] }>) {
    context.state.items = [...(context.state.items ?? []), args.name];
    return stay(`added ${args.name}`);
  }
}

const ListFlow = defineFlow({
  name: "ListFlow",
  description: "Keeps a list.",
  steps: [ListStep],
  renderers: {
    "text/csv": ({ steps }) => {
      const items = (steps["ListStep"]?.["items"] as string[] | undefined) ?? [];
      return (
        ["position,name", ...items.map((name, index) => `${index + 1},"${name.replace(/"/g, '""')}"`)].join("\n") + "\n"
      );
    },
  },
});

const listEntry: FlowEntry = {
  flow: ListFlow,
  scripts: {
    ListFlow: ({ latest }) =>
      latest?.role === "user"
        ? scriptedToolCalls([{ name: "add_item", args: { name: latest.content } }])
        : scriptedText("Added."),
  },
};

test("a chat turn sent with Accept: text/csv is answered with the flow's rendering, the session id in the header", async () => {
  const server = await startTestServer({ flows: [listEntry] });
  const client = jsonClient(server.url);
  try {
    const first = await client.post("/ai/chat", { flow: "ListFlow", message: "bolts" });
    const id = first.headers["chat_session_id"] as string;
    const answer = await fetchText(server.url, id, "Widgets, large", "text/csv");
    assert.equal(answer.status, 200);
    assert.equal(answer.contentType, "text/csv; charset=utf-8");
    assert.equal(answer.session, id);
    assert.equal(answer.body, 'position,name\n1,"bolts"\n2,"Widgets, large"\n');
    const json = await fetchText(server.url, id, "nuts", "text/plain, application/json");
    assert.equal(
      json.contentType,
      "application/json; charset=utf-8",
      "a type the flow cannot render falls back to JSON",
    );
  } finally {
    client.close();
    await server.close();
  }
});

test("expectCsvRows passes on the parsed rows and fails naming the row and column that differ", async () => {
  const dir = await tempDir("document-answers");
  const file = join(dir.path, "list.scenario.json");
  writeFileSync(
    file,
    JSON.stringify({
      flowName: "ListFlow",
      turns: [
        { label: "first", input: "bolts", expectedActiveStep: "ListStep" },
        {
          label: "as csv",
          input: "Widgets, large",
          expectedActiveStep: "ListStep",
          accept: "text/csv",
          expectContentType: "text/csv",
          expectCsvRows: [{ name: "bolts" }, { position: "2", name: "Widgets, large" }],
        },
        {
          label: "wrong rows",
          input: "nuts",
          expectedActiveStep: "ListStep",
          accept: "text/csv",
          expectCsvRows: [{ name: "bolts" }, { name: "Widgets, large" }, { name: "screws" }],
        },
      ],
    }),
  );
  const loaded = loadScenario(file, [ListFlow]);
  const target = await startScenarioTarget(loaded, { flows: [listEntry], scratchDir: dir.path });
  const turns: TurnReport[] = [];
  try {
    for await (const event of runScenario(loaded, target)) if (event.type === "turn:end") turns.push(event.report);
  } finally {
    await target.close();
    dir.remove();
  }
  assert.deepEqual(
    turns.map((turn) => turn.outcome),
    ["passed", "passed", "failed"],
  );
  assert.deepEqual(
    turns[2]!.checks.filter((check) => check.outcome === "failed").map((check) => check.message),
    ['csv rows[2].name: expected "screws", found "nuts"'],
  );
});

test("expectCsvRows without accept text/csv is refused when the scenario loads", async () => {
  const dir = await tempDir("document-answers");
  try {
    const file = join(dir.path, "bad.scenario.json");
    writeFileSync(
      file,
      JSON.stringify({
        flowName: "ListFlow",
        turns: [{ label: "rows", input: "x", expectedActiveStep: "ListStep", expectCsvRows: [{ name: "x" }] }],
      }),
    );
    assert.throws(
      () => loadScenario(file, [ListFlow]),
      /turns\[0\]\.expectCsvRows \(turn "rows"\): needs "accept": "text\/csv"/,
    );
  } finally {
    dir.remove();
  }
});

function fetchText(base: string, session: string, message: string, accept: string) {
  return new Promise<{ status: number; contentType: string | undefined; session: string | undefined; body: string }>(
    (resolve, reject) => {
      const req = http.request(new URL("/ai/chat", base), {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: accept, CHAT_SESSION_ID: session },
      });
      req.on("response", (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers["content-type"],
            session: res.headers["chat_session_id"] as string | undefined,
            body,
          }),
        );
      });
      req.on("error", reject);
      req.end(JSON.stringify({ message }));
    },
  );
}
