import assert from "node:assert/strict";
import { test } from "node:test";
import { isFlowcheckError } from "../../../src/errors.ts";
import { loadScenario, startScenarioTarget } from "../../../src/testing/index.ts";
import { plantedMutant } from "../../../src/testing/strength/planted-mutant.ts";
import type { ScenarioTarget } from "../../../src/testing/target/scenario-target.ts";
import type { TargetConfig } from "../../../src/testing/target/target-config.ts";
import { BasicFlow, basicFlowEntry } from "../../fixtures/flows/index.ts";
import { DROP_NAME } from "../../support/drop-name-mutant.ts";
import { envWith } from "../../support/env-with.ts";
import { fixtureScenario } from "../../support/fixture-scenario.ts";
import { postChat } from "../../support/post-chat.ts";
import { tempDir } from "../../support/temp-path.ts";

const LOCAL = "http://127.0.0.1:9";
const loaded = () => loadScenario(fixtureScenario("basic-flow"), [BasicFlow]);

/** What NameStep kept of a name sent to the target, as its store holds it. */
async function savedName(target: ScenarioTarget): Promise<Record<string, unknown> | undefined> {
  const answer = await postChat(target.description.baseUrl, { flow: "BasicFlow", message: "John Wick" });
  const session = JSON.parse(answer.text).session as string;
  return (await target.sessions.reader?.fetchAll(session))?.steps["NameStep"];
}

test("the app a target boots in this process applies the mutant, and again once restarted", async () => {
  const scratch = await tempDir("mutant-target");
  const target = await startScenarioTarget(loaded(), {
    flows: [basicFlowEntry],
    scratchDir: scratch.path,
    env: envWith({ FLOW_BASE_URL: undefined, FLOW_TARGET: undefined, SESSION_STORE: undefined }),
    targets: undefined,
    mutant: plantedMutant(DROP_NAME),
  });
  try {
    assert.deepEqual(await savedName(target), {});
    await target.capabilities!.restart!();
    assert.deepEqual(await savedName(target), {});
  } finally {
    await target.close();
    scratch.remove();
  }
});

test("a mutant for a server at FLOW_BASE_URL or a target of flowcheck.config.json is refused, saying what to unset", async () => {
  const targets: TargetConfig = {
    path: "flowcheck.config.json",
    targets: { staging: { kind: "flowcheck", baseUrl: LOCAL } },
  };
  const refused = (env: Record<string, string | undefined>, config: TargetConfig | undefined) =>
    startScenarioTarget(loaded(), {
      flows: [basicFlowEntry],
      env: envWith(env),
      targets: config,
      mutant: plantedMutant(DROP_NAME),
    });
  await assert.rejects(
    refused({ FLOW_BASE_URL: LOCAL, FLOW_TARGET: undefined }, undefined),
    (error) =>
      isFlowcheckError(error, "strength_refused") &&
      error.message.includes(`the server at FLOW_BASE_URL (${LOCAL})`) &&
      error.message.includes("runs only against flows in this process") &&
      error.message.includes("unset FLOW_BASE_URL"),
  );
  await assert.rejects(
    refused({ FLOW_BASE_URL: undefined, FLOW_TARGET: "staging" }, targets),
    (error) =>
      isFlowcheckError(error, "strength_refused") &&
      error.message.includes(`Mutant ${DROP_NAME.id} cannot run against target staging of flowcheck.config.json`) &&
      error.message.includes("unset FLOW_TARGET"),
  );
});
