import http from "node:http";

export interface JsonAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A keep-alive JSON client for one server, on node:http. */
export function jsonClient(baseUrl: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const request = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonAnswer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(new URL(path, baseUrl), {
        method,
        agent,
        headers: payload === undefined ? headers : { "Content-Type": "application/json", ...headers },
      });
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      });
      req.on("error", reject);
      req.end(payload);
    });
  return {
    get: (path: string) => request("GET", path),
    post: (path: string, body: unknown, headers?: Record<string, string>) => request("POST", path, body, headers),
    close: () => agent.destroy(),
  };
}
