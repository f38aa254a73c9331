"""``riftscript serve`` over HTTP: playing, saving, replaying, the workshop, and what a browser can't do."""
from __future__ import annotations

import html
import io
import json
import re
import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[test]'")
pytest.importorskip("multipart", reason="the web extra is not installed: pip install -e '.[test]'")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx's successor
    from starlette.testclient import TestClient

from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.engine.game import Game
from riftscript.tools import cli
from riftscript.tools.web import command, replay
from riftscript.tools.web.app import create_app
from riftscript.tools.web.board import narration

JINX, VIKTOR = "Jinx Champion Deck", "Viktor Champion Deck"
TYPO_CARD = """\
schema_version: 1
code: MYS-001
name: Ember Squire
type: unit
domains: [fury]
cost: {energy: 3}
might: 3
keywords: [Tank]
abilities:
  - kind: triggered
    when: {event: attack, subject: self}
    effect:
      type: deal_damge
      amount: 1
      target: {pick: all, what: unit, where: {controller: enemy, location: here}}
"""
CARD = TYPO_CARD.replace("deal_damge", "deal_damage")
SCENARIO = """\
schema_version: 1
name: Ember Squire pings a defender when it attacks
cards: [MYS-001]
rules: ["466.2.c.1"]
setup:
  battlefields: [{card: OGN-280, as: grove, controller: B, units: [{card: OGN-052, as: poro, owner: B}]}]
  A: {base: [{card: MYS-001, as: squire}]}
steps:
  - {do: move, player: A, units: [squire], to: grove}
  - {do: pass, player: A}
  - {do: pass, player: B, expect: {damage: {poro: %d}}}
"""


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture()
def client(tmp_path: Path, catalog: Catalog) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path, catalog, allowed_hosts=["testserver"])) as c:
        yield c


def start(client: TestClient, seats: tuple[str, str] = ("person", "greedy"), seed: int = 3,
          decks: tuple[str, str] = (JINX, VIKTOR)) -> Any:
    return client.post("/play", data={"mode": "duel", "deck0": decks[0], "deck1": decks[1], "seat0": seats[0],
                                      "seat1": seats[1], "seed": str(seed)}, follow_redirects=False)


def buttons(page: str) -> list[tuple[str, str]]:
    return re.findall(r'name="n" value="(\d+)" class="action">(.*?)</button>', page)


def version(page: str) -> str:
    found = re.search(r'name="v" value="(\d+)"', page)
    assert found, "no actions on the page"
    return found.group(1)


def passive(page: str) -> str:
    """The quickest way to an ending: pass and end the turn whenever possible (the agent wins)."""
    labels = buttons(page)
    return next((i for i, label in labels if label in ("end your turn", "pass", "keep your hand")), labels[0][0])


def play_to_the_end(client: TestClient, url: str, limit: int = 400) -> str:
    for _ in range(limit):
        page = client.get(url).text
        if 'id="outcome"' in page:
            return page
        answer = client.post(url + "/act", data={"n": passive(page), "v": version(page)}, follow_redirects=False)
        assert answer.status_code == 303 and "note=" not in answer.headers["location"]
    raise AssertionError("the game did not end")


def test_a_duel_is_played_to_the_end_with_buttons(client: TestClient) -> None:
    answer = start(client)
    assert answer.status_code == 303
    url = answer.headers["location"]
    first = client.get(url).text
    assert "Jinx (you)" in first and "keep your hand" in first  # a mulligan, in plain words
    page = play_to_the_end(client, url)
    outcome = re.search(r'id="outcome">Game over: (.*?)<', page)
    assert outcome and re.match(r"(Jinx|Viktor) won after \d+ turns?", outcome.group(1))
    state = client.get(url + "/state.json").json()
    assert state["over"] and state["winners"] and state["actions"] == []


def test_the_page_shows_what_the_seat_may_see_and_its_actions_in_words(client: TestClient, catalog: Catalog) -> None:
    url = start(client).headers["location"]
    page = client.get(url).text
    while "Runes (" not in page:  # on to a main phase of the viewer's, with runes to use
        client.post(url + "/act", data={"n": passive(page), "v": version(page)})
        page = client.get(url).text
    gid, _ = url.split("/")[2:4]
    game = Game.from_json(catalog, json.dumps(json.loads(next(Path(client.app.state.web.games.root).glob(
        f"{gid}.json")).read_text())["game"]))
    hidden = {game.name(c) for c in game.state.players[1].hand} - {game.name(c) for c in game.state.players[0].hand}
    public = {game.name(o) for o, obj in game.state.objs.items() if obj.zone in ("board", "trash", "legend", "champion")}
    assert hidden - public, "the opponent should hold a card the viewer can't see"
    for name in hidden - public:
        assert name not in page, f"{name} is in the opponent's hand only, yet the page names it"
    assert re.search(r"hand \d+", page)  # the opponent's hand is a count
    labels = [label for _, label in buttons(page)]
    assert any(label.startswith("exhaust ") for label in labels)
    assert re.search(r'<details class="group runes"><summary>Runes \(\d+\)</summary>', page)  # collapsed


def test_a_game_survives_a_restart_of_the_server(tmp_path: Path, catalog: Catalog) -> None:
    with TestClient(create_app(tmp_path, catalog, allowed_hosts=["testserver"])) as first:
        url = start(first).headers["location"]
        for _ in range(3):
            page = first.get(url).text
            first.post(url + "/act", data={"n": passive(page), "v": version(page)})
        before = first.get(url + "/state.json").json()
    with TestClient(create_app(tmp_path, catalog, allowed_hosts=["testserver"])) as second:
        after = second.get(url + "/state.json").json()
        assert after == before and after["moves"] > 3
        play_to_the_end(second, url)


def test_one_seat_cannot_act_for_another(client: TestClient) -> None:
    answer = start(client, seats=("person", "person"))
    links = re.findall(r'href="(/play/[^"]+)"', answer.text)
    assert answer.status_code == 200 and len(links) == 2 and links[0] != links[1]
    first, second = links
    state = client.get(first + "/state.json").json()
    waiting, deciding = (second, first) if state["mine"] else (first, second)
    page = client.get(deciding).text
    refused = client.post(waiting + "/act", data={"n": "0", "v": version(page)}, follow_redirects=False)
    assert refused.headers["location"].endswith("?note=illegal")
    assert client.get(first + "/state.json").json() == state  # nothing changed
    gid, token = first.split("/")[2:4]
    forged = token[:-1] + ("y" if token.endswith("x") else "x")  # always differs from the real token
    for bad in (f"/play/{gid}/{forged}", f"/play/{'A' * 20}/{token}", f"/play/..%2F..%2Fetc/{token}"):
        assert client.get(bad).status_code == 404
        assert client.post(bad + "/act", data={"n": "0", "v": "0"}).status_code == 404


def test_a_stale_page_does_not_act_twice(client: TestClient) -> None:
    url = start(client).headers["location"]
    page = client.get(url).text
    n, v = passive(page), version(page)
    client.post(url + "/act", data={"n": n, "v": v})
    moves = client.get(url + "/state.json").json()["moves"]
    again = client.post(url + "/act", data={"n": n, "v": v}, follow_redirects=False)
    assert again.headers["location"].endswith("?note=stale")
    assert client.get(url + "/state.json").json()["moves"] == moves
    assert "The game had moved on" in client.get(again.headers["location"]).text


def test_conceding_ends_the_game(client: TestClient) -> None:
    url = start(client).headers["location"]
    client.post(url + "/concede")
    assert "Viktor won" in client.get(url).text


def test_every_mode_can_be_played_against_agents(client: TestClient, catalog: Catalog) -> None:
    assert catalog.plugins is not None
    decks = sorted(catalog.decks)
    # 2v2 teammates may share no legend or battlefield: these four decks sit apart
    seated = ["Annie Starter Deck", "Garen Starter Deck", "Lee Sin Champion Deck", JINX]
    for spec in catalog.plugins.modes().values():
        form = {"mode": spec.name, "seed": "5"}
        for seat in range(spec.players):
            form[f"deck{seat}"] = seated[seat] if spec.players > 2 else decks[seat]
            form[f"seat{seat}"] = "person" if seat == 0 else "first"
        answer = client.post("/play", data=form, follow_redirects=False)
        assert answer.status_code == 303, (spec.name, answer.text)
        page = client.get(answer.headers["location"]).text
        assert 'id="actions"' in page or 'id="outcome"' in page, spec.name


def test_bodies_over_the_limits_and_foreign_hosts_are_refused(client: TestClient) -> None:
    assert client.post("/workshop/check", content=b"x" * (600 * 1024)).status_code == 413
    assert client.post("/play", content=b"x" * (20 * 1024)).status_code == 413
    streamed = client.post("/workshop/check", content=iter([b"x" * (300 * 1024)] * 2))  # no Content-Length
    assert streamed.status_code == 413
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    headers = client.get("/").headers
    assert "script-src 'self'" in headers["content-security-policy"] and headers["referrer-policy"] == "no-referrer"


def check(client: TestClient, card: str, scenarios: str = "") -> dict[str, Any]:
    answer = client.post("/workshop/check", json={"card": card, "scenarios": scenarios})
    assert answer.status_code == 200
    result: dict[str, Any] = answer.json()
    return result


def test_the_workshop_shows_a_typo_at_its_line_then_the_text(client: TestClient) -> None:
    typo = check(client, TYPO_CARD)
    assert not typo["ok"]
    assert [(p["line"], p["col"]) for p in typo["problems"]] == [(13, 13)]
    assert "did you mean 'deal_damage'" in typo["problems"][0]["message"]
    fixed = check(client, CARD, SCENARIO % 1 + "---\n")
    assert fixed["ok"] and fixed["code"] == "MYS-001"
    assert "When I attack, deal 1 to all enemy units here." in fixed["text"]
    assert fixed["picture"].startswith("data:image/svg+xml;base64,")
    refusals = {d["name"]: d["refused"] for d in fixed["decks"]}
    assert refusals[JINX] == "" and "domain identity" in refusals[VIKTOR]


def test_the_workshop_runs_the_scenarios_and_refuses_hostile_yaml(client: TestClient) -> None:
    passed = check(client, CARD, SCENARIO % 1)
    assert [(s["name"], s["passed"]) for s in passed["scenarios"]] == [("Ember Squire pings a defender when it attacks", True)]
    failed = check(client, CARD, SCENARIO % 2)
    assert not failed["scenarios"][0]["passed"] and "scenarios.yaml" in failed["scenarios"][0]["message"]
    hostile = check(client, "!!python/object:os.system {}\n")
    assert not hostile["ok"] and hostile["problems"][0]["line"] == 1
    bomb = "a: &a [" + ",".join(["x"] * 50) + "]\n" + "".join(
        f"{k}: &{k} [" + ",".join([f"*{p}"] * 50) + "]\n" for p, k in zip("abcd", "bcde"))
    assert "refused" in " ".join(p["message"] for p in check(client, bomb)["problems"])


def test_play_it_starts_a_game_with_the_card_in_the_deck(client: TestClient) -> None:
    refused = client.post("/workshop/play", data={"card": CARD, "deck": VIKTOR, "agent": "greedy"})
    assert refused.status_code == 400 and "domain identity" in refused.text
    answer = client.post("/workshop/play", data={"card": CARD, "deck": JINX, "opponent": VIKTOR, "agent": "greedy",
                                                 "seed": "1"}, follow_redirects=False)
    assert answer.status_code == 303
    url = answer.headers["location"]
    gid = url.split("/")[2]
    saved = json.loads((client.app.state.web.games.root / f"{gid}.json").read_text())
    assert saved["decks"][0]["main"].count("MYS-001") == 3 and saved["card"] == CARD
    play_to_the_end(client, url)


def recorded_game(client: TestClient) -> tuple[str, dict[str, Any]]:
    url = start(client).headers["location"]
    play_to_the_end(client, url)
    gid = url.split("/")[2]
    text = (client.app.state.web.games.root / f"{gid}.json").read_text()
    return text, json.loads(text)


def upload(client: TestClient, text: str) -> Any:
    return client.post("/replay", files={"file": ("game.json", io.BytesIO(text.encode()), "application/json")},
                       follow_redirects=False)


def test_a_saved_game_replays_step_by_step(client: TestClient, catalog: Catalog) -> None:
    text, saved = recorded_game(client)
    answer = upload(client, text)
    assert answer.status_code == 303
    url = answer.headers["location"]
    steps = saved["moves"]
    end = client.get(url + f"?step={steps}").text
    assert f"step {steps} of {steps}" in end and 'id="outcome"' in end
    assert Game.from_json(catalog, json.dumps(saved["game"])).log_hash()[:16] in end
    forward = client.get(url + "?step=2").text
    back = client.get(url + "?step=1").text
    assert "step 2 of" in forward and "step 1 of" in back
    assert re.search(r'Step 1: (Jinx|Viktor): (keep your hand|set aside)', back)
    as_jinx = client.get(url + "?step=1&view=1").text
    assert "Jinx (you)" in as_jinx


def test_an_engine_save_records_and_a_simulate_log_replay(client: TestClient, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    _, saved = recorded_game(client)
    engine = json.dumps(saved["game"])
    assert client.get(upload(client, engine).headers["location"] + f"?step={saved['moves']}").text.count('id="outcome"') == 1
    log = tmp_path / "sim.log"
    capsys.readouterr()
    assert cli.main(["simulate", "--decks", JINX, VIKTOR, "--games", "2", "--agents", "greedy", "--seed", "4",
                     "--log", str(log), "--json"]) == 0
    records = io.StringIO(capsys.readouterr().out)
    answer = upload(client, log.read_text())
    assert answer.status_code == 303 and not answer.headers["location"].endswith("/0")
    listing = client.get(answer.headers["location"]).text
    assert "game 1, seed 4" in listing and "game 2, seed 5" in listing
    page = client.get(answer.headers["location"] + "/1?step=9999").text
    assert "played again with greedy vs greedy agents, same log hash" in page and 'id="outcome"' in page
    lines = [dict(json.loads(line), decks=[JINX, VIKTOR], agents="greedy") for line in records.getvalue().splitlines()]
    answer = upload(client, "\n".join(json.dumps(line) for line in lines))
    page = client.get(answer.headers["location"] + "/0?step=9999").text
    assert lines[0]["hash"][:16] in page
    tampered = re.sub(r"log hash [0-9a-f]+", "log hash 0123456789abcdef", log.read_text())
    text_only = client.get(upload(client, tampered).headers["location"] + "/0?step=2").text
    assert "no installed agent reproduces this log" in text_only and "step 2 of" in text_only
    assert "== Turn 2:" in text_only and "== Turn 3:" not in text_only  # the play-by-play, a turn at a time
    bad = upload(client, "hello")
    assert bad.status_code == 400 and "not a game RiftScript can replay" in bad.text


def test_serve_says_how_to_install_the_web_extra(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(command, "NEEDS", ("starlette", "no_such_module_for_riftscript"))
    assert cli.main(["serve"]) == 1
    assert "pip install 'riftscript[web]'" in capsys.readouterr().err
    assert command.loopback("127.0.0.1") and command.loopback("::1") and not command.loopback("0.0.0.0")


def test_the_seed_is_not_on_a_players_page_until_the_game_is_over(client: TestClient) -> None:
    """The seed decides every shuffle: with it a player could rebuild the opponent's hand and deck order."""
    url = start(client, seed=424242).headers["location"]
    first = client.get(url).text
    assert "Setup: duel:" in first and "424242" not in first
    assert "424242" not in json.dumps(client.get(url + "/state.json").json())
    play_to_the_end(client, url)
    gid = url.split("/")[2]
    saved = json.loads(next(Path(client.app.state.web.games.root).glob(f"{gid}.json")).read_text())["game"]
    game = Game.from_json(load_catalog(), json.dumps(saved))
    assert game.over and narration(game)[0].startswith("Setup: duel (seed 424242):")


def refusal(answer: Any) -> str:
    """The message of a page that refuses a request."""
    found = re.search(r'id="error">(.*?)</pre>', answer.text, re.S)
    assert found is not None, answer.text[:300]
    return html.unescape(found.group(1))


def engine_save(catalog: Catalog, change: Any = None) -> str:
    game = Game.new(catalog, [JINX, VIKTOR], seed=4)
    for _ in range(20):
        game.apply(game.legal_actions()[0])
    data = json.loads(game.to_json())
    if change is not None:
        change(data)
    return json.dumps(data)


def test_json_nested_a_hundred_thousand_deep_or_with_huge_numbers_is_refused(client: TestClient) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    checked = client.post("/workshop/check", content='{"card": ' + deep + "}",
                          headers={"content-type": "application/json"})
    assert checked.status_code == 400 and checked.json()["error"].startswith("the JSON is nested too deeply; send JSON")
    assert client.post("/workshop/check", content=deep).status_code == 400
    assert client.post("/workshop/check", json={"card": ["not text"]}).status_code == 400
    for text in (deep, '{"a":' * 50_000 + "1" + "}" * 50_000):
        answer = client.post("/replay", data={"text": text}, follow_redirects=False)
        assert (answer.status_code, refusal(answer)) == (400, "the file's JSON is nested too deeply to be a game")
    assert refusal(upload(client, "[" * 200_000 + "]" * 200_000)) == "the file's JSON is nested too deeply to be a game"
    nested = upload(client, '{"seed": 1, "decks": ' + "[" * 70 + "]" * 70 + "}")
    assert refusal(nested) == "the file's JSON nests more than 64 levels deep, which no game does"
    huge = upload(client, '{"seed": ' + "9" * 5000 + ', "decks": []}')
    assert refusal(huge) == "the file holds a number with more than 4,300 digits, which no game has"


def test_the_workshop_refuses_a_huge_hex_number_at_its_line(client: TestClient) -> None:
    result = check(client, CARD.replace("might: 3", "might: 0x" + "f" * 4000))
    assert [(p["line"], p["col"], p["message"]) for p in result["problems"]] == [
        (7, 8, "an integer of 4,817 decimal digits is refused (at most 4,300)")]


def test_a_malformed_save_is_refused_when_uploaded_not_when_viewed(client: TestClient, catalog: Catalog) -> None:
    def deck(value: Any) -> Any:
        def change(data: dict[str, Any]) -> None:
            data["log"][0]["decks"][0] = value
        return change

    def setup(key: str, value: Any) -> Any:
        return lambda data: data["log"][0].update({key: value})

    cases = {
        deck({"name": ["x"], "legend": 5}): "a deck in the file: 'name' must be text",
        deck({"name": "x", "legend": "OGN-251", "champion": "OGN-030", "main": [1], "runes": [], "battlefields": []}):
            "deck 'x': 'main' must be a list of card codes",
        deck({"name": "x", "legend": "OGN-251", "champion": "OGN-030", "main": ["OGN-003"] * 1000, "runes": [],
              "battlefields": []}): "duel game, seed 4: deck 'x' is not legal:",
        deck(7): "deck 7 is not an installed deck, and the file doesn't list its cards",
        setup("mode", {"x": 1}): "{'x': 1} game, seed 4: mode \"{'x': 1}\" is not installed",
        setup("seed", 10 ** 40): "a game's seed has 133 bits; seeds are 64-bit numbers",
        lambda data: data["log"].append({"t": "action", "action": [1]}):
            "duel game, seed 4: action 21 is list, not an action",
    }
    for change, message in cases.items():
        answer = upload(client, engine_save(catalog, change))
        assert answer.status_code == 400 and refusal(answer).startswith(message), refusal(answer)
    assert client.get(upload(client, engine_save(catalog)).headers["location"] + "?step=20").status_code == 200

    def garbage(data: dict[str, Any]) -> None:
        for event in data["log"]:
            if event["t"] == "action":
                event["action"] = {"type": "play", "card": 10 ** 6, "targets": [[["deep"]]]}

    url = upload(client, engine_save(catalog, garbage)).headers["location"]
    assert client.get(url).status_code == 200  # the game as set up
    stepped = client.get(url + "?step=5")
    assert (stepped.status_code, refusal(stepped)) == (
        400, "step 1 can't be replayed: the file's action is not one the game allows there")


def test_a_record_with_slow_agents_is_given_up_on_in_bounded_time(client: TestClient,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "SECONDS_PER_RECORD", 0.2)
    calls: list[Any] = []
    real = replay._play
    monkeypatch.setattr(replay, "_play", lambda *args: calls.append(args) or real(*args))
    record = {"seed": 1, "mode": "duel", "decks": [JINX, VIKTOR], "agents": ["mcts-hard", "mcts-hard"], "hash": "00"}
    url = upload(client, json.dumps(record)).headers["location"]
    for _ in range(2):
        answer = client.get(url)
        assert answer.status_code == 400
        assert refusal(answer) == ("record 1: duel, seed 1: playing the game again with mcts-hard vs mcts-hard agents "
                                   "takes more than 0.2 s, the most a replay is given here; replay the record on the "
                                   "command line instead: riftscript replay RECORDS")
    assert len(calls) == 1  # the failure is kept with the replay, not played again on every view
    wrong = upload(client, json.dumps({**record, "agents": ["greedy", "nobody"]}))
    assert refusal(wrong).startswith("record 1: duel, seed 1: unknown agent 'nobody'; installed: ")
    assert refusal(upload(client, json.dumps({**record, "agents": ["greedy"] * 3}))) == \
        "record 1: duel, seed 1: 3 agents for 2 players"
