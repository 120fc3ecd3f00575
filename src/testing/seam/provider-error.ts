import type { SeamResponse } from "./seam-response.ts";

/**
 * An error in the provider's own shape, `{ error: { message, type, param, code } }`, which every
 * SDK surfaces by its message. A 400 also says `x-should-retry: false`: no SDK retries it anyway.
 */
export function providerError(
  status: number,
  error: { message: string; type: string; code: string | null; param?: string | null },
  headers: Readonly<Record<string, string>> = {},
): SeamResponse {
  return {
    status,
    headers: { "content-type": "application/json", ...(status === 400 && { "x-should-retry": "false" }), ...headers },
    body: JSON.stringify({
      error: { message: error.message, type: error.type, param: error.param ?? null, code: error.code },
    }),
  };
}
