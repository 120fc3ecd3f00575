import { isUtf8 } from "node:buffer";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FlowcheckError } from "../errors.ts";
import type { Handler } from "./create-handler.ts";
import { MAX_BODY_BYTES, type HttpRequest, type HttpResponse, type RequestGate } from "./http-exchange.ts";
import { errorResponse } from "./json-response.ts";

class BodyTooLarge extends Error {}
class BodyNotUtf8 extends Error {}

/**
 * Reads the body as UTF-8 and passes it to `done`, or refuses it with BodyTooLarge as soon as it
 * passes the limit instead of buffering it whole, or with BodyNotUtf8 when its bytes are not UTF-8
 * (decoding would turn them into U+FFFD, and the turn would save a character nobody sent). Exactly
 * one of the two is called. Callbacks rather than a promise: every turn reads a body, and a
 * promise is a cost per turn.
 */
function readBody(
  request: IncomingMessage,
  limit: number,
  done: (body: string) => void,
  refused: (error: unknown) => void,
): void {
  if (Number(request.headers["content-length"]) > limit) {
    refused(new BodyTooLarge());
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (then: () => void) => {
    if (settled) return;
    settled = true;
    then();
  };
  request.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      request.removeAllListeners("data");
      request.resume();
      settle(() => refused(new BodyTooLarge()));
    } else {
      chunks.push(chunk);
    }
  });
  request.on("end", () =>
    settle(() => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (isUtf8(body)) done(body.toString("utf8"));
      else refused(new BodyNotUtf8());
    }),
  );
  request.on("error", (error) => settle(() => refused(error)));
}

function send(res: ServerResponse, response: HttpResponse): void {
  if (typeof response.body === "string") {
    // With its length known, the body goes out whole in one write rather than chunk-framed.
    res.writeHead(response.status, { ...response.headers, "Content-Length": Buffer.byteLength(response.body) });
    res.end(response.body);
    return;
  }
  res.writeHead(response.status, response.headers);
  for (const chunk of response.body) res.write(chunk);
  res.end();
}

/**
 * Serves `handler` on node:http. Bodies over 1 MB are answered 413 and the connection is closed.
 * `gate` sees each request before its body is read, and may answer it instead of the handler.
 */
export function createNodeServer(handler: Handler, options: { gate?: RequestGate } = {}): Server {
  const { gate } = options;
  return createServer((req, res) => {
    // The handler answers every error itself; this only keeps a bug in it from ending the process.
    const failed = (error: unknown) => {
      console.error(`flowcheck: a request failed outside the handler: ${(error as Error).stack ?? String(error)}`);
      if (res.headersSent) res.destroy();
      else send(res, errorResponse(error));
    };
    // Before the body: a refused client never has its body buffered, and learns nothing of its size limit.
    // node:http discards the unread body once the answer is sent, so the connection can carry the next request.
    const head = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers };
    let refused: HttpResponse | undefined;
    try {
      refused = gate?.(head);
    } catch (error) {
      failed(error);
      return;
    }
    if (refused) {
      send(res, refused);
      return;
    }
    readBody(
      req,
      MAX_BODY_BYTES,
      (body) => {
        const request: HttpRequest = { ...head, body };
        let answer: Promise<HttpResponse>;
        try {
          answer = handler(request);
        } catch (error) {
          failed(error);
          return;
        }
        answer.then((response) => send(res, response)).catch(failed);
      },
      (error) => answerUnreadBody(res, error, failed),
    );
  });
}

/** Answers a request whose body could not be read: not UTF-8 (400), over the limit (413), or the connection broke. */
function answerUnreadBody(res: ServerResponse, error: unknown, failed: (error: unknown) => void): void {
  if (error instanceof BodyNotUtf8) {
    const message =
      "The body is not valid UTF-8, so it is not JSON; " +
      "send it encoded as UTF-8 (half of a character, such as a lone surrogate, as a \\u escape).";
    send(res, errorResponse(new FlowcheckError("invalid_json", message)));
    return;
  }
  if (!(error instanceof BodyTooLarge)) {
    res.destroy();
    return;
  }
  try {
    // The rest of the body is never read, so this connection cannot carry another request.
    res.setHeader("Connection", "close");
    send(
      res,
      errorResponse(
        new FlowcheckError("body_too_large", `The body is over ${MAX_BODY_BYTES} bytes; send a shorter message.`),
      ),
    );
  } catch (failure) {
    failed(failure);
  }
}

/** Why `host:port` cannot be listened on, as the catalogue says it: the busy port that `npm start` meets most, or the address. */
function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): FlowcheckError {
  if (error.code === "EADDRINUSE")
    return new FlowcheckError("port_in_use", `port ${port} is in use; set PORT`, { cause: error });
  return new FlowcheckError(
    "config_invalid",
    `cannot listen on ${host}:${port} (${error.message}); set HOST and PORT to an address of this machine.`,
    {
      cause: error,
    },
  );
}

/**
 * Listens and resolves with the base URL, e.g. `http://127.0.0.1:3000`; rejects with `port_in_use`
 * when another process has the port, `config_invalid` when the address cannot be listened on.
 */
export function listen(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenFailure(error, host, port));
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve(`http://${shownHost}:${address.port}`);
    });
  });
}
