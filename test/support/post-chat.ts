import http from "node:http";

export interface PostedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as sent, byte for byte (as UTF-8 text). */
  text: string;
}

/** POSTs `body` as JSON to `/ai/chat` on a connection of its own, and reads the answer whole, whatever its type. */
export function postChat(baseUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<PostedAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL("/ai/chat", baseUrl), {
      method: "POST",
      agent: false,
      headers: { "Content-Type": "application/json", ...headers },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}
