"""Pictures as pixels (issue 21, item 8): `brass.svg.save(state, "x.png")` writes a real PNG, `brass.svg.rgb`
gives the pixels Gymnasium's `rgb_array` mode returns; both drawn natively by resvg."""

from __future__ import annotations

import pathlib
import struct
import zlib

import numpy as np
import pytest

import brass
from brass import svg


def _png_size(data: bytes) -> tuple[int, int]:
    """The width and height in a PNG's header, after checking its signature and the header's checksum."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    body = data[16 : 16 + length]
    assert struct.unpack(">I", data[16 + length : 20 + length])[0] == zlib.crc32(kind + body)
    width, height = struct.unpack(">II", body[:8])
    return width, height


def test_save_png_writes_a_png_of_the_asked_width(tmp_path: pathlib.Path) -> None:
    state = brass.Game("birmingham", players=2).new_state(seed=5)
    path = tmp_path / "board.png"
    svg.save(state, path, width=700)
    width, height = _png_size(path.read_bytes())
    assert width == 700 and 300 < height < 700
    assert _png_size(svg.png(state))[0] == 1380  # the picture's own width by default


def test_rgb_shows_the_board_in_its_colours() -> None:
    state = brass.Game("lancashire", players=2).new_state(seed=3)
    pixels = svg.rgb(state, width=400)
    assert pixels.dtype == np.uint8 and pixels.ndim == 3 and pixels.shape[1:] == (400, 3)
    colours = {tuple(int(c) for c in p) for p in pixels.reshape(-1, 3)[::7]}
    assert (255, 255, 255) in colours and len(colours) > 20  # a white page with a drawn map on it
    # The map's background colour covers much of the picture's left part.
    map_colour = tuple(int(svg.MAP_COLOUR[i : i + 2], 16) for i in (1, 3, 5))
    left = pixels[pixels.shape[0] // 2, : pixels.shape[1] // 2]
    assert sum(tuple(int(c) for c in p) == map_colour for p in left) > 20
    # A different position gives different pixels.
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert not np.array_equal(svg.rgb(state, width=400), pixels)


@pytest.mark.parametrize(("width", "error"), [(8, brass.ConfigError), (10**6, brass.ConfigError), (1.5, TypeError)])
def test_a_bad_width_is_a_clear_error(width: object, error: type) -> None:
    state = brass.Game("lancashire", players=2).new_state(seed=3)
    with pytest.raises(error, match="width"):
        svg.rgb(state, width=width)  # type: ignore[arg-type]
