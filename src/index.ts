// Build flows and serve them: the flow-author API (src/engine/index.ts, which lists it name by
// name) and the app around it.
export * from "./engine/index.ts";
export { createApp, type App, type AppOptions } from "./create-app.ts";
export type { ModelWrapper } from "./engine/model-factory.ts";
export type { ChatModel, ModelContext, ModelRequest, ToolDefinition } from "./engine/chat-model.ts";
export type { SessionStore } from "./engine/session-store.ts";
export { serve, type RunningServer, type ServeOptions } from "./serve.ts";
export { loadConfig, MODEL_MODES, type Config, type ModelMode } from "./config.ts";
export { FlowcheckError, errorCatalogue, isFlowcheckError, type ErrorCode } from "./errors.ts";
export { SqliteSessionStore } from "./store/sqlite/sqlite-session-store.ts";
export { SESSION_HEADER, type HttpRequest, type HttpResponse } from "./http/http-exchange.ts";
