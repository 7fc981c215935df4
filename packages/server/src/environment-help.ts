// The environment `deckhand serve --help` lists: what the server reads at start (README, Configuration,
// has each in full; a test keeps the two lists the same).
const VARIABLES: Array<[name: string, meaning: string]> = [
  ['HOST', 'bind address (default 127.0.0.1; --host wins)'],
  ['PORT', 'port (default 3000, 0 for a free one; --port wins)'],
  ['DECKHAND_API_KEYS', 'key:projectId[:sessions=N][:rate=R] entries, comma-separated; none: open, loopback only'],
  ['DECKHAND_API_KEYS_FILE', 'a file of the same entries, one a line'],
  ['DECKHAND_MAX_SESSIONS', 'open sessions at once, across projects (default: from memory)'],
  ['DECKHAND_POOL_SIZE', 'browsers launched ahead of need (default 1; 0: off)'],
  ['DECKHAND_POOL_MAX_AGE_MS', 'a pooled browser older than this is replaced (default 1800000)'],
  ['DECKHAND_CONTEXTS_PER_BROWSER', 'sessions of a project sharing one browser (default 50)'],
  ['DECKHAND_PROJECT_MAX_SESSIONS', 'open sessions of one project (default 4 with keys, else none)'],
  ['DECKHAND_PROJECT_RATE', 'requests a second of one project (default 20 with keys, else none)'],
  ['DECKHAND_DATA_DIR', 'per-project data: profiles and downloads (default .deckhand/data)'],
  ['DECKHAND_IDLE_TIMEOUT_MS', 'a session idle this long is ended (default 600000)'],
  ['DECKHAND_MAX_SESSION_MS', 'absolute lifetime of a session (default 3600000)'],
  ['DECKHAND_AGENT_TIMEOUT_MS', 'deadline of an agentExecute run (default 600000)'],
  ['DECKHAND_DEFAULT_TIMEOUT_MS', 'deadline of an act, observe or extract that gives none (default 120000)'],
  ['DECKHAND_CHROMIUM_PATH', 'Chromium binary (default: found in /usr/bin)'],
  ['DECKHAND_HEADLESS', 'headless unless a session says otherwise (default true)'],
  ['DECKHAND_BODY_LIMIT_BYTES', 'larger request bodies get 413 (default 4194304)'],
  ['DECKHAND_SSE_HEARTBEAT_MS', 'heartbeat of open event streams (default 15000)'],
  ['DECKHAND_CACHE_DIR', 'act and agent cache directory (default .deckhand/cache; empty: memory only)'],
  ['DECKHAND_CACHE_MAX_ENTRIES', 'cache entries kept in memory (default 1000)'],
  ['DECKHAND_SEARCH_URL', 'a SearXNG instance for the agent\'s useSearch'],
  ['BRAVE_SEARCH_API_KEY', 'Brave Search key for the agent\'s useSearch'],
  ['DECKHAND_BRAVE_SEARCH_URL', 'Brave Search endpoint override'],
  ['DECKHAND_PUBLIC_URL', 'base URL clients reach the server at (reverse proxy, TLS)'],
  ['DECKHAND_CDP_ATTACH_HOSTS', 'hosts a session may attach to with browser.cdpUrl'],
  ['DECKHAND_LOG_LEVEL', 'debug, info, warn or error (default info)'],
  ['DECKHAND_NAV_ALLOW', 'loopback or private destinations session browsers may reach'],
  ['DECKHAND_NAV_DENY', 'destinations session browsers may never reach'],
  ['DECKHAND_MCP_MODEL', 'model of an MCP client that names none (default builtin/offline)'],
  ['DECKHAND_MCP_IDLE_MS', 'an idle MCP session closes after this long (default 600000)'],
  ['DECKHAND_PROXY_URL', 'the operator\'s proxy for MCP\'s proxies=true'],
  ['OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, …', 'model provider keys (README, Models); <PROVIDER>_BASE_URL too'],
];

const width = Math.max(...VARIABLES.map(([name]) => (name.length > 32 ? 0 : name.length)));

export const ENVIRONMENT_HELP = `Environment (read once at start; README, Configuration, says more):\n${VARIABLES.map(([name, meaning]) =>
  name.length > width ? `  ${name}\n  ${' '.repeat(width)}  ${meaning}` : `  ${name.padEnd(width)}  ${meaning}`,
).join('\n')}`;
