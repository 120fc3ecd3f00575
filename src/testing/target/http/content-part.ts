import type { UIMessagePart } from "./ui-message.ts";

const CONTENT_CHUNKS: ReadonlySet<string> = new Set([
  "custom",
  "file",
  "reasoning-file",
  "source-url",
  "source-document",
  "steering-message",
]);

/** Whether a chunk of this type adds one part of its own to the message. */
export function isContentChunk(type: string): boolean {
  return CONTENT_CHUNKS.has(type);
}

/** The part a content chunk (custom, file, source, steering message) adds, as the SDK's client makes it. */
export function contentPart(chunk: Record<string, unknown>, type: string): UIMessagePart {
  const metadata = chunk["providerMetadata"];
  switch (type) {
    case "custom":
      return { type, kind: chunk["kind"], providerMetadata: metadata };
    case "file":
    case "reasoning-file":
      return {
        type,
        mediaType: chunk["mediaType"],
        url: chunk["url"],
        ...(metadata == null ? {} : { providerMetadata: metadata }),
      };
    case "source-url":
      return {
        type,
        sourceId: chunk["sourceId"],
        url: chunk["url"],
        title: chunk["title"],
        providerMetadata: metadata,
      };
    case "source-document":
      return {
        type,
        sourceId: chunk["sourceId"],
        mediaType: chunk["mediaType"],
        title: chunk["title"],
        filename: chunk["filename"],
        providerMetadata: metadata,
      };
    default:
      return { type, id: chunk["id"], parts: chunk["parts"] };
  }
}
