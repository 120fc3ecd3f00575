import { createWriteStream, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { PassThrough, type Readable, type Writable } from "node:stream";
import * as builtIn from "node:test/reporters";
import { moduleSpecifier } from "./run-arguments.ts";

type Reporter = Parameters<Readable["compose"]>[0];

async function reporterOf(name: string): Promise<Reporter> {
  // spec is a class, a transform of its own per run; the others are functions of the events.
  if (name === "spec") return new builtIn.spec() as unknown as Reporter;
  if (Object.hasOwn(builtIn, name)) return (builtIn as unknown as Record<string, Reporter>)[name]!;
  const module = (await import(moduleSpecifier(name))) as { default?: Reporter };
  if (!module.default) throw new Error(`--test-reporter ${name} exports no default reporter.`);
  return module.default;
}

function destinationOf(destination: string): Writable {
  if (destination === "stdout") return process.stdout;
  if (destination === "stderr") return process.stderr;
  // node:test would open the file without making its folder: test/.tmp/ is not there in a fresh checkout.
  mkdirSync(dirname(resolve(destination)), { recursive: true });
  return createWriteStream(destination);
}

/**
 * node:test's reporters as `node --test` takes them from its --test-reporter options, loaded
 * before the run starts; the function returned sends a run's events to each, each writing to its
 * destination, and resolves once every destination has its last byte.
 */
export async function testReporters(
  reporters: readonly { name: string; destination: string }[],
): Promise<(events: Readable) => Promise<void>> {
  const loaded = await Promise.all(
    reporters.map(async ({ name, destination }) => ({ reporter: await reporterOf(name), destination })),
  );
  return async (events) => {
    const written = loaded.map(({ reporter, destination }) => {
      const out = destinationOf(destination);
      const standard = out === process.stdout || out === process.stderr;
      // Each reporter reads the events from a copy of its own: one readable piped to each.
      const stream = events.pipe(new PassThrough({ objectMode: true })).compose(reporter);
      stream.pipe(out, { end: !standard });
      return new Promise<void>((done, fail) => {
        stream.on("error", fail);
        if (standard) stream.on("end", done);
        else out.on("finish", done).on("error", fail);
      });
    });
    await Promise.all(written);
  };
}
