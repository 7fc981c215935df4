"""The contract check itself: it must catch what drifts, or the live suite's use of it proves nothing."""
import unittest

from deckhand._gen_shapes import ENDPOINTS

from .contract import problems, schema


class ContractCheckTest(unittest.TestCase):
    def test_accepts_the_bodies_the_client_sends(self) -> None:
        body = {"input": "click Go", "options": {"variables": {"pw": {"value": "x", "description": "d"}}, "timeout": 5000}}
        self.assertEqual(problems(body, schema("ActRequest"), strict=True), [])

    def test_flags_a_field_the_contract_does_not_name(self) -> None:
        self.assertEqual(problems({"input": "x", "frame_id": "f"}, schema("ActRequest"), "request", strict=True), ["request: 'frame_id' is not in the contract"])

    def test_flags_a_missing_required_field_and_a_wrong_type(self) -> None:
        self.assertIn("$: missing required 'executeOptions'", problems({"agentConfig": {}}, schema("AgentExecuteRequest")))
        self.assertEqual(problems({"url": 3}, schema("NavigateRequest")), ["$.url: int where the contract has string"])

    def test_follows_refs_unions_and_enums(self) -> None:
        self.assertEqual(problems({"code": "nope", "success": False, "message": "m"}, schema("ErrorResponse"))[0][:12], "$.code: 'nop")
        self.assertEqual(problems({"modelName": "a", "browser": {"type": "local", "launchOptions": {"headless": True}}}, schema("SessionStartRequest"), strict=True), [])
        self.assertNotEqual(problems({"modelName": "a", "browser": {"type": "local"}}, schema("SessionStartRequest")), [])

    def test_the_endpoints_the_client_calls_are_in_the_contract(self) -> None:
        for operation in ("startSession", "navigate", "act", "observe", "extract", "agentExecute", "endSession", "getBrowserSession"):
            self.assertIn(operation, ENDPOINTS)
        self.assertEqual(ENDPOINTS["act"].path, "/v1/sessions/{id}/act")
        self.assertTrue(ENDPOINTS["agentExecute"].streams)
