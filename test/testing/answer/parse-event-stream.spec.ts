import assert from "node:assert/strict";
import { test } from "node:test";
import { parseEventStream } from "../../../src/testing/answer/parse-event-stream.ts";

test("a stream splits into its events in order, with their names and data", () => {
  const text =
    'event: token\ndata: {"text":"Hi "}\n\nevent: token\ndata: {"text":"there"}\n\nevent: done\ndata: {"success":true}\n\n';
  assert.deepEqual(parseEventStream(text), [
    { event: "token", data: '{"text":"Hi "}' },
    { event: "token", data: '{"text":"there"}' },
    { event: "done", data: '{"success":true}' },
  ]);
});

test("an event without a name is a message, and its data lines are joined with newlines", () => {
  assert.deepEqual(parseEventStream("data: first\ndata: second\n\n"), [{ event: "message", data: "first\nsecond" }]);
});

test("comments and empty blocks are ignored, and a named event without data has empty data", () => {
  assert.deepEqual(parseEventStream(": keep-alive\n\n\n\nevent: ping\n\n"), [{ event: "ping", data: "" }]);
});

test("CRLF and CR line ends, a missing space after the colon and a last block without a blank line are read alike", () => {
  assert.deepEqual(parseEventStream("event:token\r\ndata:{}\r\n\r\nevent: done\rdata: x"), [
    { event: "token", data: "{}" },
    { event: "done", data: "x" },
  ]);
});

test("only the first space after the colon is dropped, and colons in the value are kept", () => {
  assert.deepEqual(parseEventStream("data:  two spaces: kept\n\n"), [{ event: "message", data: " two spaces: kept" }]);
});

test("an empty stream has no events", () => {
  assert.deepEqual(parseEventStream(""), []);
  assert.deepEqual(parseEventStream("\n\n"), []);
});
