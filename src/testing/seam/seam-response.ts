/** What the seam sends back over HTTP: an answer, or a connection to hold and then reset. */
export type SeamResponse =
  | { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }
  | { readonly holdMs: number };
