import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { basicFlowScripts } from "../../../src/flows/basic/basic-flow-scripts.ts";
import type { CassetteFile } from "../../../src/testing/cassette/cassette.ts";
import { fakeOpenAIPerFile } from "../../support/fake-openai-per-file.ts";
import type { FakeOpenAI } from "../../support/fake-openai-server.ts";
import { runFlowSuite } from "../../support/run-flow-suite.ts";
import { tempDir } from "../../support/temp-path.ts";
import { runCommand } from "../../testing/live/child-run.ts";

let fake: FakeOpenAI;
fakeOpenAIPerFile(Object.values(basicFlowScripts), (started) => (fake = started));
let dir: Awaited<ReturnType<typeof tempDir>>;
before(async () => (dir = await tempDir("scenario-record-live")));
after(() => dir.remove());

test("with the live model scenario:record writes the cassette too, /undo asks the model nothing again, and the scenario replays with FLOW_MODEL=replay", async () => {
  const live = { FLOW_MODEL: "live", OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: "0", OPENAI_TIMEOUT_MS: "5000", DIR: dir.path };
  const run = await runCommand("sh", ["-c", `printf 'John Wick\\nLA, NYC\\n/undo\\nLA, NYC\\n/save live-check\\n/quit\\n' | npm run -s scenario:record -- BasicFlow --dir "$DIR"`], live);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /talking to BasicFlow \(live model\)/);
  const file = join(dir.path, "live-check.scenario.json");
  const cassette = JSON.parse(readFileSync(join(dir.path, "live-check.cassette.json"), "utf8")) as CassetteFile;
  const second = cassette.calls.filter((call) => call.turn === 2).length;
  assert.ok(second > 0);
  // Turn 1 once, turn 2 twice (before and after /undo): neither the rewind nor /save asked the model.
  assert.equal(fake.requests.length, cassette.calls.length + second);
  const suite = await runFlowSuite("test/flows/basic-flow.spec.ts", [file], { FLOW_MODEL: "replay" });
  assert.equal(suite.code, 0, suite.stdout);
  assert.match(suite.stdout, /^# fail 0$/m);
});
