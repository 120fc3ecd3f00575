import assert from "node:assert/strict";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { createApp } from "../../../src/create-app.ts";
import { scriptedText, scriptedToolCalls, type Script } from "../../../src/engine/index.ts";
import type { FlowEngine, TurnOutcome } from "../../../src/engine/flow-engine.ts";
import type { SessionDocument } from "../../../src/engine/session-document.ts";
import { InvoiceFlow } from "../../../src/flows/invoice/index.ts";
import { SqliteSessionStore } from "../../../src/store/sqlite/sqlite-session-store.ts";
import { tempDir } from "../../support/temp-path.ts";

export const PINNED = "2027-07-15T09:30:00.000Z";

export interface ToolCallCommand {
  name: string;
  args: Record<string, unknown>;
}

/**
 * A model whose user messages are the list of tool calls to make, so a test calls each tool with
 * exactly the arguments it wants; a tool's result is echoed as the answer. Records every prompt.
 */
function commandScript(prompts: { step: string; system: string }[]): Script {
  return ({ latest, context, system }) => {
    prompts.push({ step: context.step, system });
    if (latest?.role === "handoff") return scriptedText(`${context.step} entered.`);
    if (latest?.role === "tool") return scriptedText(latest.content);
    if (latest?.role === "user") return scriptedToolCalls(JSON.parse(latest.content) as ToolCallCommand[]);
    return undefined;
  };
}

/** One InvoiceFlow session on its own app and SQLite file, driven tool call by tool call. */
export class InvoiceConversation {
  readonly engine: FlowEngine;
  /** Every system prompt the steps' model was given, in order. */
  readonly prompts: { step: string; system: string }[];
  #session: string | undefined;

  constructor(engine: FlowEngine, prompts: { step: string; system: string }[]) {
    this.engine = engine;
    this.prompts = prompts;
  }

  /** The system prompt `step` was last given. */
  lastPrompt(step: string): string {
    const prompt = this.prompts.findLast((entry) => entry.step === step);
    assert.ok(prompt, `${step} was never prompted`);
    return prompt.system;
  }

  /** Opens an app with the flow's clock pinned to `pin`; it is closed and removed after the test. */
  static async open(t: TestContext, pin = PINNED): Promise<InvoiceConversation> {
    const dir = await tempDir("invoice-flow");
    const prompts: { step: string; system: string }[] = [];
    const app = await createApp({
      flows: [{ flow: InvoiceFlow, scripts: { InvoiceFlow: commandScript(prompts) } }],
      config: loadConfig({ INVOICE_FLOW_CURRENT_DATE: pin }),
      store: new SqliteSessionStore(join(dir.path, "sessions.sqlite"), { scratch: true }),
      log: () => undefined,
    });
    t.after(async () => {
      try {
        await app.close();
      } finally {
        dir.remove();
      }
    });
    return new InvoiceConversation(app.engine, prompts);
  }

  get session(): string {
    assert.ok(this.#session, "no turn has been played yet");
    return this.#session;
  }

  /** One turn in which the model makes these tool calls. */
  async call(...calls: ToolCallCommand[]): Promise<TurnOutcome> {
    const message = JSON.stringify(calls);
    const outcome = await this.engine.chat(
      this.#session ? { session: this.#session, message } : { flow: InvoiceFlow.name, message },
    );
    this.#session = outcome.session;
    return outcome;
  }

  async document(): Promise<SessionDocument> {
    const document = await this.engine.fetchAll(this.session);
    assert.ok(document, `session ${this.session} should be stored`);
    return document;
  }

  /** The customer saved, so the session is on LineItemsStep. */
  async reachLineItems(): Promise<void> {
    const outcome = await this.call({ name: "save_customer", args: { name: "Acme, Inc.", email: "ap@acme.example" } });
    assert.equal(outcome.currentStep, "LineItemsStep");
  }

  /** The customer and one line (3 widgets at $12.50, 8.25%) saved, the session on ConfirmStep. */
  async reachConfirm(): Promise<void> {
    await this.reachLineItems();
    await this.call(widgets());
    const outcome = await this.call({ name: "finish_items", args: {} });
    assert.equal(outcome.currentStep, "ConfirmStep");
  }
}

export function widgets(quantity = "3"): ToolCallCommand {
  return { name: "add_line_item", args: { description: "widgets", quantity, unit_price: "$12.50", tax_rate: "8.25%" } };
}
