"""The interaction audit (``riftscript audit``) on cards of our own whose interactions we know.

Each custom card is written as YAML into a temporary folder and loaded with the installed sets:
a mandatory loop (a unit that buffs itself whenever it spends its buff, and the reverse), an
optional loop across two cards, a trigger listening to an event nothing causes, and two custom
keywords of which one sets off the other.  The runtime check plays the mandatory loop with the
kernel and compares what fires with what the audit predicted.
"""
from __future__ import annotations

import ast
import json
from collections import Counter
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from riftscript.core.engine.builder import Builder
from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.tools import audit
from tests.clihelp import run

CARDS = {
    "TST-001.yaml": """
schema_version: 1
code: TST-001
name: Restless Engine
type: unit
domains: [fury]
cost: {energy: 0}
might: 1
abilities:
  - kind: triggered
    when: {event: played, subject: self}
    effect: {type: buff, target: self}
  - kind: triggered
    when: {event: buff, subject: self}
    effect: {type: spend_buff, target: self}
  - kind: triggered
    when: {event: spend_buff, subject: self}
    effect: {type: buff, target: self}
""",
    "TST-002.yaml": """
schema_version: 1
code: TST-002
name: Echo Scholar
type: unit
domains: [mind]
cost: {energy: 2}
might: 2
abilities:
  - kind: triggered
    when: {event: discard, player: you}
    effect: {type: draw, amount: 1}
""",
    "TST-003.yaml": """
schema_version: 1
code: TST-003
name: Restless Mind
type: gear
domains: [mind]
cost: {energy: 1}
abilities:
  - kind: triggered
    when: {event: draw, player: you}
    optional: true
    effect: {type: discard, amount: 1}
""",
    "TST-004.yaml": """
schema_version: 1
code: TST-004
name: Deaf Sentinel
type: unit
domains: [order]
cost: {energy: 3}
might: 3
abilities:
  - kind: triggered
    when: {event: take_damage, subject: self}
    once_per_turn: true
    effect: {type: draw, amount: 1}
""",
    "TST-005.yaml": """
schema_version: 1
code: TST-005
name: Kindled Spark
type: unit
domains: [fury]
cost: {energy: 1}
might: 1
keywords: [Kindle, Overcharge]
""",
    "kindle.yaml": """
schema_version: 1
keyword: kindle
name: Kindle
rule: "900"
summary: When you play this, buff it.
abilities:
  - kind: triggered
    when: {event: played, subject: self}
    effect: {type: buff, target: self}
""",
    "overcharge.yaml": """
schema_version: 1
keyword: overcharge
name: Overcharge
rule: "901"
summary: When this is buffed, channel 1 rune exhausted.
abilities:
  - kind: triggered
    when: {event: buff, subject: self}
    effect: {type: channel, amount: 1, exhausted: true}
""",
}


@lru_cache(maxsize=1)
def _folder() -> Path:
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="riftscript-audit-"))
    for name, text in CARDS.items():
        (folder / name).write_text(text.lstrip(), encoding="utf-8")
    return folder


@lru_cache(maxsize=1)
def cat() -> Catalog:
    catalog = load_catalog(extra_cards=[_folder()], strict=False, cache=False)
    assert catalog.problems == []
    return catalog


@lru_cache(maxsize=1)
def graph() -> Any:
    return audit.build_graph(cat())


@lru_cache(maxsize=1)
def report() -> audit.Report:
    return audit.audit(cat(), graph())


@lru_cache(maxsize=1)
def alone() -> tuple[Catalog, Any]:
    """The test cards without the installed sets, whose cards may link any two loops of them."""
    import os

    from riftscript.core.script.registry import DISABLE_ENV

    saved = os.environ.get(DISABLE_ENV)
    os.environ[DISABLE_ENV] = ",".join(info.plugin for info in cat().sets.values() if info.plugin)
    try:
        catalog = load_catalog(extra_cards=[_folder()], strict=False, cache=False)
    finally:
        if saved is None:
            del os.environ[DISABLE_ENV]
        else:
            os.environ[DISABLE_ENV] = saved
    assert catalog.problems == [] and set(catalog.sets) <= {"TST"}
    return catalog, audit.build_graph(catalog)


def _loop_with(node: str) -> audit.Loop:
    found = [loop for loop in report().loops if node in loop.abilities]
    assert len(found) == 1, [loop.abilities for loop in report().loops]
    return found[0]


# ---------------------------------------------------------------------- the graph
def test_nodes_and_edges_come_from_the_scripts() -> None:
    G = graph()
    node = G.nodes["TST-001#1"]
    assert (node["type"], node["card"], node["name"], node["set"], node["ability_kind"], node["mode"]) == \
        ("ability", "TST-001", "Restless Engine", "TST", "triggered", "mandatory")
    assert G.has_edge("event:buff", "TST-001#1", key="buff")
    assert G.edges["event:buff", "TST-001#1", "buff"]["filters"] == "subject=self"
    assert G.has_edge("TST-001#1", "event:spend_buff", key="spend_buff")
    assert G.nodes["TST-003#0"]["mode"] == "optional"
    assert set(G.successors("TST-005#1")) == {"event:channel"}
    # keyword definitions are nodes too, and kernel procedures are event sources
    assert G.nodes["keyword:deathknell#0"]["keyword"] == "Deathknell"
    assert G.has_edge("kernel:combat", "event:attack") and G.has_edge("kernel:scoring", "event:conquer")
    assert G.has_edge("kernel:turn", "event:phase_start") and G.has_edge("kernel:chain", "event:played")


def test_kernel_sources_are_read_from_emit_calls() -> None:
    sources = audit.kernel_sources()
    assert set(sources) == set(audit.KERNEL_PROCEDURES)
    assert {"attack", "defend", "combat_end", "damaged"} <= set(sources["combat"])
    assert {"conquer", "hold", "score"} <= set(sources["scoring"])
    assert {"die"} <= set(sources["cleanup"])  # lethal damage, through actions.kill


# ---------------------------------------------------------------------- findings
def _engine_cycle() -> audit.Cycle:
    return next(c for c in _loop_with("TST-001#1").cycles if "TST-001#1" in c.abilities)


def test_mandatory_loop() -> None:
    loop = _loop_with("TST-001#1")
    assert loop.label == "mandatory"
    assert {"TST-001#1", "TST-001#2"} <= set(loop.abilities)  # with cards that buff or listen to buffs
    cycle = _engine_cycle()
    assert cycle.label == "mandatory"
    assert sorted(cycle.abilities) == ["TST-001#1", "TST-001#2"]
    assert cycle.cards == ["TST-001 Restless Engine"]
    assert set(cycle.events) == {"buff", "spend_buff"}


def test_optional_loop_is_broken_by_its_may() -> None:
    # alone: with every installed set (Unleashed), other cards link this loop to TST-001's mandatory one
    catalog, G = alone()
    found = [loop for loop in audit.audit(catalog, G).loops if "TST-002#0" in loop.abilities]
    assert len(found) == 1
    loop = found[0]
    assert "TST-003#0" in loop.abilities
    assert loop.label == "optional"
    # a report about the card shows cycles through it
    mine = audit.audit(catalog, G, audit.select(G, catalog, card="TST-002"))
    assert [l.abilities for l in mine.loops] == [loop.abilities]
    cycle = mine.loops[0].cycles[0]
    assert cycle.label == "optional" and set(cycle.abilities) == {"TST-002#0", "TST-003#0"}
    assert cycle.cards == ["TST-002 Echo Scholar", "TST-003 Restless Mind"]
    assert set(cycle.events) == {"draw", "discard"}


def test_dead_trigger() -> None:
    dead = {d.ability: d for d in report().dead}
    assert dead["TST-004#0"].event == "take_damage"
    assert dead["TST-004#0"].hint == "did you mean 'damaged'?"
    assert "TST-001#1" not in dead and "TST-002#0" not in dead


def test_keyword_interaction() -> None:
    cells = {(c.source, c.target): c for c in report().keywords}
    cell = cells[("Kindle", "Overcharge")]
    assert cell.example == ["TST-005#0", "TST-005#1"]
    assert cell.count == 1  # on installed cards; more with any card that has both keywords
    assert cell.potential == 3
    assert ("Overcharge", "Kindle") not in cells


def test_a_cause_on_itself_reaches_only_its_own_card() -> None:
    """'buff me' sets off 'when I am buffed' of the same card, not of every card."""
    H = audit.ability_graph(graph())
    assert H.has_edge("TST-005#0", "TST-005#1")
    assert not H.has_edge("TST-005#0", "TST-001#1")
    assert not H.has_edge("TST-001#2", "TST-005#1")


def test_what_a_card_does_to_itself_does_not_set_off_its_own_listener_for_another_object(tmp_path: Path) -> None:
    """An invented unit that buffs itself when another unit of yours is buffed: its own buff is about itself,
    not another unit, so it is no cycle with itself; a second such card still links to it."""
    text = CARDS["TST-001.yaml"].replace("TST-001", "TST-091").replace("Restless Engine", "Echoing Drum")
    head, _, _ = text.partition("abilities:")
    body = head + """abilities:
  - kind: triggered
    when: {event: buff, player: you, subject: {other: true}}
    effect: {type: buff, target: self}
"""
    (tmp_path / "TST-091.yaml").write_text(body.lstrip(), encoding="utf-8")
    (tmp_path / "TST-092.yaml").write_text(body.replace("TST-091", "TST-092").replace("Echoing Drum", "Second Drum")
                                           .lstrip(), encoding="utf-8")
    catalog = load_catalog(extra_cards=[tmp_path], strict=False, cache=False)
    assert catalog.problems == []
    H = audit.ability_graph(audit.build_graph(catalog))
    assert not H.has_edge("TST-091#0", "TST-091#0")
    assert H.has_edge("TST-091#0", "TST-092#0") and H.has_edge("TST-092#0", "TST-091#0")


def test_once_per_turn_and_once_per_object_bound_a_loop() -> None:
    G = graph()
    assert G.nodes["TST-004#0"]["limited"] == "once per turn"
    assert G.nodes["keyword:deathknell#0"]["limited"] == "once per object (it dies)"


def test_unread_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key the schema accepts but no engine code reads is reported with where it is used."""
    monkeypatch.setattr(audit.keys, "KERNEL_KEYS", {k: v for k, v in audit.KERNEL_KEYS.items() if k != "once_per_turn"})
    unread, docs = audit.unread_keys(cat(), codes={"TST-004", "TST-001"})
    assert [(u.key, u.count, u.examples) for u in unread] == \
        [("once_per_turn", 1, ["TST-004 abilities[0].once_per_turn"])]
    unread, docs = audit.unread_keys(cat())
    assert "rarity" in {u.key for u in docs}


def test_a_filter_key_without_a_handler_is_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The read keys are built from the language's tables: a filter key with no handler is unread."""
    from riftscript.core.engine import effects

    monkeypatch.setattr(effects.FILTERS, "entries", {k: v for k, v in effects.FILTERS.entries.items() if k != "tag"})
    assert "tag" not in audit.read_keys()
    assert "tag" in {u.key for u in audit.unread_keys(cat())[0]}


# ---------------------------------------------------------------------- the key list stays honest
def _module_literals(module: str) -> set[str]:
    """String constants in one module of the engine (``core/engine/chain``, ``plugins/effects``)."""
    package, _, name = module.rpartition("/")
    text = resources.files("riftscript." + package.replace("/", ".")).joinpath(f"{name}.py").read_text(encoding="utf-8")
    return {node.value for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def test_kernel_keys_are_schema_keys_their_module_reads() -> None:
    schema = audit.schema_keys()
    assert sorted(set(audit.KERNEL_KEYS) - schema) == [], "KERNEL_KEYS names keys no schema has"
    unread = sorted(key for key, module in audit.KERNEL_KEYS.items() if key not in _module_literals(module))
    assert unread == [], "KERNEL_KEYS names modules that never mention these keys"
    assert sorted(audit.DOCUMENTATION_KEYS - schema) == []


def test_every_schema_key_is_read_or_documentation() -> None:
    missing = audit.schema_keys() - audit.read_keys() - audit.DOCUMENTATION_KEYS
    assert sorted(missing) == [], "keys the schemas accept that nothing reads"


# ---------------------------------------------------------------------- runtime agreement
def _play_loop(max_events: int, actions: int) -> Any:
    b = Builder(cat())
    b.hand(0, ["TST-001"])
    game, _ = b.build()
    game.max_events = max_events
    game.apply(next(a for a in game.legal_actions() if a["type"] == "play"))
    for _ in range(actions):
        if game.over:
            break
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a["type"] == "pass"), legal[0]))
    return game


def test_the_kernel_runs_the_loop_the_audit_predicts() -> None:
    """Played out, the mandatory loop's two abilities fire again and again, and nothing else does."""
    game = _play_loop(max_events=20_000, actions=400)
    ids = {oid for oid, obj in game.state.objs.items() if obj.code == "TST-001"}
    fired = Counter(f"{game.state.objs[e['obj']].code}#{e['ability']}" for e in game.log
                    if e["t"] == "trigger" and e["obj"] in ids)
    assert {k for k, n in fired.items() if n > 10} == set(_engine_cycle().abilities)
    assert fired["TST-001#0"] == 1  # the played trigger only starts it


def test_the_runtime_guard_settles_the_mandatory_loop() -> None:
    game = _play_loop(max_events=200, actions=2_000)
    assert game.state.result == "draw"
    assert [e for e in game.log if e["t"] == "loop_draw"]


# ---------------------------------------------------------------------- exports and the command
def test_json_is_node_link_data_with_the_report() -> None:
    data = json.loads(audit.to_json(graph(), report()))
    G = nx.node_link_graph(data, edges="links")
    assert G.is_multigraph() and G.has_edge("TST-001#1", "event:spend_buff")
    loops = data["graph"]["report"]["loops"]
    assert any(l["label"] == "mandatory" and "TST-001#1" in l["abilities"] for l in loops)


def test_graphml_and_dot() -> None:
    G = nx.parse_graphml(audit.to_graphml(graph()))
    assert G.number_of_nodes() == graph().number_of_nodes()
    dot = audit.to_dot(graph())
    assert '"event/die"' in dot and '"kernel/combat"' in dot
    assert ":" not in "".join(line.split("[")[0] for line in dot.splitlines())


def test_command_report_and_card() -> None:
    result = run("audit", "--paths", str(_folder()))
    assert result.code == 0, result.err
    assert "mandatory cycle: TST-001#1 Restless Engine -(spend_buff)-> TST-001#2 Restless Engine -(buff)-> " \
           "TST-001#1" in result.out
    assert "TST-004#0 Deaf Sentinel: listens to 'take_damage' (did you mean 'damaged'?)" in result.out
    assert "Kindle -> Overcharge: 1 (+3 through keyword definitions), e.g. TST-005#0 Kindled Spark -> " \
           "TST-005#1 Kindled Spark via buff" in result.out
    card = run("audit", "--paths", str(_folder()), "--card", "TST-005", "--depth", "2")
    assert card.code == 0, card.err
    assert "TST-005#1 [triggered, Overcharge, mandatory]" in card.out
    assert "sets off on this card: TST-005#1 via buff" in card.out
    engine = run("audit", "--paths", str(_folder()), "--card", "Restless Engine")
    assert "TST-001#1 [triggered, mandatory]" in engine.out and "TST-001#2 via spend_buff" in engine.out


def test_command_filters_and_exports(tmp_path: Path) -> None:
    out = tmp_path / "set.json"
    result = run("audit", "--paths", str(_folder()), "--set", "TST", "--format", "json", "-o", str(out))
    assert result.code == 0, result.err
    data = json.loads(out.read_text())
    cards = {n.get("card") for n in data["nodes"] if n["type"] == "ability"}
    assert "TST-001" in cards and "OGN-003" not in cards
    card = run("audit", "--paths", str(_folder()), "--card", "TST-001", "--format", "json")
    ids = {n["id"] for n in json.loads(card.out)["nodes"]}
    # what it listens to and who causes that (the kernel plays cards), what it causes and who listens
    assert {"event:played", "kernel:chain", "event:buff", "event:spend_buff", "TST-001#2"} <= ids
    keyword = run("audit", "--paths", str(_folder()), "--keyword", "Overcharge")
    assert keyword.code == 0 and "Kindle -> Overcharge" in keyword.out
    bad = run("audit", "--card", "NOPE-1")
    assert bad.code == 1 and "no installed card" in bad.err


def test_pictures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svg = tmp_path / "kindle.svg"
    result = run("audit", "--paths", str(_folder()), "--keyword", "Kindle", "--svg", str(svg))
    assert result.code == 0, result.err
    text = svg.read_text()
    assert text.startswith("<svg") and "TST-005#0" in text and "Kindled Spark" in text
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    png = run("audit", "--paths", str(_folder()), "--card", "TST-005", "--png", str(tmp_path / "x.png"))
    assert png.code == 1 and "pip install 'riftscript[audit]'" in png.err
    nothing = run("audit", "--svg", str(tmp_path / "all.svg"))
    assert nothing.code == 1 and "--card" in nothing.err


def test_text_sub_action(tmp_path: Path) -> None:
    """'riftscript audit text' runs the text audit (tools/textaudit.py) on a reference file."""
    reference = tmp_path / "reference.json"
    reference.write_text(json.dumps([{"public_code": "OGN-003/298", "name": "Chemtech Enforcer",
                                      "rules_text": "A made-up reference line for the comparison."}]))
    result = run("audit", "text", "--reference", str(reference), "--set", "OGN")
    assert result.code in (0, 1), result.err
    assert "1 cards compared (OGN)" in result.out
    missing = run("audit", "text", "--reference", str(tmp_path / "nope.json"))
    assert missing.code != 0
