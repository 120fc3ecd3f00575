import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test, type TestContext } from "node:test";
import type { Scenario } from "../../src/testing/index.ts";
import { basicFlowEntry, reminderFlowEntry } from "../fixtures/flows/index.ts";
import { holdConversation } from "../support/hold-conversation.ts";
import { repositoryCopy, type RepositoryCopy } from "../support/repository-copy.ts";
import { tempDir } from "../support/temp-path.ts";

// scenario:from-session as docs/scenarios-from-sessions.md runs it: a conversation held over HTTP,
// then `npm run -s scenario:from-session -- <id>` and the flow's suite on the file it wrote, in a
// copy of the repository whose registered flows are the BasicFlow and ReminderFlow fixtures.

const REMINDER_INPUTS = ["water the plants", "in 3 days"];
const BASIC_INPUTS = ["John Doe", "John Wick", "LA, NYC", "1600 sw murray blvd, beaverton, oregon 97006"];
interface Own {
  copy: RepositoryCopy;
  dir: string;
  sqlite: string;
}

/**
 * A copy of the repository for the tests of the describe that calls this, which take turns on it
 * (one per group, not per test, since tsx compiles each copy's code anew), and for each test a
 * folder and a SQLite file of its own, removed after it.
 */
function copyForThisGroup(): (t: TestContext) => Promise<Own> {
  let copy: RepositoryCopy;
  before(async () => (copy = await repositoryCopy("from-session-cli", ["basicFlowEntry", "reminderFlowEntry"])));
  after(() => copy.remove());
  return async (t) => {
    const dir = await tempDir("from-session-cli");
    t.after(dir.remove);
    return { copy, dir: dir.path, sqlite: join(dir.path, "sessions.sqlite") };
  };
}

/** `npm run -s scenario:from-session -- <id>` in the copy, on the conversation's SQLite file: the file it wrote. */
async function fromSession({ copy, sqlite }: Own, id: string): Promise<string> {
  const run = await copy.run("npm", ["run", "-s", "scenario:from-session", "--", id], { SQLITE_PATH: sqlite });
  assert.equal(run.code, 0, run.stderr);
  const file = /wrote (\S+\.scenario\.json)/.exec(run.stdout)?.[1];
  assert.ok(file, run.stdout);
  return file;
}

async function assertSuitePasses(copy: RepositoryCopy, file: string) {
  for (const mode of ["replay", "scripted"]) {
    const suite = await copy.testFlows(file, { FLOW_MODEL: mode });
    assert.equal(suite.code, 0, `${mode}:\n${suite.stdout}`);
    assert.match(suite.stdout, /^# fail 0$/m);
  }
}

// Two groups, each on a copy of its own, and each test on a SQLite file of its own, run side by side.
describe("scenario:from-session in a copy of the repository", { concurrency: 2 }, () => {
  describe("a ReminderFlow session", () => {
    const ownOf = copyForThisGroup();
    test("a ReminderFlow conversation held over HTTP becomes a scenario, with its DueDate child run and its clock's pin, that the ReminderFlow suite passes with FLOW_MODEL=replay and scripted", async (t) => {
      const own = await ownOf(t);
      const { copy } = own;
      const id = await holdConversation([reminderFlowEntry], "ReminderFlow", REMINDER_INPUTS, own.sqlite);
      const file = await fromSession(own, id);
      assert.equal(file, copy.scenarioFile(`reminder-flow-${id.slice(0, 8)}`));
      const scenario = JSON.parse(readFileSync(join(copy.path, file), "utf8")) as Scenario;
      assert.deepEqual(
        scenario.turns.map((turn) => turn.input),
        REMINDER_INPUTS,
      );
      assert.ok(
        scenario.finalChildren?.some((child) => child["flow"] === "DueDate" && child["parentStep"] === "ReminderStep"),
      );
      const pin = scenario.env?.["REMINDER_FLOW_CURRENT_DATE"];
      assert.ok(pin, JSON.stringify(scenario.env));
      assert.equal(
        (scenario.finalState as { ReminderStep: { dueAt: string } }).ReminderStep.dueAt,
        new Date(Date.parse(pin) + 3 * 86_400_000).toISOString(),
      );
      await assertSuitePasses(copy, file);

      scenario.turns[1]!.expectState = { ReminderStep: { dueAt: pin } };
      writeFileSync(join(copy.path, file), JSON.stringify(scenario));
      const changed = await copy.testFlows(file, { FLOW_MODEL: "replay" });
      assert.notEqual(changed.code, 0);
      assert.match(changed.stdout, /dueAt/);
    });
  });

  describe("a BasicFlow session, and sessions that are not there", { concurrency: 1 }, () => {
    const ownOf = copyForThisGroup();
    test("a BasicFlow conversation held over HTTP becomes a scenario that the BasicFlow suite passes with FLOW_MODEL=replay and scripted", async (t) => {
      const own = await ownOf(t);
      const id = await holdConversation([basicFlowEntry], "BasicFlow", BASIC_INPUTS, own.sqlite);
      await assertSuitePasses(own.copy, await fromSession(own, id));
    });

    test("scenario:from-session refuses an unknown session id, or a SQLite file that does not exist, with session_not_found and exit 1, creating nothing", async (t) => {
      const { copy, dir, sqlite } = await ownOf(t);
      // A store that holds sessions, only not the one asked for.
      await holdConversation([basicFlowEntry], "BasicFlow", BASIC_INPUTS.slice(0, 1), sqlite);
      const none = join(dir, "none");
      const convert = (path: string) =>
        copy.run(process.execPath, ["src/cli/flowcheck.mjs", "from-session", "no-such-session", "--dir", none], {
          SQLITE_PATH: path,
        });
      const unknown = await convert(sqlite);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /session_not_found: No session "no-such-session"/);
      const missing = join(dir, "missing.sqlite");
      const noFile = await convert(missing);
      assert.equal(noFile.code, 1);
      assert.match(noFile.stderr, /session_not_found: There is no SQLite file at .*missing\.sqlite/);
      assert.equal(existsSync(missing), false);
      assert.equal(existsSync(none), false);
    });
  });
});
