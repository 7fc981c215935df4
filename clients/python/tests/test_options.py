"""Options at construction: the spec's Python defaults, both spellings, environment fallbacks, and a wrong
option refused with its name (no server needed)."""
import os
import unittest
from typing import Any
from unittest import mock

from deckhand import Deckhand, DeckhandConfig, DeckhandOptionsError

NO_ENV = {"DECKHAND_API_KEY": "", "BROWSERBASE_API_KEY": "", "DECKHAND_API_URL": "", "STAGEHAND_API_URL": "", "DECKHAND_PROJECT_ID": "", "BROWSERBASE_PROJECT_ID": ""}


def make(**options: Any) -> Deckhand:
    with mock.patch.dict(os.environ, NO_ENV):
        return Deckhand(**options)


class OptionsTest(unittest.TestCase):
    def test_the_python_defaults_of_the_spec(self) -> None:
        config = make(api_key="k").config
        self.assertEqual(config.env, "BROWSERBASE")
        self.assertEqual(config.model_name, "gpt-4o")
        self.assertIsNone(config.model_api_key)
        self.assertIs(config.enable_caching, False)
        self.assertEqual(config.dom_settle_timeout_ms, 3000)
        self.assertIs(config.self_heal, True)
        self.assertIs(config.use_rich_logging, True)
        self.assertEqual(config.verbose, 1)
        self.assertIs(config.use_api, True)
        self.assertIs(config.experimental, False)
        self.assertIs(config.wait_for_captcha_solves, False)
        self.assertIs(config.streaming, True)
        self.assertEqual(config.api_url, "http://127.0.0.1:3000")

    def test_snake_case_and_the_specs_camel_case_spellings_set_the_same_field(self) -> None:
        camel = make(apiKey="k", modelName="builtin/offline", domSettleTimeoutMs=10, enableCaching=True, selfHeal=False, useRichLogging=False, modelApiKey="m", browserbaseSessionID="s")
        snake = make(api_key="k", model_name="builtin/offline", dom_settle_timeout_ms=10, enable_caching=True, self_heal=False, use_rich_logging=False, model_api_key="m", browserbase_session_id="s")
        self.assertEqual(camel.config, snake.config)
        self.assertEqual(camel.config.model_api_key, "m")

    def test_a_config_object_with_keyword_overrides(self) -> None:
        with mock.patch.dict(os.environ, NO_ENV):
            client = Deckhand(DeckhandConfig(api_key="k", model_name="builtin/offline", verbose=0), verbose=2)
        self.assertEqual((client.config.model_name, client.config.verbose), ("builtin/offline", 2))

    def test_wrong_options_are_refused_naming_the_option_as_given(self) -> None:
        cases: list[tuple[dict[str, Any], str]] = [
            ({"api_key": "…"}, "api_key"),
            ({"apiKey": "ключ"}, "apiKey"),
            ({"model_api_key": "sk-…"}, "model_api_key"),
            ({"model_client_options": {"apiKey": "sk-…"}}, "model_client_options.apiKey"),
            ({"api_key": "k", "env": "CLOUD"}, "env"),
            ({"env": "LOCAL", "api_url": "http://127.0.0.1:3000"}, "api_url"),
            ({"api_key": "k", "useAPI": False}, "useAPI"),
            ({"api_key": "k", "verbose": 3}, "verbose"),
            ({"api_key": "k", "verbose": True}, "verbose"),
            ({"api_key": "k", "logger": "stderr"}, "logger"),
            ({"api_key": "k", "domSettleTimeoutMs": -1}, "domSettleTimeoutMs"),
            ({"api_key": "k", "api_url": "not a url"}, "api_url"),
            ({"api_key": "k", "api_url": "ftp://host"}, "api_url"),
            ({"api_key": "k", "api_url": "http://user:pw@host"}, "api_url"),
            ({"api_key": "k", "model_client_options": {"api_base": "ftp://x"}}, "model_client_options.baseURL"),
            ({"api_key": "k", "modelName": ""}, "modelName"),
            ({"api_key": "k", "apiKey": "k"}, "apiKey"),
            ({"api_key": "k", "llmClient": object()}, "llmClient"),
            ({"api_key": "k", "disablePino": True}, "disablePino"),
            ({"api_key": "k", "model": "gpt-4o"}, "model"),
        ]
        for options, option in cases:
            with self.subTest(options=options):
                with self.assertRaises(DeckhandOptionsError) as caught:
                    make(**options)
                self.assertEqual(caught.exception.option, option)
                self.assertTrue(str(caught.exception).startswith(f"{option}: "), str(caught.exception))

    def test_the_server_and_key_from_the_environment_a_stagehand_url_ending_in_v1_included(self) -> None:
        with mock.patch.dict(os.environ, {**NO_ENV, "STAGEHAND_API_URL": "http://127.0.0.1:9/v1/", "DECKHAND_API_KEY": "env-key", "BROWSERBASE_PROJECT_ID": "p"}):
            config = Deckhand().config
        self.assertEqual((config.api_url, config.api_key, config.project_id), ("http://127.0.0.1:9", "env-key", "p"))
        with mock.patch.dict(os.environ, {**NO_ENV, "STAGEHAND_API_URL": "http://a:1", "DECKHAND_API_URL": "https://b:2/prefix", "BROWSERBASE_API_KEY": "bb"}):
            config = Deckhand().config
        self.assertEqual((config.api_url, config.api_key), ("https://b:2/prefix", "bb"))
        with mock.patch.dict(os.environ, {**NO_ENV, "DECKHAND_API_URL": "https://b:2"}):
            self.assertEqual(Deckhand(api_key="k", api_url="http://c:3/v1").config.api_url, "http://c:3")

    def test_no_key_is_needed_a_keyless_server_takes_the_call(self) -> None:
        config = make(model_name="builtin/offline").config
        self.assertIsNone(config.api_key)
        self.assertEqual(make(env="LOCAL").config.api_url, None)

    def test_an_unknown_option_names_the_one_it_likely_meant(self) -> None:
        cases = {"apiUrl": "api_url", "api_Key": "api_key", "model_nam": "model_name", "domSettleTimeout": "domSettleTimeoutMs", "baseURL": None}
        for spelling, meant in cases.items():
            with self.subTest(spelling=spelling):
                with self.assertRaises(DeckhandOptionsError) as caught:
                    make(**{spelling: "x"})
                expected = f"{spelling}: unknown option; did you mean {meant}?" if meant else f"{spelling}: unknown option (options: "
                self.assertTrue(str(caught.exception).startswith(expected), str(caught.exception))

    def test_no_key_in_the_config_repr(self) -> None:
        client = make(api_key="sk-server-key", model_api_key="sk-model-key", model_client_options={"apiKey": "sk-other-key"})
        self.assertNotRegex(repr(client.config), "sk-")
