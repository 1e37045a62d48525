"""Server tools and citations: typed, exact per provider, mapped where a counterpart exists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from messages import AssistantMessage
from messages import Citation
from messages import RawBlock
from messages import ServerToolResultBlock
from messages import ServerToolResultMessage
from messages import ServerToolUseBlock
from messages import TextBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages import from_dict
from messages import strategies as ms
from messages import to_dict
from messages.convert import block_to_message
from messages.convert import dump_blocks
from messages.convert import message_to_block
from messages.convert import parse_blocks
from messages.policy import describe
from messages.providers import get
from messages.text import transcript

FIXTURES = Path(__file__).parent / "fixtures"


def _body(provider: str, name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / provider / name).read_text())  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------ the values


@given(ms.blocks(kinds=["server_tool_use", "server_tool_result"]))
def test_server_blocks_round_trip_the_native_format_and_the_flat_view(block: Any) -> None:
    assert from_dict(to_dict(block)) == block
    assert message_to_block(block_to_message(block)) == block
    assert hash(block) == hash(from_dict(to_dict(block)))


@given(ms.citations())
def test_citations_round_trip_the_native_format(citation: Citation) -> None:
    block = TextBlock("x", citations=(citation,))
    assert from_dict(to_dict(block)) == block


def test_is_error_reads_each_providers_way_of_saying_it() -> None:
    anthropic = {"type": "web_search_tool_result_error", "error_code": "unavailable"}
    assert ServerToolResultBlock("s", "web_search", anthropic).is_error
    assert ServerToolResultBlock("s", "web_search", []).is_error is False
    gemini = {"outcome": "OUTCOME_DEADLINE_EXCEEDED"}
    assert ServerToolResultBlock("g", "code_execution", gemini).is_error
    assert not ServerToolResultBlock("g", "code_execution", {"outcome": "OUTCOME_OK"}).is_error
    assert ServerToolResultBlock("ws", "web_search", {"status": "failed"}).is_error
    assert ServerToolResultMessage("m", "mcp", {"error": "boom"}).is_error


def test_describe_and_transcripts_say_what_ran() -> None:
    call = ServerToolUseBlock("srvtoolu_1", "code_execution", {"code": "print(2)"})
    result = ServerToolResultBlock("srvtoolu_1", "code_execution", {"stdout": "2\n"})
    assert describe(call) == '[server tool call code_execution (srvtoolu_1): {"code": "print(2)"}]'
    assert describe(result) == "[server tool result code_execution: 2\n]"
    text = transcript([AssistantMessage((call, result))])
    assert (
        "[Server tool: code_execution]" in text and "[Server tool result: code_execution] 2" in text
    )
    xml = transcript([AssistantMessage((call, result))], format="xml")
    assert '<server_tool_result tool_use_id="srvtoolu_1" tool="code_execution">' in xml


# ------------------------------------------------------------------ Anthropic-shaped blocks


def test_anthropic_blocks_decode_typed_and_encode_back_exactly() -> None:
    content = _body("anthropic", "response_server_tools.json")["content"]
    blocks = parse_blocks(content, provider="anthropic")
    kinds = [b.kind for b in blocks]
    assert kinds == [
        "server_tool_use",
        "server_tool_result",
        "text",
        "server_tool_use",
        "server_tool_result",
        "server_tool_use",
        "server_tool_result",
        "text",
    ]
    search, found, said, _, ran, _, failed, _ = blocks
    assert isinstance(search, ServerToolUseBlock) and search.input == {
        "query": "tide times Brest today"
    }
    assert isinstance(found, ServerToolResultBlock) and found.tool == "web_search"
    assert isinstance(found.content, tuple) and len(found.content) == 2
    assert isinstance(ran, ServerToolResultBlock) and ran.tool == "code_execution"
    assert isinstance(failed, ServerToolResultBlock) and failed.is_error
    assert isinstance(said, TextBlock) and said.citations is not None
    (cited,) = said.citations
    assert cited == Citation(
        "web_search_result_location",
        cited_text="High water 14:05, 6.9 m",
        url="https://tides.example/brest",
        title="Brest tides",
        extra={"encrypted_index": "Eo8BCioIAhgBIiQ"},
    )
    assert dump_blocks(blocks) == content


def test_every_anthropic_citation_type_reads_typed_and_writes_back() -> None:
    document = {"document_index": 0, "document_title": "Guide", "cited_text": "Tides turn."}
    wire = [
        {"type": "char_location", **document, "start_char_index": 4, "end_char_index": 15},
        {"type": "page_location", **document, "start_page_number": 2, "end_page_number": 3},
        {
            "type": "content_block_location",
            **document,
            "start_block_index": 1,
            "end_block_index": 2,
        },
        {
            "type": "search_result_location",
            "cited_text": "Tides turn.",
            "search_result_index": 1,
            "source": "https://a.example",
            "title": None,
            "start_block_index": 0,
            "end_block_index": 1,
        },
    ]
    (block,) = parse_blocks([{"type": "text", "text": "It turns.", "citations": wire}])
    assert isinstance(block, TextBlock) and block.citations is not None
    char, page, part, search = block.citations
    assert (char.start, char.end, char.source_index, char.title) == (4, 15, 0, "Guide")
    assert (page.start, page.end) == (2, 3) and (part.start, part.end) == (1, 2)
    assert search.source_index == 1 and search.title is None
    assert search.extra == {"source": "https://a.example", "title": None}
    assert dump_blocks((block,)) == [{"type": "text", "text": "It turns.", "citations": wire}]


def test_odd_server_blocks_stay_raw_and_exact() -> None:
    odd = [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": "q"},
        {"type": "web_fetch_tool_result", "content": {}},
        {"type": "mcp_tool_result", "tool_use_id": "m", "content": "beta, not a server tool"},
    ]
    blocks = parse_blocks(odd)
    assert [b.kind for b in blocks] == ["raw", "raw", "raw"]
    assert dump_blocks(blocks) == odd


# -------------------------------------------------------------------- providers, mapped


def test_gemini_code_execution_becomes_anthropics_code_execution_tool() -> None:
    conversation = get("gemini").decode_request(_body("gemini", "request_code_execution.json"))
    body = get("anthropic").encode_request(conversation[:2])
    call, result, text = body["messages"][1]["content"]
    assert call == {
        "type": "server_tool_use",
        "id": "srvtoolu_gemini_call_code_0",
        "name": "code_execution",
        "input": {"code": "print(sum(range(1, 101)))"},
    }
    assert result == {
        "type": "code_execution_tool_result",
        "tool_use_id": "srvtoolu_gemini_call_code_0",
        "content": {
            "type": "code_execution_result",
            "stdout": "5050\n",
            "stderr": "",
            "return_code": 0,
            "content": [],
        },
    }
    assert text == {"type": "text", "text": "The sum is 5050."}


def test_anthropic_code_execution_becomes_gemini_parts_and_search_follows_the_policy() -> None:
    conversation = get("anthropic").decode_request(_body("anthropic", "request_server_tools.json"))
    with pytest.raises(UnsupportedContentError, match="web_search"):
        get("gemini").encode_request(conversation)
    body = get("gemini").encode_request(conversation, unsupported="drop")
    parts = body["contents"][1]["parts"]
    assert {"executableCode": {"language": "PYTHON", "code": "print(6.9 - 1.2)"}} in parts
    assert {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "5.7\n"}} in parts
    assert not any("server tool" in json.dumps(p) for p in parts)
    described = get("gemini").encode_request(conversation, unsupported="text")["contents"][1]
    assert described["parts"][0]["text"].startswith("[server tool call web_search")


def test_a_failed_gemini_run_becomes_a_nonzero_return_code() -> None:
    failed = ServerToolResultBlock(
        "g1", "code_execution", {"outcome": "OUTCOME_FAILED", "output": "boom\n"}, provider="google"
    )
    body = get("anthropic").encode_request(
        [UserMessage("run it"), AssistantMessage((failed,))], unsupported="raise"
    )
    (block,) = body["messages"][1]["content"]
    assert block["content"]["return_code"] == 1 and block["content"]["stderr"] == "boom\n"


def test_responses_items_split_into_call_and_result_and_merge_back() -> None:
    body = _body("openai_responses", "response_server_tools.json")
    message = get("openai_responses").decode_response(body)
    assert isinstance(message.content, tuple)
    kinds = [(b.kind, getattr(b, "name", getattr(b, "tool", None))) for b in message.content[:6]]
    assert kinds == [
        ("server_tool_use", "web_search"),
        ("server_tool_result", "web_search"),
        ("server_tool_use", "file_search"),
        ("server_tool_result", "file_search"),
        ("server_tool_use", "code_interpreter"),
        ("server_tool_result", "code_interpreter"),
    ]
    code = message.content[4]
    assert isinstance(code, ServerToolUseBlock)
    assert code.input == {"container_id": "cntr_1", "code": "print(6.9 - 1.2)"}
    assert get("openai_responses").encode_response(message) == body
    text = message.content[6]
    assert isinstance(text, TextBlock) and text.citations is not None
    assert [c.type for c in text.citations] == ["url_citation", "file_citation"]
    assert (text.citations[1].title, text.citations[1].text_start) == ("rules.pdf", 45)


def test_other_providers_server_tools_are_not_sent_to_responses() -> None:
    anthropic = get("anthropic").decode_request(_body("anthropic", "request_server_tools.json"))
    with pytest.raises(UnsupportedContentError, match="server tool"):
        get("openai_responses").encode_request(anthropic)
    with pytest.raises(UnsupportedContentError, match="server_tool_use"):
        get("openai_chat").encode_request(anthropic)


# ---------------------------------------------------------------------------------- the CLI


def test_stats_count_server_tool_calls_and_their_failures() -> None:
    from messages.cli.stats import FileStats
    from messages.cli.stats import sessions

    error = {"type": "web_search_tool_result_error", "error_code": "unavailable"}
    turn = AssistantMessage(
        (
            ServerToolUseBlock("srvtoolu_1", "web_search", {"query": "q"}),
            ServerToolResultBlock("srvtoolu_1", "web_search", error),
            TextBlock("No results."),
        ),
        session_id="s1",
        message_id="msg_1",
    )
    stats = FileStats("x.jsonl", "native")
    stats.feed(turn)
    (session,) = sessions([stats])
    assert session.tool_calls == {"web_search": 1}
    assert session.tool_errors == 1 and session.assistant_turns == 1


def test_normalize_text_shows_the_server_tool_and_its_output() -> None:
    from messages.cli.render import one_line

    result = ServerToolResultMessage("srvtoolu_1", "code_execution", {"stdout": "2\n"})
    assert one_line(result) == "[server_tool_result/assistant] code_execution srvtoolu_1: 2\\n"


def test_gemini_citations_are_a_typed_view_of_the_candidate_metadata() -> None:
    from messages.providers import gemini

    body = _body("gemini", "response_code_execution.json")
    message = gemini.decode_response(body)
    source, grounded = gemini.citations(message)
    assert source == Citation(
        "citation_source",
        url="https://en.wikipedia.org/wiki/Carl_Friedrich_Gauss",
        text_start=15,
        text_end=33,
        extra={"license": ""},
    )
    assert (grounded.type, grounded.title, grounded.source_index) == (
        "grounding_chunk",
        "wikipedia.org",
        0,
    )
    assert (grounded.text_start, grounded.text_end) == (0, 15)
    assert gemini.encode_response(message) == body  # the metadata itself stays in extra
    assert gemini.citations(UserMessage("no candidates")) == ()


def test_gemini_tool_call_parts_are_server_tools_echoed_back_exactly() -> None:
    body = _body("gemini", "request_code_execution.json")
    conversation = get("gemini").decode_request(body)
    call, answer, _ = conversation[3].content
    assert call == ServerToolUseBlock(
        "tc_1",
        "GOOGLE_SEARCH_WEB",
        {"args": {"queries": ["gauss sum story"]}},
        provider="google",
        extra={"thoughtSignature": "CsoBAVSoXO7-tool"},
    )
    assert isinstance(answer, ServerToolResultBlock) and answer.tool == "GOOGLE_SEARCH_WEB"
    assert get("gemini").encode_request(conversation)["contents"] == body["contents"]
    with pytest.raises(UnsupportedContentError, match="GOOGLE_SEARCH_WEB"):
        get("anthropic").encode_request(conversation)


@given(ms.citations())
def test_a_citation_comes_back_from_its_wire_object(citation: Citation) -> None:
    from dataclasses import fields

    from messages._shapes.citations import read_citation
    from messages._shapes.citations import write_citation

    wire = write_citation(citation)
    back = read_citation(json.loads(json.dumps(wire)))  # fast path: built by a maker
    assert back == citation and hash(back) == hash(citation)
    rebuilt = Citation(**{f.name: getattr(back, f.name) for f in fields(Citation)})
    assert rebuilt == back  # the public constructor builds the same value
    assert write_citation(back) == wire


def test_langchain_carries_server_tools_as_its_standard_blocks() -> None:
    pytest.importorskip("langchain_core")
    from messages.interop import langchain

    error = {"type": "web_search_tool_result_error", "error_code": "unavailable"}
    turn = AssistantMessage(
        (
            ServerToolUseBlock("srvtoolu_1", "web_search", {"query": "q"}, provider="anthropic"),
            ServerToolResultBlock("srvtoolu_1", "web_search", error, provider="anthropic"),
            TextBlock("Nothing found.", citations=(Citation("url_citation", url="https://a"),)),
        )
    )
    (ai,) = langchain.from_messages([turn])
    call, result, text = ai.content
    assert call["type"] == "server_tool_call" and call["args"] == {"query": "q"}
    assert (result["type"], result["status"]) == ("server_tool_result", "error")
    assert result["extras"] == {"tool": "web_search", "provider": "anthropic"}
    assert text["annotations"][0]["type"] == "non_standard_annotation"
    assert langchain.to_messages([ai]) == [turn]


def test_responses_mcp_list_tools_items_are_typed_and_go_back_exactly() -> None:
    # Issue 27: the MCP server's tool list is the server's own call and its result.
    from messages import ServerToolResultBlock as Result
    from messages import ServerToolUseBlock as Use
    from messages import UnsupportedContentError
    from messages.providers import get

    item = {
        "type": "mcp_list_tools",
        "id": "mcpl_1",
        "server_label": "deepwiki",
        "tools": [{"name": "ask_question", "input_schema": {"type": "object"}}],
        "error": None,
    }
    body = {"input": [{"role": "user", "content": "Tools?"}, item]}
    responses = get("openai_responses")
    turn = responses.decode_request(body)[1]
    call, result = turn.blocks
    assert isinstance(call, Use) and (call.name, call.input) == (
        "mcp_list_tools",
        {"server_label": "deepwiki"},
    )
    assert isinstance(result, Result) and result.content["tools"][0]["name"] == "ask_question"
    assert responses.encode_request(responses.decode_request(body)) == body
    asked = UserMessage("Tools?")  # Converse takes a user message first
    for target in ("anthropic", "openai_chat", "gemini", "bedrock"):
        with pytest.raises(UnsupportedContentError, match="cannot carry"):
            get(target).encode_request([asked, turn])
        assert "deepwiki" not in str(get(target).encode_request([asked, turn], unsupported="drop"))


_COMPACTED = [
    {"role": "user", "content": "Go on."},
    {"type": "compaction", "id": "cmp_1", "encrypted_content": "opaque-1"},
    {"type": "compaction", "encrypted_content": "opaque-2"},  # the input form: no id
    {"role": "user", "content": "Next."},
]


def test_responses_compaction_items_are_the_servers_compaction_result() -> None:
    # Issue 27: a compaction item is typed (a result with no call), written back exactly.

    responses = get("openai_responses")
    body = {"input": _COMPACTED}
    user, turn, _ = responses.decode_request(body)
    assert user == UserMessage("Go on.")
    assert turn.blocks == (
        ServerToolResultBlock(
            "cmp_1", "compaction", {"encrypted_content": "opaque-1"}, provider="openai"
        ),
        ServerToolResultBlock(
            "", "compaction", {"encrypted_content": "opaque-2"}, provider="openai"
        ),
    )
    assert responses.encode_request(responses.decode_request(body)) == body
    response = {
        "id": "resp_1",
        "object": "response.compaction",
        "created_at": 1,
        "output": [
            {"type": "compaction", "id": "cmp_2", "encrypted_content": "E", "created_by": "u"}
        ],
    }
    message = responses.decode_response(response)
    (block,) = message.blocks
    assert isinstance(block, ServerToolResultBlock) and block.content["created_by"] == "u"
    assert responses.encode_response(message) == response


@pytest.mark.parametrize(
    "item",
    [
        {"type": "compaction", "id": "", "encrypted_content": "x"},
        {"type": "compaction", "id": None, "encrypted_content": "x"},
        {"type": "compaction", "id": 5, "encrypted_content": "x"},
    ],
)
def test_responses_compaction_items_with_odd_ids_are_kept_whole(item: dict[str, Any]) -> None:

    responses = get("openai_responses")
    body = {"input": [item]}
    (turn,) = responses.decode_request(body)
    assert turn.blocks == (RawBlock(item),)
    assert responses.encode_request(responses.decode_request(body)) == body


@pytest.mark.parametrize("target", ["anthropic", "openai_chat", "gemini", "bedrock"])
def test_other_providers_refuse_a_compaction_item_under_the_policy(target: str) -> None:
    # Before it was typed, an id-less item was taken for Anthropic's own compaction block.

    conversation = get("openai_responses").decode_request({"input": _COMPACTED})
    with pytest.raises(UnsupportedContentError, match="cannot carry"):
        get(target).encode_request(conversation)
    dropped = get(target).encode_request(conversation, unsupported="drop")
    assert "opaque" not in str(dropped) and "Next." in str(dropped)
    described = get(target).encode_request(conversation, unsupported="text")
    assert "opaque" not in str(described)


def test_a_compaction_call_block_is_refused() -> None:
    # Compaction has no call: a call block named so is not written as a compaction item.

    call = ServerToolUseBlock("cmp_1", "compaction", {"encrypted_content": "x"}, provider="openai")
    with pytest.raises(UnsupportedContentError, match="cannot carry"):
        get("openai_responses").encode_request([AssistantMessage((call,))])


def test_the_responses_stream_reassembles_a_compaction_item() -> None:

    item = {"type": "compaction", "id": "cmp_9", "encrypted_content": "E9"}
    done = {"id": "resp_9", "object": "response", "status": "completed", "output": [item]}
    accumulator = get("openai_responses").accumulator()
    for event in [
        {"type": "response.created", "response": {**done, "status": "in_progress", "output": []}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**item, "encrypted_content": ""},
        },
        {"type": "response.compaction.compacting", "item_id": "cmp_9", "output_index": 0},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": done},
    ]:
        accumulator.feed(event)
    (block,) = accumulator.message().blocks
    assert block == ServerToolResultBlock(
        "cmp_9", "compaction", {"encrypted_content": "E9"}, provider="openai"
    )
