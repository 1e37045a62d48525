"""messages.text: text of messages and streams, summaries, and transcripts in three styles."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import AudioBlock
from messages import AudioMessage
from messages import ErrorMessage
from messages import ImageBlock
from messages import InitMessage
from messages import InvalidLineMessage
from messages import RawBlock
from messages import RawMessage
from messages import ResultMessage
from messages import StreamEventMessage
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ThinkingMessage
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UserMessage
from messages import strategies as ms
from messages.convert import flatten_assistant
from messages.text import has_text
from messages.text import stream_text
from messages.text import summarize
from messages.text import text_of
from messages.text import transcript

PNG = ImageBlock.from_bytes(b"\x89PNG\r\n\x1a\n" + bytes(8))

CHAT = [
    SystemMessage("Be brief.", role="developer"),
    UserMessage((TextBlock("What is in a.txt?"), PNG)),
    AssistantMessage(
        (
            ThinkingBlock("Read it <first>.", signature="sig"),
            TextBlock("Reading."),
            ToolUseBlock("t1", "Read", {"path": "a.txt"}),
        )
    ),
    UserMessage((ToolResultBlock("t1", "hello\nworld"),)),
    AssistantMessage("It says `hello` & world."),
    ResultMessage(subtype="success", result="It says hello.", is_error=False),
]


# -- text_of, has_text, stream_text -------------------------------------------------------


def test_text_of_each_kind() -> None:
    assert text_of(CHAT[1]) == "What is in a.txt?"
    assert text_of(CHAT[2]) == "Reading."
    assert text_of(CHAT[3]) == ""
    assert text_of(TextMessage("flat")) == "flat"
    assert text_of(ToolResultMessage("t", "out")) == ""
    assert text_of(ThinkingMessage("hmm")) == ""
    assert text_of(CHAT[5]) == ""
    assert text_of(AssistantMessage((TextBlock("a"), TextBlock("b")))) == "a\nb"


def test_has_text() -> None:
    assert has_text(CHAT[1])
    assert not has_text(CHAT[3])
    assert not has_text(UserMessage("  \n\t"))
    assert not has_text(ErrorMessage("boom"))
    assert has_text(TextMessage("x"))


def test_stream_text() -> None:
    assert stream_text(CHAT) == "Be brief.\nWhat is in a.txt?\nReading.\nIt says `hello` & world."
    assert stream_text(CHAT, roles="assistant") == "Reading.\nIt says `hello` & world."
    assert stream_text(CHAT, roles=["user", "developer"], separator=" | ") == (
        "Be brief. | What is in a.txt?"
    )
    deltas = [TextMessage("Hel"), TextMessage("lo"), TextMessage("", role="user")]
    assert stream_text(deltas, separator="") == "Hello"


@given(ms.role_messages())
def test_flattening_keeps_the_text(message: Any) -> None:
    pieces = [m.text for m in flatten_assistant(message) if isinstance(m, TextMessage)]
    if message.content:
        assert "\n".join(pieces) == text_of(message)


# -- summarize ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (CHAT[0], "Be brief."),
        (CHAT[1], "What is in a.txt? [Image: image/png]"),
        (CHAT[2], "[Thinking] Reading. [Tool: Read]"),
        (CHAT[3], "[Tool result] hello world"),
        (
            ToolMessage((ToolResultBlock("t", "no such file", is_error=True),)),
            "[Tool error] no such file",
        ),
        (CHAT[5], "[Result: success] It says hello."),
        (ResultMessage(), "[Result]"),
        (ErrorMessage("rate limited", code="429"), "[Error: 429] rate limited"),
        (ErrorMessage("boom"), "[Error] boom"),
        (InitMessage(cwd="/w"), "[Init]"),
        (StreamEventMessage({"type": "message_stop"}), "[Event: message_stop]"),
        (StreamEventMessage({}), "[Event]"),
        (InvalidLineMessage("{oops", line=3), "[Invalid line 3] {oops"),
        (InvalidLineMessage("{oops"), "[Invalid line] {oops"),
        (ToolUseMessage("t", "Bash"), "[Tool: Bash]"),
        (AudioMessage(url="https://x/a.wav"), "[Audio]"),
        (
            AssistantMessage((AudioBlock(data="AAAA", media_type="audio/wav"),)),
            "[Audio: audio/wav]",
        ),
        (RawMessage({"type": "rate_limit_event"}), "[Raw: rate_limit_event]"),
        (UserMessage((RawBlock([1, 2]),)), "[Raw]"),
        (AssistantMessage(()), ""),
    ],
)
def test_summaries(message: Any, expected: str) -> None:
    assert summarize(message) == expected


def test_summaries_are_cut_with_an_ellipsis() -> None:
    long = AssistantMessage("word " * 40)
    assert summarize(long, 12) == "word word w\u2026"
    assert len(summarize(long)) == 80
    assert summarize(long, None) == ("word " * 40).strip()
    assert summarize(long, 0) == ""
    with pytest.raises(ValueError, match="max_length must not be negative, found -1"):
        summarize(long, -1)


@given(ms.messages(), st.none() | st.integers(min_value=0, max_value=100))
def test_summaries_are_one_line_within_the_limit(message: Any, limit: int | None) -> None:
    line = summarize(message, limit)
    assert "\n" not in line and "\r" not in line
    assert limit is None or len(line) <= limit


# -- transcripts --------------------------------------------------------------------------


def test_text_transcript() -> None:
    assert transcript(CHAT) == (
        "Developer: Be brief.\n"
        "User: What is in a.txt?\n"
        "[Image: image/png, 16 bytes]\n"
        "Assistant: [Thinking] Read it <first>.\n"
        "Reading.\n"
        '[Tool: Read] {"path": "a.txt"}\n'
        "User: [Tool result: t1] hello\n"
        "world\n"
        "Assistant: It says `hello` & world.\n"
        "Result (success): It says hello."
    )


def test_markdown_transcript() -> None:
    assert transcript(CHAT, format="markdown") == (
        "### Developer\n\nBe brief.\n\n"
        "### User\n\nWhat is in a.txt?\n\n*[Image: image/png, 16 bytes]*\n\n"
        "### Assistant\n\n> **Thinking:** Read it <first>.\n\nReading.\n\n"
        '**Tool call:** `Read` (`t1`)\n\n```json\n{"path": "a.txt"}\n```\n\n'
        "### User\n\n**Tool result** (`t1`):\n\n```\nhello\nworld\n```\n\n"
        "### Assistant\n\nIt says `hello` & world.\n\n"
        "### Result (success)\n\nIt says hello."
    )


def test_xml_transcript() -> None:
    assert transcript(CHAT, format="xml") == (
        "<developer>Be brief.</developer>\n"
        "<user>\n<text>What is in a.txt?</text>\n"
        '<image media_type="image/png" bytes="16"/>\n</user>\n'
        "<assistant>\n<thinking>Read it &lt;first&gt;.</thinking>\n<text>Reading.</text>\n"
        '<tool_use id="t1" name="Read">{"path": "a.txt"}</tool_use>\n</assistant>\n'
        '<user>\n<tool_result tool_use_id="t1">hello\nworld</tool_result>\n</user>\n'
        "<assistant>It says `hello` &amp; world.</assistant>\n"
        '<result subtype="success" is_error="false">It says hello.</result>'
    )


def test_labels_thinking_and_limits() -> None:
    got = transcript(
        CHAT[1:3],
        labels={"user": "Human", "assistant": "AI"},
        include_thinking=False,
        max_text_length=6,
    )
    assert got == (
        "Human: What \u2026\n[Image: image/png, 16 bytes]\n"
        'AI: Readi\u2026\n[Tool: Read] {"pat\u2026'
    )
    with pytest.raises(ValueError, match="max_text_length must not be negative"):
        transcript(CHAT, max_text_length=-2)
    with pytest.raises(
        ValueError, match="format must be 'text', 'markdown', 'xml' or 'html', found 'rst'"
    ):
        transcript(CHAT, format="rst")  # type: ignore[arg-type]


def test_media_is_named_never_dumped() -> None:
    data = "QUJD" * 50
    stream = [
        UserMessage(
            (
                ImageBlock(data=data),
                ImageBlock(url="data:image/gif;base64," + data),
                ImageBlock(url="https://example.com/" + "p" * 100 + ".png"),
                ImageBlock(file_id="file_9"),
                AudioBlock(url="data:audio/wav,abc"),
                ImageBlock(),
            )
        )
    ]
    text = transcript(stream)
    assert data not in text
    assert text == (
        "User: [Image: 150 bytes]\n[Image: image/gif, 150 bytes]\n"
        "[Image: https://example.com/" + "p" * 59 + "\u2026]\n"
        "[Image: file file_9]\n[Audio: audio/wav, 3 characters]\n[Image]"
    )
    xml = transcript(stream, format="xml")
    assert data not in xml
    assert '<image url="https://example.com/' in xml
    assert '<image file_id="file_9"/>' in xml


def test_flat_messages_of_one_role_share_an_entry() -> None:
    stream = [
        TextMessage("q", role="user"),
        TextMessage("Let me look."),
        ToolUseMessage("t1", "Bash", {"command": "ls"}),
        ToolResultMessage("t1", "a.txt", role="user", is_error=True),
        RawMessage({"x": 1}),
    ]
    assert transcript(stream) == (
        "User: q\n"
        'Assistant: Let me look.\n[Tool: Bash] {"command": "ls"}\n'
        "User: [Tool error: t1] a.txt\n"
        "Raw: [Raw]"
    )
    assert transcript(stream, format="xml").endswith(
        '<user>\n<tool_result tool_use_id="t1" is_error="true">a.txt</tool_result>\n</user>\n'
        "<raw>\n<raw/>\n</raw>"
    )


def test_session_messages_and_events() -> None:
    stream = [
        InitMessage(session_id="s1", model="m", cwd="/w"),
        StreamEventMessage({"type": "ping"}),
        ErrorMessage("rate limited", code="429"),
        InvalidLineMessage("{bad", reason="invalid JSON", line=7),
        ResultMessage(is_error=True),
    ]
    assert transcript(stream) == (
        "Init (session_id s1, model m, cwd /w)\n"
        "Error (429): rate limited\n"
        "Invalid line (line 7, invalid JSON): {bad\n"
        "Result (error)"
    )
    assert transcript(stream, include_events=True).split("\n")[1] == "Event (ping)"
    assert transcript(stream, format="xml") == (
        '<init session_id="s1" model="m" cwd="/w"/>\n'
        '<error code="429">rate limited</error>\n'
        '<invalid_line line="7" reason="invalid JSON">{bad</invalid_line>\n'
        '<result is_error="true"/>'
    )
    assert transcript(stream[:1], format="markdown") == "### Init (session_id s1, model m, cwd /w)"


def test_markdown_fences_outgrow_backticks_and_thinking_quotes() -> None:
    stream = [
        ToolMessage((ToolResultBlock("t", "```\ncode\n```", name="f"),)),
        AssistantMessage((ToolUseBlock("t`2", "f"), ThinkingBlock("a\nb"))),
        AssistantMessage((ThinkingBlock("", signature="x", redacted=True),)),
        ToolMessage((ToolResultBlock("t", (PNG,)),)),
    ]
    assert transcript(stream, format="markdown") == (
        "### Tool\n\n**Tool result** (`t`):\n\n````\n```\ncode\n```\n````\n\n"
        "### Assistant\n\n**Tool call:** `f` (``t`2``)\n\n```json\n{}\n```\n\n"
        "> **Thinking:** a\n> b\n\n"
        "### Assistant\n\n> *Thinking (redacted)*\n\n"
        "### Tool\n\n**Tool result** (`t`):\n\n*[Image: image/png, 16 bytes]*"
    )


def test_xml_escapes_attributes_and_nests_result_blocks() -> None:
    stream = [
        AssistantMessage((ToolUseBlock('a"<', "x&y", arguments="{bad"),)),
        UserMessage((ToolResultBlock('a"<', (TextBlock("1 < 2"), PNG), name="n"),)),
        AssistantMessage((ThinkingBlock("", redacted=True), RawBlock({"type": "srv"}))),
    ]
    assert transcript(stream, format="xml") == (
        '<assistant>\n<tool_use id="a&quot;&lt;" name="x&amp;y">{bad</tool_use>\n</assistant>\n'
        '<user>\n<tool_result tool_use_id="a&quot;&lt;" name="n">1 &lt; 2'
        '<image media_type="image/png" bytes="16"/></tool_result>\n</user>\n'
        '<assistant>\n<thinking redacted="true"/>\n<raw type="srv"/>\n</assistant>'
    )


safe_text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cn")), max_size=20)
"""Text XML can hold: no surrogates, controls or unassigned code points (U+FFFE is not an
XML character, and escaping cannot make it one)."""


@given(
    st.lists(
        st.one_of(
            st.builds(UserMessage, safe_text),
            st.builds(lambda t: AssistantMessage((TextBlock(t), ToolUseBlock(t, t))), safe_text),
            st.builds(lambda t: ToolMessage((ToolResultBlock(t, t, is_error=True),)), safe_text),
            st.builds(lambda t: TextMessage(t, role="user"), safe_text),
            st.builds(lambda t: ResultMessage(subtype=t, result=t), safe_text),
            st.builds(lambda t: ErrorMessage(t, code=t), safe_text),
        ),
        max_size=6,
    )
)
def test_xml_is_well_formed(stream: list[Any]) -> None:
    ET.fromstring(f"<root>{transcript(stream, format='xml')}</root>")


@given(ms.streams(), st.sampled_from(["text", "markdown", "xml"]))
def test_transcripts_never_dump_media_data(stream: list[Any], fmt: Any) -> None:
    rendered = transcript(stream, format=fmt)
    for m in stream:
        for block in getattr(m, "blocks", ()):
            if isinstance(block, (ImageBlock, AudioBlock)) and block.data and len(block.data) > 12:
                assert block.data not in rendered


def test_session_entries_without_details() -> None:
    stream = [InvalidLineMessage("x"), StreamEventMessage({}), ResultMessage()]
    assert transcript(stream, include_events=True) == "Invalid line: x\nEvent\nResult"
    assert transcript(stream, format="xml", include_events=True) == (
        "<invalid_line>x</invalid_line>\n<event/>\n<result/>"
    )


@given(ms.streams(), st.booleans(), st.booleans(), st.none() | st.integers(0, 30))
def test_the_streaming_markdown_writer_writes_the_markdown_transcript(
    stream: list[Any], thinking: bool, events: bool, limit: int | None
) -> None:
    """One Markdown renderer: fed message by message, it gives the transcript's paragraphs."""
    from messages.text._render import MarkdownWriter
    from messages.text._render import Transcriber

    options: dict[str, Any] = {"include_thinking": thinking, "include_events": events}
    writer = MarkdownWriter(Transcriber(labels={"user": "Human"}, limit=limit, **options))
    paragraphs = [p for m in stream for p in writer.render(m)]
    expected = transcript(
        stream, format="markdown", labels={"user": "Human"}, max_text_length=limit, **options
    )
    assert "\n\n".join(paragraphs) == expected
