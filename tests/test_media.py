"""MIME sniffing, data URIs, base64, media blocks' explicit file constructors, and the one
media describer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AudioBlock
from messages import AudioMessage
from messages import DecodeError
from messages import ImageBlock
from messages import ImageMessage
from messages.media import b64decode
from messages.media import b64encode
from messages.media import base64_size
from messages.media import describe_media
from messages.media import media_facts
from messages.media import parse_data_uri
from messages.media import sniff_media_type
from messages.media import to_data_uri

MAGIC = {
    "image/png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "image/jpeg": b"\xff\xd8\xff\xe0\x00\x10JFIF",
    "image/gif": b"GIF89a\x01\x00\x01\x00",
    "image/webp": b"RIFF\x24\x00\x00\x00WEBPVP8 ",
    "audio/wav": b"RIFF\x24\x00\x00\x00WAVEfmt ",
    "audio/ogg": b"OggS\x00\x02\x00\x00",
    "audio/flac": b"fLaC\x00\x00\x00\x22",
    "audio/mpeg": b"ID3\x04\x00\x00\x00\x00",
}


@pytest.mark.parametrize(("media_type", "head"), MAGIC.items())
def test_sniff_known_formats(media_type: str, head: bytes) -> None:
    assert sniff_media_type(head + bytes(16)) == media_type


def test_sniff_mp3_frame_sync_and_unknown() -> None:
    assert sniff_media_type(b"\xff\xfb\x90\x00") == "audio/mpeg"
    assert sniff_media_type(b"GIF87a") == "image/gif"
    assert sniff_media_type(b"hello world") is None
    assert sniff_media_type(b"") is None
    assert sniff_media_type(b"RIFF\x00\x00\x00\x00AVI ") is None


def test_base64_strict_and_tolerant_of_urlsafe_and_whitespace() -> None:
    assert b64decode(b64encode(b"\xfb\xff\x00")) == b"\xfb\xff\x00"
    assert b64decode("-_8A") == b"\xfb\xff\x00"
    assert b64decode("aGk") == b"hi"
    assert b64decode("aG\nk=") == b"hi"
    with pytest.raises(DecodeError) as info:
        b64decode("not base64!", path="$.source.data")
    assert info.value.path == "$.source.data"
    assert str(info.value).startswith("$.source.data: invalid base64 data")


def test_data_uris() -> None:
    uri = parse_data_uri("data:image/png;base64,AAAA")
    assert uri is not None
    assert (uri.media_type, uri.data, uri.is_base64) == ("image/png", "AAAA", True)
    plain = parse_data_uri("data:,Hello%2C%20World")
    assert plain is not None
    assert (plain.media_type, plain.data, plain.is_base64) == (
        "text/plain;charset=US-ASCII",
        "Hello%2C%20World",
        False,
    )
    params = parse_data_uri("DATA:text/plain;charset=utf-8;base64,aGk=")
    assert params is not None and params.media_type == "text/plain;charset=utf-8"
    assert parse_data_uri("https://example.com/a.png") is None
    assert parse_data_uri("data:no-comma") is None
    assert to_data_uri("image/png", "AAAA") == "data:image/png;base64,AAAA"


def test_image_from_file_is_explicit(tmp_path: Path) -> None:
    path = tmp_path / "pic"
    path.write_bytes(MAGIC["image/jpeg"] + bytes(10))
    block = ImageBlock.from_file(path)
    assert block.media_type == "image/jpeg"
    assert block.to_bytes() == path.read_bytes()
    given_type = ImageBlock.from_file(str(path), media_type="image/x-custom")
    assert given_type.media_type == "image/x-custom"


def test_audio_from_file(tmp_path: Path) -> None:
    path = tmp_path / "a.ogg"
    path.write_bytes(MAGIC["audio/ogg"])
    assert AudioBlock.from_file(path).media_type == "audio/ogg"


def test_a_path_string_in_data_is_just_data() -> None:
    block = ImageBlock(url="file:/etc/passwd")
    assert block.to_bytes() is None
    assert block.resolved_media_type is None
    assert ImageBlock(data="L2V0Yy9wYXNzd2Q=").to_bytes() == b"/etc/passwd"


def test_resolved_media_type() -> None:
    assert ImageBlock(url="data:image/gif;base64,R0lGODlh").resolved_media_type == "image/gif"
    assert ImageBlock(url="data:image/gif;base64,R0lGODlh").to_bytes() == b"GIF89a"
    assert ImageBlock(data=b64encode(MAGIC["image/png"])).resolved_media_type == "image/png"
    assert ImageBlock(data="AAAA", media_type="image/webp").resolved_media_type == "image/webp"
    assert ImageBlock(file_id="f").resolved_media_type is None
    assert ImageBlock(url="data:,x").to_bytes() is None


def test_invalid_base64_is_reported_not_crashed_on() -> None:
    with pytest.raises(DecodeError, match=r"^\$.data: invalid base64"):
        ImageBlock(data="***").to_bytes()


def test_base64_size_limit() -> None:
    from messages.limits import limits

    with limits(max_base64=8):
        assert b64decode("aGVsbG8=") == b"hello"
        with pytest.raises(DecodeError) as info:
            ImageBlock(data="aGVsbG8gd29ybGQ=").to_bytes()
    assert str(info.value) == "$.data: base64 data is longer than 8 characters (16)"
    assert ImageBlock(data="aGVsbG8gd29ybGQ=").to_bytes() == b"hello world"


@given(st.binary(max_size=64), st.sampled_from(["", "\n", " "]))
def test_base64_size_is_the_decoded_length(data: bytes, gap: str) -> None:
    text = b64encode(data)
    spaced = gap.join(text[i : i + 4] for i in range(0, len(text), 4))
    assert base64_size(text) == base64_size(spaced) == len(data)
    assert base64_size(text.rstrip("=")) == len(data)  # unpadded, as some APIs send it


def test_base64_size_never_goes_negative_on_junk() -> None:
    assert base64_size("=") == 0 and base64_size("====") == 0 and base64_size("") == 0


@pytest.mark.parametrize(
    ("medium", "facts", "words"),
    [
        (
            ImageBlock(data="iVBORw0KGgo="),
            (("media_type", "image/png"), ("bytes", "8")),
            "image/png, 8 bytes",
        ),
        (ImageBlock(data="QUJD"), (("bytes", "3"),), "3 bytes"),
        (ImageBlock(data="!!not base64"), (("bytes", "8"),), "8 bytes"),  # an estimate
        (
            AudioBlock(url="data:audio/wav;base64,UklGRg=="),
            (("media_type", "audio/wav"), ("bytes", "4")),
            "audio/wav, 4 bytes",
        ),
        (
            AudioBlock(url="data:audio/wav,abc", media_type="audio/x-wav"),
            (("media_type", "audio/x-wav"), ("characters", "3")),
            "audio/x-wav, 3 characters",
        ),
        (
            ImageMessage(url="https://x/y.png", media_type="image/png"),
            (("media_type", "image/png"), ("url", "https://x/y.png")),
            "image/png, https://x/y.png",
        ),
        (AudioMessage(file_id="file_1"), (("file_id", "file_1"),), "file file_1"),
        (ImageBlock(), (), ""),
    ],
)
def test_media_is_described_by_what_is_known_never_by_its_data(
    medium: Any, facts: tuple[tuple[str, str], ...], words: str
) -> None:
    assert media_facts(medium) == facts
    assert describe_media(medium) == words


def test_a_long_url_can_be_cut() -> None:
    block = ImageBlock(url="https://example.com/" + "p" * 100)
    assert describe_media(block, url_width=10) == "https://e\u2026"
    assert describe_media(block) == block.url
