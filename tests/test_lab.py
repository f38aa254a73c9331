"""The simulation lab as a user meets it: simulate on several workers, records and replay, progress,
Ctrl-C, tournaments and their pictures, the soak's failure records (small game counts throughout)."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from clihelp import run
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.decks import load_deck
from riftscript.tools.lab import engine, progress
from riftscript.tools.lab.stats import newcombe, wilson
from riftscript.tools.lab.tournament import ab_sentence, make_plan

ROOT = Path(__file__).resolve().parent.parent
DUEL = ["Jinx Champion Deck", "Viktor Champion Deck"]
THREE = ["Jinx Champion Deck", "Viktor Champion Deck", "Annie Starter Deck"]


def simulate_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert run("simulate", "--quiet", "--json", *argv).code == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_worker_process_freezes_what_it_holds_and_this_process_never_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A pool worker only plays games: once it holds the catalog, the cyclic collector leaves what it holds alone
    (gc.freeze).  The process that runs the command (a program embedding the lab, the tests) is never frozen."""
    import gc

    code = ("import gc, multiprocessing; from riftscript.tools.lab import backends, engine; "
            "before = gc.get_freeze_count(); "
            "backends._init_worker(engine.Source(), None, multiprocessing.get_context().Event()); "
            "print(before, gc.get_freeze_count() > 1000, 'catalog' in backends._WORKER)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["0", "True", "True"], done.stderr
    frozen = gc.get_freeze_count()
    simulate_json(capsys, "--decks", *DUEL, "--games", "2", "--seed", "3", "--workers", "2", "--batch", "1")
    assert gc.get_freeze_count() == frozen


def test_results_are_the_same_for_one_two_and_three_workers(capsys: pytest.CaptureFixture[str]) -> None:
    runs = {w: simulate_json(capsys, "--decks", *DUEL, "--games", "6", "--seed", "40", "--workers", str(w),
                             "--batch", "1") for w in (1, 2, 3)}
    assert [r["index"] for r in runs[1]] == list(range(6))
    assert [r["seed"] for r in runs[1]] == list(range(40, 46))  # game i is seeded from the base seed and i
    assert len({r["hash"] for r in runs[1]}) == 6
    assert runs[2] == runs[1] and runs[3] == runs[1]


def test_a_record_says_who_played_what_and_replays_to_its_hash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "run.jsonl"
    assert run("simulate", "--quiet", "--decks", *DUEL, "--games", "3", "--seed", "7", "--workers", "1",
               "--records", str(records)).code == 0
    rows = [json.loads(line) for line in records.read_text().splitlines()]
    game = rows[2]
    assert (game["index"], game["seed"], game["mode"], game["decks"]) == (2, 9, "duel", DUEL)
    assert game["names"] == ["Jinx", "Viktor"] and game["agents"] == ["random", "random"]
    assert game["winners"] in ([0], [1], []) and game["first"] in (0, 1) and game["turns"] > 0
    jinx_cards = {code for code, turns in game["plays"][0].items() if turns}
    assert jinx_cards and all(code.startswith(("OGN", "OGS")) for code in jinx_cards)
    assert "OGN-030" not in game["plays"][1]  # Jinx, Demolitionist is only in Jinx's deck
    capsys.readouterr()
    assert run("replay", str(records), "--index", "2").code == 0
    out = capsys.readouterr().out
    assert out.startswith("Setup: duel (seed 9)")
    assert out.rstrip().endswith(f"log hash {game['hash'][:16]} matches the record")
    game["seed"] = 10
    (tmp_path / "bad.jsonl").write_text(json.dumps(game) + "\n")
    result = run("replay", str(tmp_path / "bad.jsonl"))
    assert result.code == 1 and "does not match its record" in result.err and "log hash" in result.err
    many = run("replay", str(records))
    assert many.code == 1 and "holds 3 records: choose one with --index K" in many.err
    (tmp_path / "odd.jsonl").write_text(json.dumps(game) + "\n" + "{not json\n")
    odd = run("replay", str(tmp_path / "odd.jsonl"), "--index", "2")
    assert odd.code == 1 and "odd.jsonl:2: not a JSON record" in odd.err
    (tmp_path / "odd.jsonl").write_text(json.dumps({**game, "seed": "nine"}) + "\n")
    odd = run("replay", str(tmp_path / "odd.jsonl"))
    assert odd.code == 1 and "odd.jsonl:1: field 'seed' must be a whole number, not text" in odd.err
    (tmp_path / "odd.jsonl").write_text(json.dumps({**game, "agents": ["clairvoyant"] * 2}) + "\n")
    odd = run("replay", str(tmp_path / "odd.jsonl"))
    assert odd.code == 1 and "unknown agent 'clairvoyant'" in odd.err


def test_hostile_records_are_refused_naming_the_line_and_field(tmp_path: Path) -> None:
    good = {"index": 0, "seed": 5, "mode": "duel", "decks": DUEL, "agents": ["random", "random"], "hash": "00"}
    path = tmp_path / "r.jsonl"
    cases = {
        "[" * 100_000 + "]" * 100_000: "r.jsonl:1: not a record: JSON nested too deeply to read",
        '{"seed": ' + "9" * 5000 + "}": "r.jsonl:1: not a record: a number with more than 4,300 digits",
        json.dumps({**good, "seed": "5"}): "r.jsonl:1: field 'seed' must be a whole number, not text",
        json.dumps({**good, "seed": 5.5}):
            "r.jsonl:1: field 'seed' must be a whole number, not a number with a fraction",
        json.dumps({**good, "seed": True}): "r.jsonl:1: field 'seed' must be a whole number, not true/false",
        json.dumps({**good, "seed": 10 ** 30}): "r.jsonl:1: field 'seed' must be a whole number of at most 64 bits, "
                                                "not one of 100 bits",
        json.dumps({**good, "index": -1}): "r.jsonl:1: field 'index' must be a whole number from 0, not -1",
        json.dumps({**good, "mode": 3}): "r.jsonl:1: field 'mode' must be text, not 3",
        json.dumps({**good, "decks": None}): "r.jsonl:1: field 'decks' must be a list of text, not null",
        json.dumps({**good, "agents": [1, 2]}): "r.jsonl:1: field 'agents' must be a list of text, not one holding "
                                                "a whole number",
        json.dumps({**good, "agents": []}): "r.jsonl:1: field 'agents' must be a list of text, not an empty list",
        json.dumps({**good, "hash": 5}): "r.jsonl:1: field 'hash' must be text, not 5",
        "\n" + json.dumps(good) + "\n" + json.dumps({**good, "index": 1, "error": {}}):
            "r.jsonl:3: field 'error' must be text, not an object",
    }
    for text, message in cases.items():
        path.write_text(text + "\n")
        result = run("replay", str(path))
        assert (result.code, result.err.strip()) == (1, f"error: {tmp_path}/{message}"), text[:80]
    path.write_bytes(json.dumps(good).encode() + b"\n\xff\n")
    assert run("replay", str(path)).err.strip() == f"error: {path}:2: not UTF-8 text (invalid start byte)"


def test_parquet_records_are_read_by_pyarrow_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet records need pyarrow (the data extra)")
    path = tmp_path / "run.parquet"
    assert run("simulate", "--quiet", "--mode", "match", "--decks", *DUEL, "--games", "2", "--workers", "1",
               "--records", str(path)).code == 0
    table = pq.read_table(str(path))
    assert table.num_rows == 2
    assert {"seed", "decks", "winners", "turns", "actions", "hash", "plays", "wins", "games"} <= set(table.column_names)
    row = table.to_pylist()[1]
    assert row["mode"] == "match" and row["games"] >= 2 and sum(row["wins"]) + row["draws"] == row["games"]
    capsys.readouterr()
    assert run("replay", str(path), "--index", "1").code == 0
    assert "matches the record" in capsys.readouterr().out


def test_progress_lines_when_not_a_terminal_and_none_when_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "LINE_EVERY", 0.0)
    result = run("simulate", "--decks", *DUEL, "--games", "2", "--workers", "1")
    assert result.code == 0
    lines = result.err.splitlines()
    assert lines and lines[-1].startswith("simulate duel: 2/2 games (100%)") and "games/s" in lines[-1]
    assert "Jinx" in lines[-1] or "Viktor" in lines[-1]  # wins so far
    quiet = run("simulate", "--quiet", "--decks", *DUEL, "--games", "2", "--workers", "1")
    assert quiet.code == 0 and quiet.err == ""


def test_a_terminal_gets_a_progress_bar() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = progress.feedback(10, "simulate duel", quiet=False, stream=screen)
    assert isinstance(bar, progress.Bar)
    bar.update(4, "Jinx 3, Viktor 1")
    bar.close()
    assert "4/10" in screen.getvalue() and "Jinx 3, Viktor 1" in screen.getvalue()
    assert "games/s" in screen.getvalue()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_every_finished_game_and_says_so(tmp_path: Path, workers: str) -> None:
    records, log = tmp_path / "run.jsonl", tmp_path / "run.log"
    command = [sys.executable, "-m", "riftscript.tools.cli", "simulate", "--decks", *DUEL, "--games", "100000",
               "--workers", workers, "--json", "--records", str(records), "--log", str(log)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert child.stdout is not None and child.stderr is not None
    shown = [child.stdout.readline() for _ in range(3)]  # three games finished
    child.send_signal(signal.SIGINT)
    asked = time.monotonic()
    shown += child.stdout.read().splitlines()  # through the same buffer as readline
    err = child.stderr.read()
    child.wait(timeout=60)
    stopped = time.monotonic() - asked
    games = [json.loads(line) for line in shown if line.strip()]
    assert child.returncode == 130
    assert f"interrupted after {len(games)} of 100000 games" in err
    assert stopped < 10  # stops within a second on an idle machine; generous here for a busy one
    assert len(records.read_text().splitlines()) == len(games)  # --records flushed
    assert log.read_text().count("=== game ") == len(games)  # --log flushed
    assert sorted(g["index"] for g in games) == [g["index"] for g in games]


def test_tournament_plays_every_pairing_in_every_seat_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "t.json"
    capsys.readouterr()
    result = run("tournament", "--quiet", "--decks", *THREE, "--games", "2", "--workers", "1", "--json", str(report),
                 "--csv", str(tmp_path / "csv"), "--records", str(tmp_path / "t.jsonl"))
    assert result.code == 0
    table = capsys.readouterr().out
    assert "win rate of the row deck against the column deck" in table and "first player won" in table
    data = json.loads(report.read_text())
    assert data["games_played"] == 6 and len(data["pairings"]) == 3 and all(p["games"] == 2 for p in data["pairings"])
    assert len(data["matrix"]) == 6
    for cell in data["matrix"]:
        assert cell["games"] == 2 and 0 <= cell["low"] <= cell["win_rate"] <= cell["high"] <= 1
        mirror = next(m for m in data["matrix"] if (m["deck"], m["opponent"]) == (cell["opponent"], cell["deck"]))
        assert cell["wins"] + mirror["wins"] + cell["draws"] == 2
    games = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert len({tuple(g["decks"]) for g in games}) == 6  # each pairing in both seat orders
    for pairing in data["pairings"]:
        mine = [g for g in games if sorted(g["decks"]) == sorted(pairing["decks"])]
        assert pairing["mean_turns"] == sum(g["turns"] for g in mine) / 2
        assert pairing["mean_actions"] == sum(g["actions"] for g in mine) / 2
    assert data["first_player"]["games"] == 6
    jinx = [c for c in data["cards"] if c["deck"] == "Jinx Champion Deck"]
    assert {c["code"] for c in jinx} >= {"OGN-030", "OGN-169"} and all(c["games"] == 4 for c in jinx)
    played = next(c for c in jinx if c["games_played"])
    assert played["average_turn"] > 0 and played["plays"] >= played["games_played"]
    seated = [(g, g["decks"].index("Jinx Champion Deck")) for g in games if "Jinx Champion Deck" in g["decks"]]
    with_card = [(g, seat) for g, seat in seated if played["code"] in g["plays"][seat]]
    assert played["games_played"] == len(with_card)  # counted from the event log's play events
    won = sum(seat in g["winners"] for g, seat in with_card)
    assert played["win_rate_played"] == won / len(with_card)
    turns = [t for g, seat in with_card for t in g["plays"][seat][played["code"]]]
    assert played["average_turn"] == sum(turns) / len(turns)
    for name in ("decks", "matrix", "pairings", "cards"):
        header = (tmp_path / "csv" / f"{name}.csv").read_text().splitlines()[0]
        assert header.startswith(("deck,", "decks,"))


def test_tournament_heatmap_pictures(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="heatmaps need matplotlib (the plot extra)")
    png, svg = tmp_path / "heat.png", tmp_path / "heat.svg"
    assert run("tournament", "--quiet", "--decks", *THREE, "--games", "1", "--workers", "1", "--cards", "0",
               "--png", str(png), "--svg", str(svg)).code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = svg.read_text()
    assert text.lstrip().startswith(("<?xml", "<svg")) and "</svg>" in text


def test_a_baseline_identical_to_the_deck_shows_no_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = load_catalog().decks["Jinx Champion Deck"][1]
    mine = tmp_path / "mine.yaml"
    mine.write_text(Path(source).read_text().replace("name: Jinx Champion Deck", "name: Jinx Mine"))
    report = tmp_path / "ab.json"
    assert run("tournament", "--quiet", "--decks", str(mine), "Viktor Champion Deck", "Annie Starter Deck",
               "--games", "2", "--workers", "1", "--cards", "0", "--vs-baseline", "Jinx Champion Deck",
               "--json", str(report)).code == 0
    ab = json.loads(report.read_text())["baseline"]
    assert ab["deck_result"]["games"] == ab["baseline_result"]["games"] == 4  # the same opponents and seeds
    assert ab["difference"] == 0 and ab["low"] < 0 < ab["high"] and ab["moved"] is None
    assert "no change in win rate shown at 95%" in capsys.readouterr().out


def test_the_ab_answer_says_which_way_the_win_rate_moved() -> None:
    moved = {"deck": "mine.yaml", "baseline": "base.yaml", "difference": 0.1, "low": 0.02, "high": 0.18,
             "moved": "up", "deck_result": {"games": 400, "win_rate": 0.6, "low": 0.55, "high": 0.65},
             "baseline_result": {"games": 400, "win_rate": 0.5, "low": 0.45, "high": 0.55}}
    sentence = ab_sentence(moved)
    assert "mine.yaml won 60% [55-65] of 400 games; base.yaml won 50% [45-55]" in sentence
    assert sentence.endswith("difference +10.0 points [+2.0, +18.0]: the change moved the win rate up")


def test_a_missing_extra_is_named_before_any_game_is_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for module in ("ray", "pyarrow", "matplotlib"):
        monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    ray = run("simulate", "--quiet", "--decks", *DUEL, "--games", "1", "--backend", "ray")
    assert ray.code == 1 and "--backend ray needs Ray: pip install 'riftscript[cluster]'" in ray.err
    parquet = run("simulate", "--quiet", "--decks", *DUEL, "--games", "1", "--records", str(tmp_path / "r.parquet"))
    assert parquet.code == 1 and "pip install 'riftscript[data]'" in parquet.err
    picture = run("tournament", "--quiet", "--decks", *THREE, "--games", "1", "--png", str(tmp_path / "h.png"),
                  "--json", str(tmp_path / "t.json"))
    assert picture.code == 1 and "pip install 'riftscript[plot]'" in picture.err
    assert not (tmp_path / "t.json").exists()  # no report: it stopped before playing


def test_multiplayer_tournaments_seat_teammates_who_may_play_together() -> None:
    """491.8.i: Annie and Jinx both bring Zaun Warrens, so in 2v2 they always sit on opposite teams."""
    cat = load_catalog()
    assert cat.plugins is not None
    names = ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", "Jinx Champion Deck"]
    entries = tuple(load_deck(cat, n) for n in names)
    plan = make_plan(cat, cat.plugins.modes()["magma-chamber"], entries, tuple(names), ("random",) * 4, 0, 8, False)
    (table,) = plan.tables
    assert 0 < len(table.orders) < 24
    for order in table.orders:
        annie, jinx = order.index(0), order.index(3)
        assert annie % 2 != jinx % 2  # seats 1+3 and 2+4 are the teams
    five = (*entries, load_deck(cat, "Lux Starter Deck"))
    wider = make_plan(cat, cat.plugins.modes()["magma-chamber"], five, (*names, "Lux"), ("random",) * 4, 0, 8, False)
    assert len(wider.tables) + len(wider.unseatable) == 5  # every 4 of the 5 decks: played, or said why not
    assert (0, 2, 3, 4) in wider.unseatable  # Annie, Jinx, Lee Sin, Lux: no seating keeps teammates apart
    war = make_plan(cat, cat.plugins.modes()["war"], entries, tuple(names), ("random",) * 4, 0, 24, False)
    assert len(war.tables[0].orders) == 24 and war.total == 24
    assert {war.spec(i).refs[0] for i in range(24)} == set(names)  # every deck sits first


def test_wilson_and_newcombe_intervals() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert round(wilson(0, 10)[1], 4) == 0.2775
    difference, low, high = newcombe(56, 70, 48, 80)  # Newcombe (1998), example: 0.0524 to 0.3339
    assert (round(difference, 4), round(low, 4), round(high, 4)) == (0.2, 0.0524, 0.3339)


def test_a_failing_game_is_recorded_and_replays_to_the_same_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    cat = load_catalog()
    decks = tuple(load_deck(cat, d) for d in DUEL)
    plan = engine.FixedPlan("duel", decks, tuple(DUEL), ("random", "random"), 3, 1)
    stuck = engine.play(cat, engine.Job(plan, checked=True, max_actions=40), plan.spec(0))
    assert stuck["error"] == "stuck: no end after 40 actions" and stuck["actions"] == 40
    path = tmp_path / "failures.jsonl"
    path.write_text(json.dumps(stuck) + "\n")
    capsys.readouterr()
    assert run("replay", str(path)).code == 0
    assert "the recorded failure happens again at action 40" in capsys.readouterr().out

    calls = {"n": 0}

    def broken(game: Any, cards: Any, counts: Any) -> list[str]:
        calls["n"] += 1
        return ["a card is in two places"] if calls["n"] == 30 else []

    monkeypatch.setattr(engine, "check", broken)
    failed = engine.play(cat, engine.Job(plan, checked=True), plan.spec(0))
    assert failed["error"].startswith("InvariantError: action 29 ") and "a card is in two places" in failed["error"]
    path.write_text(json.dumps(failed) + "\n")
    calls["n"] = 0
    assert run("replay", str(path)).code == 0
    assert "the recorded failure happens again at action 29" in capsys.readouterr().out
    calls["n"] = -1000  # the failure does not happen again: a mismatch
    result = run("replay", str(path))
    assert result.code == 1 and "does not match its record" in result.err


def test_the_soak_covers_every_mode_and_writes_no_failures_for_clean_games(tmp_path: Path) -> None:
    failures = tmp_path / "failures.jsonl"
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "soak.py"), "--games", "6", "--workers", "1",
                             "--quiet", "--failures", str(failures)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    for mode in ("duel", "match", "match-bo5", "skirmish", "war", "magma-chamber"):
        assert any(line.split()[:2] == [mode, "1"] for line in result.stdout.splitlines()), result.stdout
    assert "0 failures (0 stuck) of 6 games" in result.stdout
    assert failures.read_text() == ""


@pytest.fixture(scope="module")
def local_ray() -> Any:
    """One local Ray instance for this module's tests; shut down after them, so later tests that fork
    worker processes never fork a process running Ray's threads."""
    ray = pytest.importorskip("ray", reason="the Ray backend needs ray (the cluster extra; the test extra has it)")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_AUTH_MODE", "disabled")
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)  # a new one, always
        yield ray
        ray.shutdown()


def test_the_ray_backend_plays_the_same_games(local_ray: Any, capsys: pytest.CaptureFixture[str]) -> None:
    here = simulate_json(capsys, "--decks", *DUEL, "--games", "4", "--seed", "11", "--workers", "1")
    on_ray = simulate_json(capsys, "--decks", *DUEL, "--games", "4", "--seed", "11", "--backend", "ray", "--batch", "1")
    assert on_ray == here
