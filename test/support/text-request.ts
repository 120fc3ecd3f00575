import http from "node:http";

export interface TextAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request on node:http whose answer is read as text, whatever its type (a CSV, JSON, an error). */
export function textRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    // No keep-alive: the connection ends with the answer, so closing the server never waits for it.
    const request = http.request(url, {
      method: options.method ?? "GET",
      headers: options.headers ?? {},
      agent: false,
    });
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    request.on("error", reject);
    request.end(options.body);
  });
}
