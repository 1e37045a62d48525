"""Documents and video: the blocks, their media helpers, and how each codec carries them.

The laws (native round trip, flat view, normalize idempotence, exact replay per provider,
SDK conformance) already cover both kinds through the strategies and the fixtures; these
tests pin the wire shapes and the loss policy case by case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from messages import AssistantMessage
from messages import DocumentBlock
from messages import DocumentMessage
from messages import TextBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages import VideoBlock
from messages import VideoMessage
from messages import strategies as ms
from messages.adapters import claude_code
from messages.convert import block_to_message
from messages.convert import message_to_block
from messages.convert import normalize_messages
from messages.media import is_document_type
from messages.media import is_text_type
from messages.media import sniff_document_type
from messages.media import sniff_media_type
from messages.policy import describe
from messages.providers import anthropic
from messages.providers import gemini
from messages.providers import openai_chat
from messages.providers import openai_responses
from messages.text import transcript

PDF = "JVBERi0xLjcK"  # "%PDF-1.7\n"

# ------------------------------------------------------------------------ values, media


def test_document_from_bytes_sniffs_pdf_and_text(tmp_path: Path) -> None:
    pdf = DocumentBlock.from_bytes(b"%PDF-1.7\n", filename="a.pdf")
    assert (pdf.media_type, pdf.data, pdf.filename, pdf.size) == (
        "application/pdf",
        PDF,
        "a.pdf",
        9,
    )
    path = tmp_path / "notes.txt"
    path.write_bytes("Grüße\n".encode())
    text = DocumentBlock.from_file(path)
    assert text.media_type == "text/plain"
    assert text.to_bytes() == "Grüße\n".encode()
    assert DocumentBlock.from_bytes(b"\x00\x01").media_type is None


def test_document_from_text_and_size() -> None:
    doc = DocumentBlock.from_text("Minutes.", title="Meeting")
    assert doc == DocumentBlock(text="Minutes.", media_type="text/plain", title="Meeting")
    assert doc.size == 8
    assert DocumentBlock(url="data:application/pdf;base64,JVBERg==").size == 4
    assert DocumentBlock(url="https://x/a.pdf").size is None
    assert DocumentBlock(content=(TextBlock("a"),)).size is None


def test_reprs_never_dump_data() -> None:
    long = DocumentBlock(text="x" * 500, title="T")
    assert "xxxxxxxxxx...<500 chars>" in repr(long) and len(repr(long)) < 120
    assert repr(DocumentBlock(data="A" * 4000)) == "DocumentBlock(data=<3000 bytes>)"
    assert repr(VideoBlock(data="AAAA", media_type="video/mp4", fps=2)) == (
        "VideoBlock(media_type='video/mp4', data=<3 bytes>, fps=2)"
    )
    assert repr(VideoBlock()) == "VideoBlock()"


@pytest.mark.parametrize(
    ("head", "media_type"),
    [
        (b"%PDF-1.4\n%", "application/pdf"),
        (b"\x00\x00\x00\x18ftypmp42\x00\x00", "video/mp4"),
        (b"\x00\x00\x00\x20ftypisom\x00\x00", "video/mp4"),
        (b"\x1aE\xdf\xa3\x9fB\x86\x81", "video/webm"),
        (b"\x00\x00\x00\x20ftypM4A \x00\x00", None),  # audio in an MP4 box: not video
    ],
)
def test_sniffing_documents_and_video(head: bytes, media_type: str | None) -> None:
    assert sniff_media_type(head) == media_type


def test_document_types() -> None:
    assert sniff_document_type(b"plain words") == "text/plain"
    assert sniff_document_type(b"\xc3\x28 not utf-8") is None
    assert is_document_type("application/pdf") and is_document_type("TEXT/CSV")
    assert not is_document_type("video/mp4") and not is_document_type("")
    assert is_text_type("text/markdown") and is_text_type("application/json; charset=utf-8")
    assert not is_text_type("application/pdf") and not is_text_type(None)


def test_describe_reads_the_same_for_every_target() -> None:
    assert describe(DocumentBlock(text="hello", title="Notes")) == (
        "[document: 'Notes', 5 characters]"
    )
    assert describe(DocumentBlock(file_id="file-1", filename="q3.pdf")) == (
        "[document: 'q3.pdf', file file-1]"
    )
    assert describe(DocumentBlock(content=(TextBlock("a"), TextBlock("b")))) == (
        "[document: 2 blocks]"
    )
    assert describe(VideoBlock(data="AAAA", media_type="video/webm")) == (
        "[video: video/webm, 3 bytes]"
    )


# --------------------------------------------------------------------------- flat view


@given(ms.document_blocks() | ms.video_blocks(), ms.contexts())
def test_block_and_flat_message_are_inverse(block: Any, context: dict[str, Any]) -> None:
    message = block_to_message(block, role="user", **context)
    assert isinstance(message, DocumentMessage | VideoMessage)
    assert message.kind == block.kind
    assert message_to_block(message) == block


def test_normalize_flattens_documents_with_their_context() -> None:
    doc = DocumentBlock(file_id="file_1", title="Q3", citations=True)
    video = VideoBlock(file_id="files/v", start_offset="1s")
    (d, v) = normalize_messages([UserMessage((doc, video), session_id="s1")])
    assert d == DocumentMessage(file_id="file_1", title="Q3", citations=True, session_id="s1")
    assert v == VideoMessage(file_id="files/v", start_offset="1s", session_id="s1")


def test_transcripts_name_documents_and_video() -> None:
    turn = UserMessage(
        (
            TextBlock("Read this."),
            DocumentBlock(data=PDF, media_type="application/pdf", title="Q3"),
            VideoBlock(file_id="files/v1", media_type="video/mp4"),
        )
    )
    text = transcript([turn])
    assert "[Document: 'Q3', application/pdf, 9 bytes]" in text
    assert "[Video: video/mp4, file files/v1]" in text
    xml = transcript([turn], format="xml")
    assert '<document title="Q3" media_type="application/pdf" bytes="9"/>' in xml
    assert '<video media_type="video/mp4" file_id="files/v1"/>' in xml


# ----------------------------------------------------------------------------- Anthropic


def test_anthropic_maps_other_providers_documents() -> None:
    chat_file = DocumentBlock(url=f"data:application/pdf;base64,{PDF}", filename="q3.pdf")
    text_file = DocumentBlock(data="aGk=", media_type="text/plain")
    body = anthropic.encode_request([UserMessage((chat_file, text_file))])
    assert body["messages"][0]["content"] == [
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": PDF},
            "title": "q3.pdf",
        },
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "hi"}},
    ]


def test_anthropic_content_documents_replay_exactly() -> None:
    source = {
        "type": "content",
        "content": [{"type": "text", "text": ""}, {"type": "text", "text": "a"}],
    }
    body = {"messages": [{"role": "user", "content": [{"type": "document", "source": source}]}]}
    assert anthropic.encode_request(anthropic.decode_request(body)) == body


def test_anthropic_cannot_carry_video_or_non_pdf_files() -> None:
    for block in (
        VideoBlock(file_id="files/v", media_type="video/mp4"),
        DocumentBlock(data="AAAA", media_type="application/zip"),
    ):
        with pytest.raises(UnsupportedContentError):
            anthropic.encode_request([UserMessage((block,))])
    body = anthropic.encode_request(
        [UserMessage((VideoBlock(file_id="files/v", media_type="video/mp4"),))], unsupported="text"
    )
    assert body["messages"][0]["content"] == [
        {"type": "text", "text": "[video: video/mp4, file files/v]"}
    ]
    with pytest.raises(UnsupportedContentError, match="document in a assistant turn"):
        anthropic.encode_request([AssistantMessage((DocumentBlock(file_id="f"),))])


# ------------------------------------------------------------------------------- OpenAI


def test_chat_file_parts_both_ways() -> None:
    part = {"type": "file", "file": {"file_data": f"data:application/pdf;base64,{PDF}"}}
    (message,) = openai_chat.decode_request({"messages": [{"role": "user", "content": [part]}]})
    assert message.content == (DocumentBlock(url=f"data:application/pdf;base64,{PDF}"),)
    pdf = DocumentBlock(data=PDF, media_type="application/pdf", title="Q3")
    body = openai_chat.encode_request([UserMessage((pdf,))])
    assert body["messages"][0]["content"] == [
        {
            "type": "file",
            "file": {"file_data": f"data:application/pdf;base64,{PDF}", "filename": "Q3"},
        }
    ]


def test_openai_refuses_what_only_anthropic_has() -> None:
    cited = DocumentBlock(file_id="file-1", context="unaudited", citations=True)
    with pytest.raises(UnsupportedContentError, match="context"):
        openai_chat.encode_request([UserMessage((cited,))])
    body = openai_chat.encode_request([UserMessage((cited,))], unsupported="drop")
    assert body["messages"][0]["content"] == [{"type": "file", "file": {"file_id": "file-1"}}]
    text = DocumentBlock(text="Minutes.", title="Notes")
    with pytest.raises(UnsupportedContentError, match="text document"):
        openai_responses.encode_request([UserMessage((text,))])
    body = openai_responses.encode_request([UserMessage((text,))], unsupported="text")
    assert body["input"][0]["content"] == [
        {"type": "input_text", "text": "[document: 'Notes', 8 characters]"}
    ]


def test_responses_input_file_urls() -> None:
    doc = DocumentBlock(url="https://example.com/q4.pdf", filename="q4.pdf")
    body = openai_responses.encode_request([UserMessage((doc,))])
    assert body["input"][0]["content"] == [
        {"type": "input_file", "file_url": "https://example.com/q4.pdf", "filename": "q4.pdf"}
    ]
    assert openai_responses.decode_request(body) == (UserMessage((doc,)),)
    with pytest.raises(UnsupportedContentError, match="by URL"):
        openai_chat.encode_request([UserMessage((doc,))])


# ------------------------------------------------------------------------------- Gemini


def test_gemini_parts_by_mime_type() -> None:
    parts = [
        {"inlineData": {"mimeType": "application/pdf", "data": PDF}},
        {
            "fileData": {"mimeType": "video/mp4", "fileUri": "https://youtu.be/x"},
            "videoMetadata": {"startOffset": "10s", "fps": 1.5},
        },
        {"fileData": {"mimeType": "video/mp4", "fileUri": "gs://b/v"}, "videoMetadata": {"x": 1}},
    ]
    (message,) = gemini.decode_request({"contents": [{"role": "user", "parts": parts}]})
    assert message.content == (
        DocumentBlock(data=PDF, media_type="application/pdf"),
        VideoBlock(
            file_id="https://youtu.be/x", media_type="video/mp4", start_offset="10s", fps=1.5
        ),
        VideoBlock(file_id="gs://b/v", media_type="video/mp4", extra={"videoMetadata": {"x": 1}}),
    )
    assert gemini.encode_request([message])["contents"][0]["parts"] == parts


def test_gemini_takes_text_documents_as_inline_text() -> None:
    doc = DocumentBlock(text="hi", media_type="text/plain")
    body = gemini.encode_request([UserMessage((doc,))])
    assert body["contents"][0]["parts"] == [
        {"inlineData": {"mimeType": "text/plain", "data": "aGk="}}
    ]
    with pytest.raises(UnsupportedContentError, match="title"):
        gemini.encode_request([UserMessage((DocumentBlock(text="hi", title="T"),))])
    content = DocumentBlock(content=(TextBlock("a"),))
    with pytest.raises(UnsupportedContentError, match="content blocks"):
        gemini.encode_request([UserMessage((content,))])


def test_gemini_video_goes_to_openai_by_the_policy() -> None:
    video = VideoBlock(file_id="files/v", media_type="video/mp4", end_offset="5s")
    with pytest.raises(UnsupportedContentError, match="video"):
        openai_chat.encode_request([UserMessage((video,))])
    body = openai_responses.encode_request([UserMessage((video,))], unsupported="drop")
    assert body["input"] == []


# ---------------------------------------------------------------------------- Claude Code


def test_claude_code_carries_documents_not_video() -> None:
    doc = DocumentBlock(text="Paid.", media_type="text/plain", title="notes.txt")
    line = claude_code.encode(UserMessage((doc,), session_id="s1"))
    assert line["message"]["content"] == [
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "Paid."},
            "title": "notes.txt",
        }
    ]
    decoded = claude_code.decode(line)
    assert isinstance(decoded, UserMessage) and decoded.content == (doc,)
    video = UserMessage((VideoBlock(file_id="files/v"),), session_id="s1")
    with pytest.raises(UnsupportedContentError, match="video"):
        claude_code.encode(video)


# ----------------------------------------------------------------------------------- CLI


def test_the_cli_shows_and_writes_documents(capsys: pytest.CaptureFixture[str]) -> None:
    from messages.cli import main

    log = str(Path(__file__).parent / "fixtures" / "claude_code" / "documents.jsonl")
    assert main(["normalize", "--format", "text", log]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "[document/user] 'invoice.pdf', application/pdf, 15 bytes"
    assert "[document: 'notes.txt', text/plain, 33 characters]" in out
    assert main(["normalize", log]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith('{"v":2,"kind":"document","data":"JVBERi0xLjcKJeLjz9MK"')
