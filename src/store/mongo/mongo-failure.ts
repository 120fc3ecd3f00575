import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from "mongodb";
import { FlowcheckError } from "../../errors.ts";

// The server's codes for a document past its 16 MiB limit: an update whose result would be larger
// (17419), and a document that is larger as sent (BSONObjectTooLarge).
const TOO_LARGE = new Set([17419, 10334]);

/**
 * The catalogue's error for a MongoDB failure during a request: `session_too_large` for the
 * document size limit, `store_unavailable` for a server that refuses the write or cannot be reached.
 * Any other error (a driver error from a bug in the call) is returned as it is.
 */
export function mongoFailure(error: unknown, where: string): unknown {
  if (error instanceof MongoServerError && typeof error.code === "number" && TOO_LARGE.has(error.code)) {
    return new FlowcheckError(
      "session_too_large",
      `The session has grown past MongoDB's 16 MiB document limit in ${where} (${error.message}). ` +
        "The turn was not applied and the session is as it was; start a new session to go on.",
      { cause: error },
    );
  }
  if (
    error instanceof MongoServerError ||
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError
  ) {
    return new FlowcheckError(
      "store_unavailable",
      `The session store (${where}) failed: ${error.message}. ` +
        `Nothing of the turn was stored; send the request again once the server is back.`,
      { cause: error },
    );
  }
  return error;
}
