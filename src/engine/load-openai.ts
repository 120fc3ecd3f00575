import { createRequire } from "node:module";
import type OpenAI from "openai";

const require = createRequire(import.meta.url);

/**
 * The OpenAI SDK's client class, loaded on first use. Loading it takes about 0.2 s, which every
 * scripted test process would pay for nothing: only live, record and judge runs need it. One
 * loader for the whole code base, so `instanceof` checks see the class that made the error.
 */
export function loadOpenAI(): typeof OpenAI {
  return (require("openai") as { OpenAI: typeof OpenAI }).OpenAI;
}
