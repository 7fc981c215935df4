"""Secrets masked wherever they sit in a value (including where JSON text would escape them), and by the
log sink whatever a line carries."""
import io
import unittest

from deckhand._gen_shapes import LogLine
from deckhand.log import LogSink
from deckhand.masking import MASK, Secrets


class MaskingTest(unittest.TestCase):
    def test_masks_strings_keys_and_nested_values_longest_first(self) -> None:
        secrets = Secrets()
        secrets.add("pä\"ss")
        secrets.add("pä\"ss-longer")
        secrets.add_variables({"a": {"value": "v4lue", "description": "d"}, "b": "plain-secret", "n": 12})
        value = {"x": ["pä\"ss-longer", {"pä\"ss": "v4lue plain-secret"}], "n": 12}
        self.assertEqual(secrets.mask_value(value), {"x": [MASK, {MASK: f"{MASK} {MASK}"}], "n": 12})
        self.assertEqual(secrets.mask("12"), "12")

    def test_a_short_key_or_variable_is_masked_only_where_it_stands_alone(self) -> None:
        secrets = Secrets()
        secrets.add("x")
        secrets.add("sk-1234")
        secrets.add("sk-long-key")
        secrets.add_variables({"v": "at", "w": "pass"})
        self.assertEqual(secrets.mask("vertex prefixed x (x) cats at"), f"vertex prefixed {MASK} ({MASK}) cats {MASK}")
        self.assertEqual(secrets.mask("key=sk-1234 sk-12345 zsk-long-keyz password"), f"key={MASK} sk-12345 z{MASK}z {MASK}word")

    def test_the_log_sink_masks_each_line_and_drops_lines_above_verbose(self) -> None:
        secrets = Secrets()
        secrets.add("sk-secret")
        seen: list[LogLine] = []
        sink = LogSink(1, seen.append, secrets, rich=True)
        sink({"message": "key sk-secret", "level": 1, "auxiliary": {"sk-secret": {"value": "sk-secret", "type": "string"}}})
        sink({"message": "debug sk-secret", "level": 2})
        self.assertEqual(seen, [{"message": f"key {MASK}", "level": 1, "auxiliary": {MASK: {"value": MASK, "type": "string"}}}])
        for rich in (True, False):
            stream = io.StringIO()
            LogSink(0, None, secrets, rich, stream)({"category": "act", "message": "failed sk-secret", "level": 0})
            self.assertEqual(stream.getvalue(), f"[deckhand] ERROR act: failed {MASK}\n")
