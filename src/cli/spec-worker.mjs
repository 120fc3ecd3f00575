// A process that plays a part of a `flowcheck test` run on another core (`--workers`): plain
// JavaScript, as flowcheck.mjs is, so that tsx's hooks load the TypeScript of the run's code and
// specs in this thread. It takes its order from the first message on its IPC channel and tells
// what it played back on it (src/cli/play-part.ts, started by src/cli/spec-worker.ts).
import { once } from "node:events";
import module from "node:module";
import { register } from "tsx/esm/api";

if (!process.send)
  throw new Error("spec-worker.mjs plays a part of a flowcheck test run, which starts it with an IPC channel.");
const send = process.send.bind(process);
// As flowcheck.mjs does: the modules' compiled code kept between processes.
module.enableCompileCache();
register();
const { playPart } = await import("./play-part.ts");
const [order] = await once(process, "message");
const passed = await playPart(order, (message) => send(message));
// Messages are written in order: once the last is, every one is, and the channel may close.
send({ kind: "done", passed }, undefined, {}, () => process.disconnect());
