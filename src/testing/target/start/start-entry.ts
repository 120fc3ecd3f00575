/** How flowcheck starts a target's app for the run, as a target's `start` of flowcheck.config.json says. */
export interface StartEntry {
  /** Run with a shell, in its own process group. */
  command: string;
  /** An absolute path once loaded: the file gives it relative to the config file's folder. Default that folder. */
  cwd?: string;
  /** Over flowcheck's environment without the provider keys; `${VAR}` read, `{{port}}` filled at start. */
  env?: Record<string, string>;
  /** Polled with GET until it answers a status below 500; `{{port}}` filled at start. */
  ready: string;
  /** How long the app may take to be ready; default 60000. */
  timeoutMs?: number;
  /** Use a server already answering at `ready` and never stop it; ignored under CI=true. */
  reuse?: boolean;
}

/** The model flowcheck serves a started app, as a target's `model` of flowcheck.config.json says. */
export interface ModelEntry {
  /** The variable the app reads its model's base URL from; default OPENAI_BASE_URL. */
  baseUrlEnv?: string;
  /** The variable the app reads its model's key from, given a placeholder; default OPENAI_API_KEY. */
  keyEnv?: string;
  /** The module whose default export scripts the model: an absolute path once loaded. */
  scripts?: string;
}

/** What a target of any kind may say about the app flowcheck starts for it and the model it serves it. */
export interface StartedAppKeys {
  start?: StartEntry;
  model?: ModelEntry;
}
