import { after, before, beforeEach } from "node:test";
import type { Script } from "../../src/engine/index.ts";
import { startFakeOpenAI, type FakeOpenAI } from "./fake-openai-server.ts";

/**
 * One fake OpenAI-compatible server for a spec file's tests, answering from `scripts`: started
 * before them and given to `use`, its recorded requests and per-test answers cleared before each
 * test, closed after the last.
 */
export function fakeOpenAIPerFile(scripts: readonly Script[], use: (fake: FakeOpenAI) => void): void {
  let fake: FakeOpenAI | undefined;
  before(async () => {
    fake = await startFakeOpenAI(scripts);
    use(fake);
  });
  after(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    fake!.requests.length = 0;
    fake!.answer = () => undefined;
  });
}
