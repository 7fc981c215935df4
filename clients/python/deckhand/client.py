"""The client people use: `Deckhand(...)`, `init()`, then act / observe / extract / goto /
agent(...).execute(...), `close()`, every call through a Deckhand server's HTTP API, streamed by default."""
from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal, TypeVar, Unpack, cast

from . import __version__
from ._gen_shapes import (
    Action,
    ActOptions,
    ActRequest,
    ActResult,
    AgentConfig,
    AgentExecuteOptions,
    AgentExecuteRequest,
    AgentResultDataOutput,
    BrowserSession,
    Cookie,
    CookieParam,
    CookiesResponse,
    EncodedFileResponse,
    ExtractOptions,
    ExtractRequest,
    FileInfo,
    FileListResponse,
    GenericModelConfig,
    LogLine,
    ModelConfigOrName,
    NavigateOptions,
    NavigateRequest,
    NavigateResult,
    ObserveOptions,
    ObserveRequest,
    SessionListResponse,
    PdfRequest,
    ScreenshotRequest,
    SessionStartRequest,
    SessionStartResponse,
    StorageState,
    StorageStateResponse,
    Variables,
)
from .errors import DeckhandError
from .local_server import LocalServer
from .log import LogSink
from .masking import Secrets
from .options import DeckhandConfig, DeckhandOptions, model_api_key, model_base_url, resolve_config
from .transport import Transport

T = TypeVar("T")
O = TypeVar("O", ActOptions, ObserveOptions, ExtractOptions)


@dataclass(frozen=True)
class InitResult:
    session_id: str
    session_url: str
    """A page a person opens to watch the session live."""
    debug_url: str
    """The session's token-checked DevTools (CDP) websocket."""

    # The spec's spellings of the same fields.
    @property
    def sessionId(self) -> str:
        return self.session_id

    @property
    def sessionUrl(self) -> str:
        return self.session_url

    @property
    def debugUrl(self) -> str:
        return self.debug_url


@dataclass(frozen=True)
class _Started:
    session_id: str
    session_url: str
    debug_url: str
    cdp_url: str


class Deckhand:
    """A Deckhand session driven through the HTTP API: of the server at api_url, or (env 'LOCAL') of one init() starts here.

    `Deckhand(api_key=..., model_name="builtin/offline")`, or `Deckhand(DeckhandConfig(...))`; keyword options
    override the config's fields and also take the spec's camelCase spellings (`apiKey`, `modelName`, ...).
    """

    def __init__(self, config: DeckhandConfig | None = None, /, **options: Unpack[DeckhandOptions]) -> None:
        self.config = resolve_config(config, options, os.environ)
        self._secrets = Secrets()
        self._secrets.add(self.config.api_key)
        self._model_api_key = model_api_key(self.config)
        self._secrets.add(self._model_api_key)
        self._log = LogSink(self.config.verbose, self.config.logger, self._secrets, self.config.use_rich_logging)
        headers = {"x-language": "python", "x-sdk-version": __version__}
        if self.config.api_key:
            headers["x-bb-api-key"] = self.config.api_key
        if self.config.project_id:
            headers["x-bb-project-id"] = self.config.project_id
        if self._model_api_key:
            headers["x-model-api-key"] = self._model_api_key
        self._transport = Transport(self.config.api_url, headers, self._secrets, self.config.request_timeout_s)
        self._local_server: LocalServer | None = None
        """env 'LOCAL': the server init() started, stopped by close()."""
        self._started: _Started | None = None
        self._closed = False

    def init(self) -> InitResult:
        """Starts the session (or, with browserbase_session_id, resumes it)."""
        if self._started is not None:
            raise DeckhandError("init() was already called on this client")
        if self.config.env == "LOCAL":
            self._local_server = self._guard("init", lambda: LocalServer(os.environ))
            self._transport.point_at(self._local_server.url)
            self._log({"category": "init", "message": f"local Deckhand server at {self._local_server.url}", "level": 1})
        try:
            self._started = self._guard("init", self._start)
        except DeckhandError:
            self._stop_local_server()
            raise
        self._log({"category": "init", "message": f"session {self._started.session_id} ready", "level": 1})
        return InitResult(self._started.session_id, self._started.session_url, self._started.debug_url)

    @property
    def session_id(self) -> str:
        return self._live().session_id

    @property
    def cdp_url(self) -> str:
        """Browser-level DevTools websocket, for Playwright's `chromium.connect_over_cdp(cdp_url)`."""
        return self._live().cdp_url

    def goto(self, url: str, options: NavigateOptions | None = None, *, frame_id: str | None = None) -> NavigateResult | None:
        body: NavigateRequest = {"url": url}
        if options is not None:
            body["options"] = options
        if frame_id is not None:
            body["frameId"] = frame_id
        return cast("NavigateResult | None", self._run("navigate", body)["result"])

    def navigate(self, url: str, options: NavigateOptions | None = None, *, frame_id: str | None = None) -> NavigateResult | None:
        """Same as goto."""
        return self.goto(url, options, frame_id=frame_id)

    def act(
        self,
        input: str | Action,
        *,
        variables: Variables | None = None,
        timeout: float | None = None,
        model: ModelConfigOrName | None = None,
        frame_id: str | None = None,
    ) -> ActResult:
        """One action, from an instruction (`%name%` refers to a variable) or an Action dict."""
        self._secrets.add_variables(variables)
        options: ActOptions = {}
        if variables is not None:
            options["variables"] = variables
        if timeout is not None:
            options["timeout"] = timeout
        body: ActRequest = {"input": input, "options": self._with_model(options, model)}
        if frame_id is not None:
            body["frameId"] = frame_id
        return cast(ActResult, self._run("act", body)["result"])

    def observe(
        self,
        instruction: str | None = None,
        *,
        selector: str | None = None,
        variables: Variables | None = None,
        timeout: float | None = None,
        model: ModelConfigOrName | None = None,
        frame_id: str | None = None,
    ) -> list[Action]:
        """The actions an instruction names (all notable ones without it), each an Action you can act on."""
        self._secrets.add_variables(variables)
        options: ObserveOptions = {}
        if selector is not None:
            options["selector"] = selector
        if variables is not None:
            options["variables"] = variables
        if timeout is not None:
            options["timeout"] = timeout
        body: ObserveRequest = {"options": self._with_model(options, model)}
        if instruction is not None:
            body["instruction"] = instruction
        if frame_id is not None:
            body["frameId"] = frame_id
        return cast("list[Action]", self._run("observe", body)["result"])

    def extract(
        self,
        instruction: str | None = None,
        schema: Mapping[str, Any] | None = None,
        *,
        selector: str | None = None,
        timeout: float | None = None,
        model: ModelConfigOrName | None = None,
        frame_id: str | None = None,
    ) -> Any:
        """With no arguments the page text (`{pageText}`); with an instruction `{extraction}`; with a JSON Schema, an object of that shape."""
        options: ExtractOptions = {}
        if selector is not None:
            options["selector"] = selector
        if timeout is not None:
            options["timeout"] = timeout
        body: ExtractRequest = {"options": self._with_model(options, model)}
        if instruction is not None:
            body["instruction"] = instruction
        if schema is not None:
            body["schema"] = dict(schema)
        if frame_id is not None:
            body["frameId"] = frame_id
        return self._run("extract", body)["result"]

    def screenshot(
        self,
        *,
        type: Literal["png", "jpeg"] = "png",
        quality: int | None = None,
        full_page: bool = False,
        selector: str | None = None,
        frame_id: str | None = None,
        timeout: float | None = None,
    ) -> bytes:
        """A PNG (or JPEG, `quality` 0-100) of the page's viewport, the whole page (`full_page`, cut at 16,384 px) or one element (`selector`)."""
        body: ScreenshotRequest = {"type": type, "fullPage": full_page}
        if quality is not None:
            body["quality"] = quality
        if selector is not None:
            body["selector"] = selector
        if frame_id is not None:
            body["frameId"] = frame_id
        if timeout is not None:
            body["timeout"] = timeout
        return self._file("screenshot", body)

    def pdf(
        self,
        *,
        format: Literal["Letter", "Legal", "Tabloid", "Ledger", "A0", "A1", "A2", "A3", "A4", "A5", "A6"] = "Letter",
        landscape: bool = False,
        print_background: bool = False,
        scale: float = 1,
        page_ranges: str | None = None,
        prefer_css_page_size: bool = False,
        timeout: float | None = None,
    ) -> bytes:
        """The page printed to PDF by the (headless) browser."""
        body: PdfRequest = {"format": format, "landscape": landscape, "printBackground": print_background, "scale": scale, "preferCSSPageSize": prefer_css_page_size}
        if page_ranges is not None:
            body["pageRanges"] = page_ranges
        if timeout is not None:
            body["timeout"] = timeout
        return self._file("pdf", body)

    def agent(self, config: AgentConfig | None = None) -> DeckhandAgent:
        """An agent with this configuration (wire names: `model`, `mode`, `systemPrompt`, `executionModel`, ...)."""
        return DeckhandAgent(self._agent_execute, config or {})

    # ---- files, cookies, storage state, sessions ----

    def downloads(self) -> list[FileInfo]:
        """The files the session's pages downloaded (they go with the session when it ends)."""
        return cast(FileListResponse, self._session_call("listDownloads"))["data"]["files"]

    def download(self, name: str) -> bytes:
        """One download's bytes."""
        session_id = self._live().session_id
        return self._guard("getDownload", lambda: self._transport.fetch("getDownload", session_id, name))

    def delete_download(self, name: str) -> None:
        self._session_call("deleteDownload", name=name)

    def upload(self, name: str, data: bytes) -> FileInfo:
        """Sends a file to the session, for act's `setInputFiles` Action or act("upload <name>")."""
        return cast(FileListResponse, self._session_call("uploadFile", query={"name": name}, raw=data))["data"]["files"][0]

    def files(self) -> list[FileInfo]:
        """The files sent to the session."""
        return cast(FileListResponse, self._session_call("listFiles"))["data"]["files"]

    def delete_file(self, name: str) -> None:
        self._session_call("deleteFile", name=name)

    def cookies(self) -> list[Cookie]:
        return cast(CookiesResponse, self._session_call("getCookies"))["data"]["cookies"]

    def set_cookies(self, cookies: list[CookieParam] | None = None, *, clear: bool = False) -> list[Cookie]:
        """Adds cookies (`clear=True` removes every cookie first); answers the cookies after."""
        body: dict[str, Any] = {"clear": clear, **({"cookies": cookies} if cookies is not None else {})}
        return cast(CookiesResponse, self._session_call("setCookies", body))["data"]["cookies"]

    def storage_state(self) -> StorageState:
        """Cookies and local storage, to start another session with (`storage_state=`) or to set later."""
        return cast(StorageStateResponse, self._session_call("getStorageState"))["data"]

    def set_storage_state(self, state: StorageState) -> StorageState:
        return cast(StorageStateResponse, self._session_call("setStorageState", state))["data"]

    def list_sessions(self, *, limit: int | None = None, cursor: str | None = None) -> SessionListResponse:
        """The project's sessions, newest first (`data.nextCursor` leads to the next page)."""
        self._live()
        query = {**({"limit": str(limit)} if limit is not None else {}), **({"cursor": cursor} if cursor else {})}
        return cast(SessionListResponse, self._guard("listSessions", lambda: self._transport.call("listSessions", None, query=query)))

    def close(self) -> None:
        """Ends the session (its browser closes), and in env 'LOCAL' the server init() started. A second close does nothing."""
        if self._started is None or self._closed:
            return
        self._closed = True
        session_id = self._started.session_id
        try:
            self._guard("close", lambda: self._transport.call("endSession", session_id, {}))
        finally:
            self._stop_local_server()

    def __enter__(self) -> Deckhand:
        if self._started is None:
            self.init()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()

    # ---- internals ----

    def _start(self) -> _Started:
        c = self.config
        if c.browserbase_session_id:
            found = cast(BrowserSession, self._transport.call("getBrowserSession", c.browserbase_session_id))
            return _Started(found["id"], found.get("sessionUrl", ""), found["connectUrl"], found["connectUrl"])
        body: SessionStartRequest = {
            "modelName": c.model_name,
            "domSettleTimeoutMs": c.dom_settle_timeout_ms,
            "verbose": c.verbose,
            "selfHeal": c.self_heal,
            "experimental": c.experimental,
            "waitForCaptchaSolves": c.wait_for_captcha_solves,
            "enableCaching": c.enable_caching,
        }
        if c.system_prompt is not None:
            body["systemPrompt"] = c.system_prompt
        if c.act_timeout_ms is not None:
            body["actTimeoutMs"] = c.act_timeout_ms
        if c.browserbase_session_create_params is not None:
            body["browserbaseSessionCreateParams"] = c.browserbase_session_create_params
        if c.storage_state is not None:
            body["storageState"] = c.storage_state
        if c.local_browser_launch_options is not None:
            body["browser"] = {"type": "local", "launchOptions": c.local_browser_launch_options}
        self._log({"category": "init", "message": f"start request: {json.dumps(self._secrets.mask_value(body), ensure_ascii=False)}", "level": 2})
        data = cast(SessionStartResponse, self._transport.call("startSession", None, body))["data"]
        return _Started(data["sessionId"], data["sessionUrl"], data["debugUrl"], data["cdpUrl"])

    def _stop_local_server(self) -> None:
        if self._local_server is not None:
            self._local_server.stop()
            self._local_server = None

    def _live(self) -> _Started:
        if self._started is None:
            raise DeckhandError("call init() first")
        if self._closed:
            raise DeckhandError("this client was closed")
        return self._started

    def _session_call(self, operation: str, body: Any = None, **request: Any) -> Any:
        session_id = self._live().session_id
        return self._guard(operation, lambda: self._transport.call(operation, session_id, body, **request))

    def _with_model(self, options: O, model: ModelConfigOrName | None) -> O:
        """Per-call model: the one given, else the session's model at model_client_options' endpoint (a baseURL is per call on the wire)."""
        base_url = model_base_url(self.config)
        if model is not None:
            options["model"] = model
        elif base_url is not None:
            session_model: GenericModelConfig = {"modelName": self.config.model_name, "baseURL": base_url}
            options["model"] = session_model
        return options

    def _run(self, operation: str, body: Any) -> dict[str, Any]:
        """Runs one session operation; answers its `data` (`{result, actionId, ...}`)."""
        session_id = self._live().session_id
        self._log({"category": operation, "message": f"{operation} request: {json.dumps(self._secrets.mask_value(body), ensure_ascii=False)}", "level": 2})
        started = time.monotonic()

        def run() -> dict[str, Any]:
            if self.config.streaming:
                return self._transport.stream(operation, session_id, body, self._on_log)
            return cast("dict[str, Any]", self._transport.call(operation, session_id, body)["data"])

        data = self._guard(operation, run)
        self._log({"category": operation, "message": f"{operation} answered in {round((time.monotonic() - started) * 1000)} ms", "level": 2})
        return data

    def _file(self, operation: str, body: ScreenshotRequest | PdfRequest) -> bytes:
        """A screenshot or PDF, asked as base64 JSON (the transport speaks JSON), answered as bytes."""
        session_id = self._live().session_id
        body["encoding"] = "base64"
        answer = self._guard(operation, lambda: cast(EncodedFileResponse, self._transport.call(operation, session_id, body)))
        return base64.b64decode(answer["data"]["base64"])

    def _agent_execute(self, config: AgentConfig, execute_options: AgentExecuteOptions, frame_id: str | None) -> AgentResultDataOutput:
        self._secrets.add_variables(execute_options.get("variables"))
        body: AgentExecuteRequest = {"agentConfig": config, "executeOptions": execute_options, "shouldCache": self.config.enable_caching}
        if frame_id is not None:
            body["frameId"] = frame_id
        return cast(AgentResultDataOutput, self._run("agentExecute", body)["result"])

    def _on_log(self, line: LogLine) -> None:
        self._log(line)

    def _guard(self, operation: str, run: Callable[[], T]) -> T:
        """Runs a call; a failure is logged at error level (masked) and raised as it came."""
        try:
            return run()
        except DeckhandError as error:
            self._log({"category": operation, "message": f"{operation} failed: {error}", "level": 0})
            raise


class DeckhandAgent:
    """`deckhand.agent(config)`: runs multi-step tasks on the session."""

    def __init__(self, execute: Callable[[AgentConfig, AgentExecuteOptions, str | None], AgentResultDataOutput], config: AgentConfig) -> None:
        self._execute = execute
        self.config = config

    def execute(self, options: str | AgentExecuteOptions, *, frame_id: str | None = None) -> AgentResultDataOutput:
        """Runs the agent toward an instruction (or full AgentExecuteOptions: maxSteps, variables, ...)."""
        execute_options: AgentExecuteOptions = {"instruction": options} if isinstance(options, str) else options
        return self._execute(self.config, execute_options, frame_id)
