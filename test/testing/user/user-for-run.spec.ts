import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import type { ScriptedUser } from "../../../src/engine/scripted-user.ts";
import { userForRun } from "../../../src/testing/user/user-for-run.ts";

const script: ScriptedUser = () => ({ message: "hello", done: false });

test("the scripted mode plays the flow's scripted user", async () => {
  const setup = userForRun(loadConfig({}), "scripted", script, "HotelFlow");
  assert.equal(setup.unavailable, undefined);
  assert.equal(setup.user?.player, "scripted");
});

test("the scripted mode without a scripted user has none, saying how to add one", () => {
  const setup = userForRun(loadConfig({}), "scripted", undefined, "HotelFlow");
  assert.equal(setup.user, undefined);
  assert.match(setup.unavailable!, /^HotelFlow has no scripted user: add `user` to its FlowEntry/);
});

test("live and record play a live USER_MODEL with the provider's key", () => {
  const config = loadConfig({ OPENAI_API_KEY: "sk-test", USER_MODEL: "small-user" });
  for (const mode of ["live", "record"] as const) {
    const setup = userForRun(config, mode, script, "HotelFlow");
    assert.equal(setup.unavailable, undefined);
    assert.equal(setup.user?.player, "live small-user");
  }
});

test("live without a key has no user, naming both keys", () => {
  const setup = userForRun(loadConfig({}), "live", script, "HotelFlow");
  assert.equal(setup.user, undefined);
  assert.match(setup.unavailable!, /^no OPENAI_API_KEY \(or USER_API_KEY\) is set/);
});

test("USER_BASE_URL without USER_API_KEY has no user: OPENAI_API_KEY is not sent to that host", () => {
  const config = loadConfig({ OPENAI_API_KEY: "sk-test", USER_BASE_URL: "http://127.0.0.1:9/v1" });
  const setup = userForRun(config, "live", script, "HotelFlow");
  assert.equal(setup.user, undefined);
  assert.match(setup.unavailable!, /^USER_BASE_URL is set without USER_API_KEY/);
});

test("replay has no user here: the cassette plays it back", () => {
  const setup = userForRun(loadConfig({ OPENAI_API_KEY: "sk-test" }), "replay", script, "HotelFlow");
  assert.deepEqual(setup, { user: undefined, unavailable: "replay of simulated users comes from the cassette" });
});
