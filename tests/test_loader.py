"""Loading scripts: the fast parser agrees with ruamel, references are checked across files, and
files given as paths are checked against the installed engine."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from clihelp import run
from riftscript.core.script import yamlio
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.integrity import check_integrity
from riftscript.core.errors import ScriptError

ORIGINS = Path(__file__).resolve().parent.parent / "sets" / "origins" / "cards"

SNIPPETS = [
    "a: 1\nb: [1, 2.5, -3, +4, 0x1F, 0o17, 1_000, .inf, -.inf, ~, null, true, False, yes, on, '010', 010]\n",
    "x: &anchor {k: v}\ny: *anchor\nz: [*anchor, *anchor]\n",
    "base: &b {a: 1, b: 2}\nmerged:\n  <<: *b\n  c: 3\n",
    "a: !!str 12\nb: !!int '7'\nc: !!float 1\n",
    "? [complex, key]\n: value\n",
    "null: 1\n",
    "1: one\n",
    "'quoted key': \"text: with colon\"\nplain: it's fine\n",
    "multi: |\n  line one\n  line two\nfolded: >\n  a\n  b\n",
    "a: 1\n---\nb: 2\n",
    "a: [1, 2\n",
    "a: b: c\n",
    "a: 1\na: 2\n",
    "a: !!python/name:os.system\n",
    "a: !custom 1\n",
    "t: 2001-12-14t21:59:43.10-05:00\nd: 2002-12-14\n",
    "s: !!set {a, b}\nbin: !!binary aGVsbG8=\n",
    "",
    "# only a comment\n",
    "- 1\n- [2, [3, [4]]]\n",
    "a: &x [1, *x]\n",
    "%YAML 1.1\n---\na: yes\nb: 010\n",
]


def _outcome(loader: Any, text: str) -> Any:
    try:
        return ("ok", loader.load(text))
    except Exception as exc:  # comparing which error, not handling it
        return ("error", type(exc).__name__)


@pytest.mark.skipif(not yamlio.HAVE_CLIB, reason="the C parser is not installed")
@pytest.mark.parametrize("text", SNIPPETS)
def test_fast_loader_matches_ruamel_safe_loader(text: str) -> None:
    fast, pure = _outcome(yamlio._FAST, text), _outcome(yamlio._PURE, text)
    if fast[0] == "ok" and pure[0] == "ok":
        assert repr(fast[1]) == repr(pure[1])  # repr: recursive structures and nan compare too
    else:
        assert fast[0] == pure[0] == "error"


@pytest.mark.skipif(not yamlio.HAVE_CLIB, reason="the C parser is not installed")
def test_fast_loader_matches_on_every_installed_card() -> None:
    for path in sorted(ORIGINS.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert yamlio._FAST.load(text) == yamlio._PURE.load(text), path


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


CARD = """schema_version: 1
code: {code}
name: {name}
type: unit
domains: [fury]
cost: {{energy: 2}}
might: 2
"""


def test_valid_files_given_as_paths_join_the_catalog(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", CARD.format(code="TMP-001", name="Path Card") + "keywords: [Tank, {Assault: 2}]\n")
    catalog = load_catalog(extra_cards=[tmp_path])
    card = catalog.cards["TMP-001"]
    assert card.set_code == "TMP" and card.keywords == (("tank", None), ("assault", 2))
    assert card.source == str(tmp_path / "a.yaml")


def test_a_copy_of_an_installed_card_replaces_it_when_validated(tmp_path: Path) -> None:
    copy = shutil.copy(ORIGINS / "OGN-003.yaml", tmp_path / "OGN-003.yaml")
    catalog = load_catalog(extra_cards=[Path(copy)])
    assert catalog.cards["OGN-003"].source == str(copy)
    assert run("validate", str(copy)).lines == ["1 file checked: no problems"]


def test_duplicate_codes_among_given_files_name_both(tmp_path: Path) -> None:
    first = write(tmp_path, "a.yaml", CARD.format(code="TMP-002", name="First"))
    second = write(tmp_path, "b.yaml", CARD.format(code="TMP-002", name="Second"))
    result = run("validate", str(tmp_path))
    assert result.lines[0] == f"{second}:2:7: card code TMP-002 is also defined in {first} (code)"
    assert result.code == 1


def test_custom_keyword_file_is_checked_and_usable(tmp_path: Path) -> None:
    write(tmp_path, "rally.yaml", "schema_version: 1\nkeyword: rally\nname: Rally\nrule: '900'\n"
                                  "abilities:\n  - kind: triggered\n    when: {event: attack, subject: self}\n"
                                  "    effect: {type: grant_keyword, target: self, keyword: asault}\n")
    write(tmp_path, "card.yaml", CARD.format(code="TMP-003", name="Rallier") + "keywords: [Rally, Ralley]\n")
    lines = run("validate", str(tmp_path)).lines
    assert lines == [
        f"{tmp_path / 'card.yaml'}:8:19: unknown keyword 'Ralley'; did you mean 'Rally'? (keywords[1])",
        f"{tmp_path / 'rally.yaml'}:8:58: unknown keyword 'asault'; did you mean 'assault'? "
        f"(abilities[0].effect.keyword)",
        "2 problems in 2 files (2 checked)",
    ]


def test_token_cards_given_as_paths_satisfy_create_token(tmp_path: Path) -> None:
    write(tmp_path, "token.yaml", "schema_version: 1\ncode: TMP-010\nname: Sprout\ntype: unit\n"
                                  "supertype: token\ntoken: true\nmight: 1\n")
    write(tmp_path, "maker.yaml", CARD.format(code="TMP-011", name="Gardener") +
          "abilities:\n  - kind: triggered\n    when: {event: played, subject: self}\n"
          "    effect: {type: create_token, token: sprout, count: 2}\n")
    assert run("validate", str(tmp_path)).lines == ["2 files checked: no problems"]


def test_validate_reports_only_the_given_files_and_missing_paths(tmp_path: Path) -> None:
    good = write(tmp_path, "good.yaml", CARD.format(code="TMP-020", name="Fine"))
    result = run("validate", str(good), str(tmp_path / "nope.yaml"))
    assert result.lines == [f"{tmp_path / 'nope.yaml'}: no such file or folder", "1 problem in 1 file (1 checked)"]
    assert result.code == 1


def test_check_integrity_of_a_loaded_catalog() -> None:
    catalog = load_catalog()
    assert check_integrity(catalog) == []
    assert catalog.problems == []


def test_every_problem_in_every_file_in_one_strict_error(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", CARD.format(code="TMP-030", name="A").replace("might: 2", "might: x\ncolour: red"))
    write(tmp_path, "b.yaml", CARD.format(code="TMP-031", name="B") + "keywords: [Tnak]\n")
    with pytest.raises(ScriptError) as info:
        load_catalog(extra_cards=[tmp_path])
    assert [(Path(p.file).name, p.line, p.col, p.path) for p in info.value.problems] == [
        ("a.yaml", 7, 8, "might"), ("a.yaml", 8, 1, "colour"), ("b.yaml", 8, 12, "keywords[0]")]


def test_a_card_makes_its_own_sets_token_whatever_the_load_order() -> None:
    """Two sets may each ship a token of one name (Spiritforged's and Vendetta's "Mech"): a card makes its own
    set's, whichever set was loaded first (``Catalog.tokens`` keeps the first; a set folder given to pytest loads
    after the installed sets); a set without one gets the first installed."""
    import dataclasses

    cat = load_catalog()
    own = cat.cards["SFD-T-MECH"]
    other = dataclasses.replace(own, code="TST-T-MECH", set_code="TST")  # another set's Mech
    for first in (own, other):
        both = dataclasses.replace(cat, cards={**cat.cards, other.code: other}, tokens={**cat.tokens, "mech": first})
        assert both.token("Mech", "SFD") is own
        assert both.token("mech", "TST") is other
        assert both.token("Mech") is first
        assert both.token("Mech", "OGN") is first
