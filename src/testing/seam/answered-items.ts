import type { WireObject } from "./wire-object.ts";

/**
 * The output items a seam server answered, by id: the Responses API's `item_reference` names one,
 * and a provider that stores its answers resolves it to the item as it was sent.
 */
export class AnsweredItems {
  readonly #items = new Map<string, WireObject>();

  remember(items: readonly WireObject[]): void {
    for (const item of items) this.#items.set(item["id"] as string, item);
  }

  item(id: unknown): WireObject | undefined {
    return typeof id === "string" ? this.#items.get(id) : undefined;
  }
}
