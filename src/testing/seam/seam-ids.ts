/** Ids a seam server gives what it answers, numbered per prefix (`chatcmpl-1`, `resp_1`, `msg_1`, `fc_1`), unique while it runs. */
export class SeamIds {
  readonly #counts = new Map<string, number>();

  next(prefix: "chatcmpl-" | "resp_" | "msg_" | "fc_"): string {
    const count = (this.#counts.get(prefix) ?? 0) + 1;
    this.#counts.set(prefix, count);
    return `${prefix}${count}`;
  }
}
