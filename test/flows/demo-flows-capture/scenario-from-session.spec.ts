import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { registeredFlows } from "../../../src/flows/index.ts";
import type { Scenario } from "../../../src/testing/index.ts";
import { holdConversation } from "../../support/hold-conversation.ts";
import { runFlowSuite } from "../../support/run-flow-suite.ts";
import { runNode } from "../../testing/live/child-run.ts";
import { tempDir } from "../../support/temp-path.ts";

const HOTEL_INPUTS = ["Show me hotels in Portland", "The Ritz Portland", "Pearl District Inn and Rose City Lodge", "Aug 14 to Aug 9", "the second week of August", "Book the same hotels"];
const BASIC_INPUTS = ["John Doe", "John Wick", "LA, NYC", "1600 sw murray blvd, beaverton, oregon 97006"];
let dir: Awaited<ReturnType<typeof tempDir>>;
let sqlite: string;

before(async () => {
  dir = await tempDir("from-session-cli");
  sqlite = join(dir.path, "sessions.sqlite");
});
after(() => dir.remove());

/** `npm run scenario:from-session -- <id> --dir <temp>` on the conversation's SQLite file. */
async function fromSession(id: string, folder: string) {
  const run = await runNode(["--import", "tsx", "src/cli/scenario-from-session.ts", id, "--dir", folder], { SQLITE_PATH: sqlite });
  assert.equal(run.code, 0, run.stderr);
  const file = /wrote (\S+\.scenario\.json)/.exec(run.stdout)?.[1];
  assert.ok(file, run.stdout);
  return file;
}

async function assertSuitePasses(spec: string, file: string) {
  for (const mode of ["replay", "scripted"]) {
    const suite = await runFlowSuite(spec, [file], { FLOW_MODEL: mode });
    assert.equal(suite.code, 0, `${mode}:\n${suite.stdout}`);
    assert.match(suite.stdout, /^# fail 0$/m);
  }
}

test("a HotelFlow conversation held over HTTP becomes a scenario, with its RateQuote child run, that the HotelFlow suite passes with FLOW_MODEL=replay and scripted", async () => {
  const id = await holdConversation(registeredFlows, "HotelFlow", HOTEL_INPUTS, sqlite);
  const folder = join(dir.path, "hotel");
  const file = await fromSession(id, folder);
  assert.equal(file, join(folder, `hotel-flow-${id.slice(0, 8)}.scenario.json`));
  const scenario = JSON.parse(readFileSync(file, "utf8")) as Scenario;
  assert.deepEqual(scenario.turns.map((turn) => turn.input), HOTEL_INPUTS);
  assert.ok(scenario.finalChildren?.some((child) => child["flow"] === "RateQuote" && child["parentStep"] === "DatesStep"));
  await assertSuitePasses("test/flows/hotel-flow.spec.ts", file);

  scenario.turns[3]!.expectedActiveStep = "BookStep";
  writeFileSync(file, JSON.stringify(scenario));
  const changed = await runFlowSuite("test/flows/hotel-flow.spec.ts", [file], { FLOW_MODEL: "replay" });
  assert.notEqual(changed.code, 0);
  assert.match(changed.stdout, /BookStep/);
});

test("a BasicFlow conversation held over HTTP becomes a scenario that the BasicFlow suite passes with FLOW_MODEL=replay and scripted", async () => {
  const id = await holdConversation(registeredFlows, "BasicFlow", BASIC_INPUTS, sqlite);
  await assertSuitePasses("test/flows/basic-flow.spec.ts", await fromSession(id, join(dir.path, "basic")));
});

test("scenario:from-session refuses an unknown session id, or a SQLite file that does not exist, with session_not_found and exit 1, creating nothing", async () => {
  const convert = (path: string) => runNode(["--import", "tsx", "src/cli/scenario-from-session.ts", "no-such-session", "--dir", join(dir.path, "none")], { SQLITE_PATH: path });
  const unknown = await convert(sqlite);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /session_not_found: No session "no-such-session"/);
  const missing = join(dir.path, "missing.sqlite");
  const noFile = await convert(missing);
  assert.equal(noFile.code, 1);
  assert.match(noFile.stderr, /session_not_found: There is no SQLite file at .*missing\.sqlite/);
  assert.equal(existsSync(missing), false);
  assert.equal(existsSync(join(dir.path, "none")), false);
});
