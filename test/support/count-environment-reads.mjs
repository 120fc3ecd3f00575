// Loaded with --import into a flowcheck child: counts how often the configuration module
// (src/config.ts) reads the whole environment, and adds a line with the count to ENVIRONMENT_READS_FILE
// when the process exits: a run in several processes (--workers) adds one each. A read is an
// enumeration of process.env made from that module.
import { appendFileSync } from "node:fs";

const out = process.env.ENVIRONMENT_READS_FILE;
const counted = { reads: 0 };
const real = process.env;
process.env = new Proxy(real, {
  ownKeys(target) {
    if (/[\\/]src[\\/]config\.ts/.test(new Error().stack ?? "")) counted.reads += 1;
    return Reflect.ownKeys(target);
  },
  // Set on the environment itself: through the proxy, a plain set would define a property, which it refuses.
  set(target, key, value) {
    return Reflect.set(target, key, value);
  },
});
if (out) process.on("exit", () => appendFileSync(out, `${counted.reads}\n`));
