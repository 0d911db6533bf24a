"""The games of `brass serve --store DIR` on the disk: one file per game, `DIR/<id>.json`, rewritten whole (a
temporary file, fsync, rename: `brass._files`) each time the game changes, so a server killed at any moment
leaves every game as it was after its last change, and a restarted server serves the same games under the same
ids.

A file holds the game's record (`brass-record/1`: its deal or first position, and the actions played) with its
seats: the game is rebuilt by `brass.replay`, so undo reaches back as far as it did before the restart."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import brass
from brass._files import remove_partials, write_whole

#: The format of a game's file.
FORMAT = "brass-serve-game/1"
#: A game id (`secrets.token_hex(8)`): only such names are looked up on the disk, so a request's id can never
#: name a file outside the folder.
GAME_ID = re.compile(r"[0-9a-f]{16}")


class StoreError(brass.BrassError):
    """The folder of `--store` cannot keep games (missing, not a folder, not writable, full), or a file in it is
    not a game this server wrote."""


def check_folder(folder: str) -> None:
    """Fail now, before the server listens, unless games can be written into `folder`: a probe file is written
    whole (fsync included: a full disk fails here) and removed."""
    if not os.path.isdir(folder):
        raise StoreError(f"--store {folder}: there is no such folder (make it first)")
    probe = os.path.join(folder, f".probe-{os.getpid()}")
    try:
        write_whole(probe, b"brass serve checks that it can keep games here\n")
        os.remove(probe)
    except OSError as e:
        raise StoreError(f"--store {folder}: games cannot be written there ({e.strerror or e})") from None
    remove_partials(folder)  # what a server killed while writing left: the game's file before it is whole


def path_of(folder: str, game_id: str) -> str:
    return os.path.join(folder, f"{game_id}.json")


def write(folder: str, game_id: str, state: brass.State, seats: list[str], moves_by_agents: int) -> None:
    """A game's file, whole or not at all; an OSError (a full disk) leaves the previous one."""
    record = {
        "format": FORMAT,
        "id": game_id,
        "seats": seats,
        "moves_by_agents": moves_by_agents,
        "record": json.loads(state.record()),
    }
    write_whole(path_of(folder, game_id), json.dumps(record, separators=(",", ":")))


def read(folder: str, game_id: str) -> dict[str, Any] | None:
    """A game's file as written by `write`, with its state rebuilt (`state`); None when there is none.
    StoreError for a file that is not one."""
    path = path_of(folder, game_id)
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise StoreError(f"{path}: cannot read the game ({e})") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT or record.get("id") != game_id:
        raise StoreError(f"{path}: not a game of brass serve ({FORMAT})")
    try:
        state = brass.replay(json.dumps(record["record"]))
    except (KeyError, TypeError, brass.BrassError) as e:
        raise StoreError(f"{path}: the game cannot be rebuilt ({e})") from None
    return {**record, "state": state}


def ids(folder: str) -> list[str]:
    """The ids of the games in `folder`, the most recently changed first."""
    found = [
        (os.stat(os.path.join(folder, name)).st_mtime, name[: -len(".json")])
        for name in os.listdir(folder)
        if name.endswith(".json") and GAME_ID.fullmatch(name[: -len(".json")])
    ]
    return [game_id for _, game_id in sorted(found, reverse=True)]


def delete(folder: str, game_id: str) -> bool:
    """Remove a game's file; whether there was one."""
    try:
        os.remove(path_of(folder, game_id))
    except FileNotFoundError:
        return False
    return True
