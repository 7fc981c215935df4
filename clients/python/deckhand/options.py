"""The client's initialization options (the spec's "Client initialization options" table) with their
Python defaults, their spellings (snake_case, and the spec's camelCase names), environment fallbacks,
and the one check that turns a wrong option into an error naming it."""
from __future__ import annotations

import dataclasses
import difflib
import re
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, cast

from ._gen_shapes import BrowserbaseSessionCreateParams, LaunchOptions, LogLine, StorageState
from .errors import DeckhandOptionsError

Env = Literal["BROWSERBASE", "LOCAL"]
Verbose = Literal[0, 1, 2]
DEFAULT_API_URL = "http://127.0.0.1:3000"


class ModelClientOptions(TypedDict, total=False):
    """Model settings: the key (sent as `x-model-api-key`, never logged) and an endpoint sent with each call."""

    apiKey: str
    api_key: str
    baseURL: str
    api_base: str
    temperature: float
    maxTokens: int


@dataclass
class DeckhandConfig:
    """Every option with its Python default. Field names are snake_case; `Deckhand(**options)` also takes the
    spec's camelCase spellings (see ALIASES)."""

    env: Env = "BROWSERBASE"
    """Where the browser runs: the Deckhand server at api_url ('BROWSERBASE'), or this machine ('LOCAL': init()
    starts a Deckhand server of its own on loopback, close() stops it)."""
    api_key: str | None = field(default=None, repr=False)
    """The server's API key (`x-bb-api-key`); else env DECKHAND_API_KEY, then BROWSERBASE_API_KEY. Needed only
    when the server has keys configured (it answers 401 then); 'LOCAL' needs none."""
    project_id: str | None = None
    """Sent as `x-bb-project-id` (optional: the key names the project); else env DECKHAND_PROJECT_ID, BROWSERBASE_PROJECT_ID."""
    browserbase_session_id: str | None = None
    """Resume this existing session instead of starting one."""
    browserbase_session_create_params: BrowserbaseSessionCreateParams | None = None
    storage_state: StorageState | None = field(default=None, repr=False)
    """Cookies and local storage to start with, as `storage_state()` answered in an earlier session (a saved login)."""
    wait_for_captcha_solves: bool = False
    local_browser_launch_options: LaunchOptions | None = None
    """Launch options of the server's browser for this session (`browser.launchOptions` at start)."""
    model_name: str = "gpt-4o"
    model_api_key: str | None = field(default=None, repr=False)
    """The model provider's key, sent as `x-model-api-key` (never logged)."""
    model_client_options: ModelClientOptions | None = field(default=None, repr=False)
    enable_caching: bool = False
    verbose: Verbose = 1
    """Log lines passed on: 0 errors only, 1 info, 2 debug."""
    logger: Callable[[LogLine], None] | None = None
    """Receives each log line (a dict, secrets masked) instead of stderr."""
    use_rich_logging: bool = True
    """Stderr lines with colour (when stderr is a terminal) and the lines' auxiliary values; False: plain lines."""
    dom_settle_timeout_ms: float = 3000
    self_heal: bool = True
    system_prompt: str | None = None
    use_api: bool = True
    """Offload method calls to the HTTP API; the only way this client runs (False is refused)."""
    experimental: bool = False
    api_url: str | None = None
    """The server's root URL; else env DECKHAND_API_URL, then STAGEHAND_API_URL, then http://127.0.0.1:3000.
    In 'LOCAL', the URL of the server init() started."""
    act_timeout_ms: float | None = None
    """The deadline of an act, sent at start."""
    streaming: bool = True
    """Stream each operation as server-sent events (log lines arrive as they happen)."""
    request_timeout_s: float | None = None
    """Socket timeout in seconds of each HTTP call (None: as long as the server's own deadlines take)."""


class DeckhandOptions(TypedDict, total=False):
    """The keyword options of `Deckhand(...)`: every DeckhandConfig field, and the spec's camelCase spellings."""

    env: Env
    api_key: str | None
    apiKey: str | None
    project_id: str | None
    projectId: str | None
    browserbase_session_id: str | None
    browserbaseSessionID: str | None
    browserbase_session_create_params: BrowserbaseSessionCreateParams | None
    browserbaseSessionCreateParams: BrowserbaseSessionCreateParams | None
    storage_state: StorageState | None
    storageState: StorageState | None
    wait_for_captcha_solves: bool
    waitForCaptchaSolves: bool
    local_browser_launch_options: LaunchOptions | None
    localBrowserLaunchOptions: LaunchOptions | None
    model_name: str
    modelName: str
    model_api_key: str | None
    modelApiKey: str | None
    model_client_options: ModelClientOptions | None
    modelClientOptions: ModelClientOptions | None
    enable_caching: bool
    enableCaching: bool
    verbose: Verbose
    logger: Callable[[LogLine], None] | None
    use_rich_logging: bool
    useRichLogging: bool
    dom_settle_timeout_ms: float
    domSettleTimeoutMs: float
    self_heal: bool
    selfHeal: bool
    system_prompt: str | None
    systemPrompt: str | None
    use_api: bool
    useAPI: bool
    experimental: bool
    api_url: str | None
    act_timeout_ms: float | None
    actTimeoutMs: float | None
    streaming: bool
    request_timeout_s: float | None


# The spec's camelCase spelling of each field that has one.
ALIASES: dict[str, str] = {
    "apiKey": "api_key",
    "projectId": "project_id",
    "browserbaseSessionID": "browserbase_session_id",
    "browserbaseSessionCreateParams": "browserbase_session_create_params",
    "storageState": "storage_state",
    "waitForCaptchaSolves": "wait_for_captcha_solves",
    "localBrowserLaunchOptions": "local_browser_launch_options",
    "modelName": "model_name",
    "modelApiKey": "model_api_key",
    "modelClientOptions": "model_client_options",
    "enableCaching": "enable_caching",
    "useRichLogging": "use_rich_logging",
    "domSettleTimeoutMs": "dom_settle_timeout_ms",
    "selfHeal": "self_heal",
    "systemPrompt": "system_prompt",
    "useAPI": "use_api",
    "actTimeoutMs": "act_timeout_ms",
}
# Options of the spec's table marked "TypeScript only".
TYPESCRIPT_ONLY = ("llmProvider", "llmClient", "disablePino", "logInferenceToFile")
FIELDS = frozenset(f.name for f in dataclasses.fields(DeckhandConfig))
# What an HTTP header value may hold: http.client refuses anything else with a bare UnicodeEncodeError.
HEADER_VALUE = re.compile(r"[\x20-\x7e]+")


def _unknown(spelling: str) -> DeckhandOptionsError:
    """An option that does not exist, with the one it most likely meant."""
    names = sorted(FIELDS | set(ALIASES))
    same_case = [name for name in names if name.lower() == spelling.lower()]
    same_letters = [name for name in names if name.replace("_", "").lower() == spelling.replace("_", "").lower()]
    close = same_case or same_letters or difflib.get_close_matches(spelling, names, n=1, cutoff=0.75)
    if close:
        return DeckhandOptionsError(spelling, f"unknown option; did you mean {close[0]}?")
    return DeckhandOptionsError(spelling, f"unknown option (options: {', '.join(sorted(FIELDS))})")


def _header_safe(value: str | None, option: str) -> None:
    if value is not None and not HEADER_VALUE.fullmatch(value):
        raise DeckhandOptionsError(option, "must be the key itself: printable ASCII, as an HTTP header carries it (is it still a placeholder?)")


def resolve_config(config: DeckhandConfig | None, options: Mapping[str, Any], environ: Mapping[str, str]) -> DeckhandConfig:
    """The options over the config (or the defaults), with environment fallbacks, checked."""
    given: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for spelling, value in options.items():
        if spelling in TYPESCRIPT_ONLY:
            raise DeckhandOptionsError(spelling, "is a TypeScript client option; the Python client has no counterpart")
        target = ALIASES.get(spelling, spelling)
        if target not in FIELDS:
            raise _unknown(spelling)
        if target in spelled:
            raise DeckhandOptionsError(spelling, f"given twice (also as {spelled[target]})")
        spelled[target] = spelling
        given[target] = value
    merged = dataclasses.replace(config or DeckhandConfig(), **given)

    def name(target: str) -> str:
        return spelled.get(target, target)

    if merged.env not in ("BROWSERBASE", "LOCAL"):
        raise DeckhandOptionsError(name("env"), f"must be 'BROWSERBASE' or 'LOCAL' (got {merged.env!r})")
    if merged.env == "LOCAL" and merged.api_url is not None:
        raise DeckhandOptionsError(name("api_url"), "env 'LOCAL' starts a Deckhand server of its own; give api_url with env 'BROWSERBASE'")
    if merged.use_api is not True:
        raise DeckhandOptionsError(name("use_api"), "the Python client offloads every call to the HTTP API; only True is supported")
    # The values as given: the annotations say what is allowed, these checks hold callers without a type checker to it.
    verbose = cast(object, merged.verbose)
    if isinstance(verbose, bool) or verbose not in (0, 1, 2):
        raise DeckhandOptionsError(name("verbose"), "must be 0, 1 or 2")
    if merged.logger is not None and not callable(merged.logger):
        raise DeckhandOptionsError(name("logger"), "must be a callable receiving log lines")
    settle = cast(object, merged.dom_settle_timeout_ms)
    if isinstance(settle, bool) or not isinstance(settle, (int, float)) or settle < 0:
        raise DeckhandOptionsError(name("dom_settle_timeout_ms"), "must be a number of milliseconds, 0 or more")
    model_name = cast(object, merged.model_name)
    if not isinstance(model_name, str) or not model_name:
        raise DeckhandOptionsError(name("model_name"), "must be a non-empty model name, e.g. 'gpt-4o' or 'builtin/offline'")
    model = cast(object, merged.model_client_options)
    if model is not None and not isinstance(model, Mapping):
        raise DeckhandOptionsError(name("model_client_options"), "must be a dict")
    base_url = model_base_url(merged)
    if base_url is not None:
        _http_url(base_url, f"{name('model_client_options')}.baseURL")

    # No key is fine: a server with no keys configured (the default, on loopback) needs none, and one that has them answers 401.
    api_key = merged.api_key or environ.get("DECKHAND_API_KEY") or environ.get("BROWSERBASE_API_KEY") or None
    _header_safe(api_key, name("api_key"))
    model_options = merged.model_client_options or {}
    _header_safe(merged.model_api_key, name("model_api_key"))
    _header_safe(model_options.get("apiKey") or model_options.get("api_key"), f"{name('model_client_options')}.apiKey")
    if merged.env == "LOCAL":
        api_url = None
    elif merged.api_url is not None:
        api_url = _api_root(merged.api_url, name("api_url"))
    elif environ.get("DECKHAND_API_URL"):
        api_url = _api_root(environ["DECKHAND_API_URL"], "DECKHAND_API_URL")
    elif environ.get("STAGEHAND_API_URL"):
        api_url = _api_root(environ["STAGEHAND_API_URL"], "STAGEHAND_API_URL")
    else:
        api_url = DEFAULT_API_URL
    project_id = merged.project_id or environ.get("DECKHAND_PROJECT_ID") or environ.get("BROWSERBASE_PROJECT_ID")
    return dataclasses.replace(merged, api_key=api_key, api_url=api_url, project_id=project_id)


def model_api_key(config: DeckhandConfig) -> str | None:
    """The model key: model_api_key, else model_client_options' apiKey (or api_key)."""
    model = config.model_client_options or {}
    return config.model_api_key or model.get("apiKey") or model.get("api_key")


def model_base_url(config: DeckhandConfig) -> str | None:
    model = config.model_client_options or {}
    return model.get("baseURL") or model.get("api_base")


def _http_url(url: object, option: str) -> urllib.parse.SplitResult:
    parsed = urllib.parse.urlsplit(url) if isinstance(url, str) else None
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise DeckhandOptionsError(option, "must be an http(s) URL")
    if parsed.username is not None or parsed.password is not None:
        # Error messages name the server's address; a password in it would be printed.
        raise DeckhandOptionsError(option, "must not carry credentials (give the key as api_key)")
    return parsed


def _api_root(url: str, option: str) -> str:
    """The server's origin and path prefix, without a trailing `/v1` (the endpoint paths carry it)."""
    parsed = _http_url(url, option)
    path = parsed.path.rstrip("/")
    if path.endswith("/v1"):
        path = path[: -len("/v1")]
    return urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, path, "", ""))
