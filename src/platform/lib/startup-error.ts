// The failures an operator fixes by changing a setting: said in one line naming it, exit code 2, no stack.
// A leaf module (it imports nothing), so the database layer and config can both raise them without a cycle.
export class StartupError extends Error {}

/** A bad environment variable or service config file. */
export class ConfigError extends StartupError {}
