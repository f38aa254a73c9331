"""``riftscript replay RECORD``: play a recorded game again from its seed, decks and agents (agents are
seeded from the game's seed), print its play-by-play, and check it reaches the recorded log hash.
A record of a failed game (a crash, a broken invariant, a game that never ended) replays to the same
failure at the same point; anything else is a mismatch, reported as an error."""
from __future__ import annotations

import argparse
import re
from typing import Any

from riftscript.core.script.catalog import Catalog
from riftscript.core.script.decks import load_deck
from riftscript.core.errors import RiftScriptError
from riftscript.core.version import ENGINE_VERSION
from riftscript.tools.lab.engine import FixedPlan, GameSpec, Job, Record, catalog_for, play
from riftscript.tools.lab.records import read_records
from riftscript.tools.lab.run import source_of
from riftscript.tools.lab.simulate import agents_for

FIELDS = ("seed", "mode", "decks", "agents", "hash")


class ReplayMismatch(RiftScriptError):
    """A replayed game did not reach its record: the engine, the cards or a deck changed since."""


def pick(records: list[Record], path: str, index: int | None) -> Record:
    """The record numbered ``index`` (the game's number in its run), or the only one."""
    if not records:
        raise RiftScriptError(f"{path} holds no records")
    if index is None:
        if len(records) > 1:
            raise RiftScriptError(f"{path} holds {len(records)} records: choose one with --index K "
                                  f"(games {records[0].get('index')}..{records[-1].get('index')})")
        return records[0]
    for record in records:
        if record.get("index") == index:
            return record
    raise RiftScriptError(f"{path} has no record of game {index} "
                          f"(it holds games {records[0].get('index')}..{records[-1].get('index')})")


def spec_of(catalog: Catalog, record: Record, path: str) -> GameSpec:
    """The game a record describes, or an error naming the field that is wrong."""
    try:
        index, seed, mode = int(record.get("index", 0)), int(record["seed"]), str(record["mode"])
        if not isinstance(record["decks"], list) or not isinstance(record["agents"], list):
            raise TypeError("decks and agents are lists")
        refs = tuple(str(d) for d in record["decks"])
        names = [str(a) for a in record["agents"]]
    except (TypeError, ValueError) as exc:
        raise RiftScriptError(f"{path}: game {record.get('index')}: a field of the wrong kind ({exc})") from None
    assert catalog.plugins is not None
    modes = catalog.plugins.modes()
    if mode not in modes:
        raise RiftScriptError(f"{path}: game {index} was played in mode {mode!r}, which is not installed "
                              f"(installed: {', '.join(sorted(modes))})")
    agents = agents_for(catalog, names, len(refs))
    return GameSpec(index, seed, mode, tuple(load_deck(catalog, ref) for ref in refs), refs, agents)


def replay(args: argparse.Namespace) -> int:
    record = pick(read_records(args.record), args.record, args.index)
    missing = [f for f in FIELDS if f not in record]
    if missing:
        raise RiftScriptError(f"{args.record}: the record lacks {', '.join(missing)}; it can't be replayed")
    catalog = catalog_for(source_of(args), fresh=True)
    spec = spec_of(catalog, record, args.record)
    decks, refs = spec.decks, spec.refs
    error = str(record.get("error") or "")
    # a game stopped after so many actions stops there again; one stopped by its CPU time gets as long again
    cpu = re.match(r"stuck: still playing after ([0-9]{1,9}(?:\.[0-9]{1,9})?) CPU s", error)
    job = Job(FixedPlan(spec.mode, decks, refs, spec.agents, spec.seed, 1), narrate=True,
              checked=args.check or error.startswith("InvariantError"),
              max_actions=int(record.get("actions", 0)) if error.startswith("stuck: no end") else Job.max_actions,
              time_limit=float(cpu.group(1)) if cpu else 0.0)
    again = play(catalog, job, spec)
    print(again.pop("log", ""))
    _compare(record, again, spec)
    what = f"game {spec.index} (seed {spec.seed}, {spec.mode}: {' vs '.join(refs)})"
    if error:
        print(f"replayed {what}: the recorded failure happens again at action {again['actions']}, log hash "
              f"{again['hash'][:16]}: {again.get('error')}")
    else:
        print(f"replayed {what}: log hash {again['hash'][:16]} matches the record")
    return 0


def _compare(record: Record, again: Record, spec: GameSpec) -> None:
    problems = []
    if record.get("names") and record["names"] != again["names"]:
        problems.append(f"the players are named {_short(again['names'])}, the record says {_short(record['names'])}")
    if str(record.get("error") or "").split(":")[0] != str(again.get("error") or "").split(":")[0]:
        problems.append(f"the game {_ending(again)}, the record says it {_ending(record)}")
    if record["hash"] != again["hash"] and not str(record.get("error") or "").startswith("stuck: still playing"):
        problems.append(f"log hash {again['hash'][:16]} after {again['actions']} actions, the record says "
                        f"{str(record['hash'])[:16]} after {record.get('actions', '?')}")
    if problems and str(record.get("error") or "").startswith("stuck: still playing"):
        raise ReplayMismatch(f"replay of game {spec.index} (seed {spec.seed}) does not match its record: "
                             + "; ".join(problems) + "; the record's time limit ran out on a busier or slower machine")
    if problems:
        engine = record.get("engine")
        changed = f" (recorded with engine {engine}, this is {ENGINE_VERSION})" if engine and engine != ENGINE_VERSION else ""
        raise ReplayMismatch(f"replay of game {spec.index} (seed {spec.seed}) does not match its record: "
                             + "; ".join(problems) + "; the engine, a card or a deck changed since it was recorded"
                             + changed)


def _short(value: Any, limit: int = 120) -> str:
    """A record's value for a message, cut short (a record may name its players with 100,000 letters)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _ending(record: dict[str, Any]) -> str:
    error = str(record.get("error") or "")
    return f"failed ({error if len(error) <= 200 else error[:197] + '...'})" if error else "ended"


def add_commands(sub: Any) -> None:
    """Register 'replay' on an argparse subparsers object."""
    parser = sub.add_parser("replay", help="replay a recorded game to its log hash and show its play-by-play",
                            description="Play a game of a records file (simulate/tournament --records, or a "
                                        "soak failure) again from its seed, decks and agents, print its "
                                        "play-by-play and check it reaches the recorded log hash.")
    parser.add_argument("record", metavar="RECORDS", help="a records file (JSON lines or .parquet)")
    parser.add_argument("--index", type=int, metavar="K", help="the game to replay: its number in the run")
    parser.add_argument("--check", action="store_true", help="check every invariant after each action")
    parser.set_defaults(func=replay)
