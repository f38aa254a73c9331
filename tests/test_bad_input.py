"""Hostile and broken script files are refused with a clear, positioned message, never a traceback.

Small fixtures are committed in ``tests/bad_cards/``; large ones (deep nesting, 50 MB, a
5,000-digit number) are generated in a temporary folder.  Every case goes through the real
``riftscript validate`` command.  Nothing here is timed, but each case would hang or exhaust
memory without its limit (the alias bomb expands to 9^9 values, the deep nesting overflows the
parser's recursion, the 50 MB file would be read whole).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from clihelp import run
from riftscript.core.script import yamlio
from riftscript.core.script.catalog import load_catalog

BAD = Path(__file__).parent / "bad_cards"

CASES: dict[str, list[str]] = {
    "unknown_key.yaml": ["6:1: unknown key 'domain'; did you mean 'domains'? (domain)"],
    "wrong_type.yaml": ["8:8: 'two' is not of type 'integer' (might)"],
    "misspelled_effect.yaml": [
        "11:13: 'deal_damag' is not a known type; did you mean 'deal_damage'? (abilities[0].effect.type)"],
    "missing_target.yaml": ["10:13: deal_damage is missing required key 'target' (abilities[0].effect)"],
    "bad_keyword_parameter.yaml": [
        "10:14: Assault takes a number from 0 to 99, e.g. 'Assault: 2', not 'many' (keywords[0].Assault)",
        "11:11: Tank takes no parameter; write just 'Tank' (keywords[1].Tank)",
        "12:5: Deathknell needs an effect, e.g. 'Deathknell: {type: draw, amount: 1}' (keywords[2])",
    ],
    "tab_indent.yaml": ["7:1: tab characters are not allowed for indentation; use spaces"],
    "duplicate_key.yaml": ['8:1: found duplicate key "might"'],
    "python_tag.yaml": [
        "4:7: tag !!python/object/apply:os.system is not allowed (script files are plain data; tags are never executed)"],
    "huge_float.yaml": ["6:8: inf is not of type 'integer' (might)"],
    "date_value.yaml": ["4:7: a date (2024-01-01) is not allowed in script files; quote it to make it text (name)"],
    "top_level_list.yaml": ["1:1: expected a mapping of fields at the top level, found a list"],
    "empty.yaml": ["1:1: expected a mapping of fields at the top level, found an empty file"],
    "not_utf8.yaml": ["3:10: file is not UTF-8 text (invalid continuation byte)"],
    "unknown_references.yaml": [
        "9:12: unknown keyword 'Asault'; did you mean 'Assault'? (keywords[0])",
        "16:39: unknown token 'Recrut'; did you mean 'Recruit'? (abilities[0].effect.steps[0].token)",
        "17:106: unknown keyword 'shiled'; did you mean 'shield'? (abilities[0].effect.steps[1].keyword)",
        "19:37: unknown keyword 'legoin'; did you mean 'legion'? (abilities[1].while.keyword)",
        "20:42: unknown keyword 'ganknig'; did you mean 'ganking'? (abilities[1].modifiers[0].keyword)",
    ],
    "modifier_placement.yaml": [
        "12:24: the modifier 'buff_limit' applies only to the card whose ability it is: this static affects other "
        "objects (write it without 'affects') (abilities[0].modifiers[0].type)",
        "19:54: a created effect can't carry the modifier 'victory_score': the engine reads it only from a static "
        "ability of a card (kinds a created effect may carry: bonus_damage, buff_bonus, cost, damage_taken, "
        "enter_ready, grant_ability, hide_cost, hook, keyword, might, play_from, prevent_damage, restriction, "
        "show_facedown) (abilities[1].effect.static.modifiers[1].type)",
    ],
    "schema_and_reference_errors.yaml": [
        "3:7: 'bad-11' does not match the pattern "
        "'^[A-Z0-9]{2,5}-(?:[0-9]{3}[a-z]?|T[0-9]{2}|T-[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)$' (code)",
        "6:8: -1 is less than the minimum of 0 (might)",
        "7:12: unknown keyword 'Shieldd'; did you mean 'Shield'? (keywords[0])",
        "10:19: 'playd' is not a known event; did you mean 'played'? (abilities[0].when.event)",
        "11:34: 'one' is not of type 'integer' or 'object' (abilities[0].effect.amount)",
    ],
}


def problems_of(path: Path) -> list[str]:
    result = run("validate", str(path))
    assert result.code == 1, result.out
    assert "Traceback" not in result.out + result.err
    *lines, summary = result.lines
    assert summary.startswith(f"{len(lines)} problem"), summary
    return lines


@pytest.mark.parametrize("name", sorted(CASES))
def test_committed_bad_card_is_refused_with_exact_message(name: str) -> None:
    path = BAD / name
    assert problems_of(path) == [f"{path}:{line}" for line in CASES[name]]


def test_every_fixture_has_a_case() -> None:
    assert sorted(p.name for p in BAD.iterdir()) == sorted([*CASES, "alias_bomb.yaml"])


def test_alias_bomb_is_refused_without_expanding() -> None:
    path = BAD / "alias_bomb.yaml"
    assert problems_of(path) == [f"{path}: document expands to more than 200,000 values (alias bomb?); refused"]


def test_all_files_are_reported_in_one_run() -> None:
    result = run("validate", str(BAD))
    reported = {line.split(":")[0] for line in result.lines[:-1]}
    assert reported == {str(p) for p in BAD.iterdir()}
    assert result.lines[-1] == f"{sum(len(v) for v in CASES.values()) + 1} problems in {len(CASES) + 1} files " \
                               f"({len(CASES) + 1} checked)"
    assert result.code == 1


def test_same_messages_with_the_pure_python_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    with_c = run("--no-cache", "validate", str(BAD)).out
    monkeypatch.setenv(yamlio.PURE_ENV, "1")
    assert run("--no-cache", "validate", str(BAD)).out == with_c


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


HEAD = "schema_version: 1\ncode: GEN-001\nname: Generated\ntype: unit\n"


def test_ten_thousand_deep_flow_nesting(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.yaml", HEAD + "abilities: " + "[" * 10_000 + "]" * 10_000 + "\n")
    assert problems_of(path) == [f"{path}:5:76: nesting deeper than 64 levels is refused"]


def test_ten_thousand_deep_flow_mappings(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.yaml", HEAD + "abilities: " + "{a: " * 10_000 + "1" + "}" * 10_000 + "\n")
    assert problems_of(path) == [f"{path}:5:268: nesting deeper than 64 levels is refused"]


def test_ten_thousand_deep_block_sequences(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.yaml", HEAD + "abilities:\n" + "- " * 10_000 + "x\n")
    assert problems_of(path) == [f"{path}:6:1: nesting deeper than 64 levels is refused"]


def test_deep_block_mappings_by_indentation(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.yaml", HEAD + "".join(" " * i + "k:\n" for i in range(100)) + " " * 100 + "v\n")
    assert problems_of(path) == [f"{path}:69:65: nesting deeper than 64 levels is refused"]


def test_ten_thousand_deep_block_mappings_are_too_big_to_read(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.yaml", "".join(" " * i + "k:\n" for i in range(10_000)))
    assert problems_of(path) == [f"{path}: file is 50,025,000 bytes; files larger than 1,000,000 bytes are refused"]


def test_fifty_megabyte_file(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with path.open("w", encoding="utf-8") as handle:
        handle.write(HEAD + 'text: "')
        for _ in range(50):
            handle.write("x" * 1024 * 1024)
        handle.write('"\n')
    size = path.stat().st_size
    assert problems_of(path) == [f"{path}: file is {size:,} bytes; files larger than 1,000,000 bytes are refused"]


def test_five_thousand_digit_integer(tmp_path: Path) -> None:
    path = write(tmp_path, "digits.yaml", HEAD + "might: " + "9" * 5000 + "\n")
    assert problems_of(path) == [f"{path}:5:8: an integer with 5,000 digits is refused (at most 4,300)"]


@pytest.mark.parametrize("literal, digits", [("0x" + "f" * 4000, 4817), ("0o" + "7" * 5000, 4516),
                                             ("-0b" + "1" * 20_000, 6021)], ids=["hex", "octal", "binary"])
def test_huge_hex_octal_and_binary_integers(tmp_path: Path, literal: str, digits: int) -> None:
    # they parse (Python reads them in any length), but no message can print them: refused like decimal ones
    path = write(tmp_path, "digits.yaml", HEAD + "might: " + literal + "\n")
    assert problems_of(path) == [f"{path}:5:8: an integer of {digits:,} decimal digits is refused (at most 4,300) "
                                 f"(might)"]
    listed = write(tmp_path, "listed.yaml", HEAD + "tags: [x, " + literal + "]\n")
    assert problems_of(listed) == [f"{listed}:5:11: an integer of {digits:,} decimal digits is refused "
                                   f"(at most 4,300) (tags[1])"]


def test_hex_integer_just_within_limits_is_an_ordinary_schema_error(tmp_path: Path) -> None:
    path = write(tmp_path, "digits.yaml", HEAD + "might: 0x" + "f" * 3000 + "\n")
    [line] = problems_of(path)
    assert line.startswith(f"{path}:5:8: ") and line.endswith("... is greater than the maximum of 99 (might)")


def test_sixty_thousand_unknown_keys_are_refused_quickly(tmp_path: Path) -> None:
    # every problem is located, and they were found by walking the mapping each time: 60,000 walks of
    # 60,000 keys took minutes; now each key is looked up in an index of its mapping
    path = write(tmp_path, "keys.yaml", HEAD + "".join(f"k{i}: {i}\n" for i in range(60_000)))
    lines = problems_of(path)
    assert lines[:2] == [f"{path}:5:1: unknown key 'k0' (k0)", f"{path}:6:1: unknown key 'k1' (k1)"]
    assert lines[49] == f"{path}:54:1: unknown key 'k49' (k49)"
    assert lines[50:] == [f"{path}: ... and 59950 more problems in this file"]


@pytest.mark.parametrize("pure", [False, True])
def test_surrogate_escape_is_refused_at_its_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     pure: bool) -> None:
    # the C parser refuses "\ud800", the pure one reads it: whichever runs, it is refused where it is
    if pure:
        monkeypatch.setenv(yamlio.PURE_ENV, "1")
    path = write(tmp_path, "s.yaml", HEAD.replace("Generated", '"\\ud800"') + "might: 2\n")
    assert problems_of(path) == [
        f"{path}:3:7: text with a surrogate escape (\\ud800) is refused; write the character itself, "
        f"or a \\U00XXXXXX escape for one outside the basic plane (name)"]
    key = write(tmp_path, "k.yaml", HEAD + '"a\\udfff": 1\nmight: 200\n')
    assert problems_of(key)[0].startswith(f"{key}:5:1: text with a surrogate escape (\\udfff) is refused")


def test_problems_are_positioned_when_only_the_pure_parser_reads_the_file(tmp_path: Path) -> None:
    positions = yamlio.Positions(HEAD + 'name2: "\\ud800"\n')
    assert positions.of(["name2"]) == (5, 8)


def test_long_integer_within_limits_is_cut_short_in_the_message(tmp_path: Path) -> None:
    path = write(tmp_path, "digits.yaml", HEAD + "might: " + "9" * 4000 + "\n")
    assert problems_of(path) == [f"{path}:5:8: {'9' * 57}... is greater than the maximum of 99 (might)"]


def test_recursive_alias_is_named_at_its_anchor(tmp_path: Path) -> None:
    path = write(tmp_path, "loop.yaml", "a: &a [*a]\n")
    assert problems_of(path) == [
        f"{path}:1:4: a recursive alias: this anchored node contains an alias to itself; refused (a[0])"]
    nested = write(tmp_path, "nested.yaml", "top:\n  inner: &x\n    b: [1, *x]\n")
    assert problems_of(nested) == [
        f"{nested}:2:10: a recursive alias: this anchored node contains an alias to itself; refused (top.inner.b[1])"]


def test_plain_deep_nesting_still_says_depth(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.yaml", "a: " + "[" * 70 + "]" * 70 + "\n")
    [line] = problems_of(path)
    assert "nesting deeper than 64 levels is refused" in line


def test_non_text_key(tmp_path: Path) -> None:
    path = write(tmp_path, "key.yaml", HEAD + "3: three\n")
    assert problems_of(path) == [f"{path}:5:1: mapping key 3 must be text"]


def test_overlong_text(tmp_path: Path) -> None:
    path = write(tmp_path, "text.yaml", HEAD.replace("Generated", "'" + "y" * 30_000 + "'"))
    assert problems_of(path) == [f"{path}:3:7: a text value longer than 20,000 characters is refused (name)"]


def test_a_hundred_thousand_errors_are_capped(tmp_path: Path) -> None:
    path = write(tmp_path, "wide.yaml", HEAD + "tags: [" + ", ".join(["1"] * 100_000) + "]\n")
    lines = problems_of(path)
    assert lines[0] == f"{path}: more than 100 schema errors; only the first ones are reported"
    assert lines[1] == f"{path}:5:8: 1 is not of type 'string' (tags[0])"
    assert lines[-1] == f"{path}: ... and 51 more problems in this file"
    assert len(lines) == 51


def test_yaml_1_1_booleans_and_octals_are_not_reinterpreted(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "%YAML 1.1\n---\n" + HEAD.replace("Generated", "no") + "tags: [yes, on, '010']\n")
    catalog = load_catalog(extra_cards=[path], strict=False)
    assert [p for p in catalog.problems if p.file == str(path)] == []
    card = catalog.cards["GEN-001"]
    assert (card.name, card.tags) == ("no", ("yes", "on", "010"))


def test_strict_loading_raises_one_error_listing_every_problem() -> None:
    from riftscript.core.errors import ScriptError

    with pytest.raises(ScriptError) as info:
        load_catalog(extra_cards=[BAD / "bad_keyword_parameter.yaml", BAD / "wrong_type.yaml"])
    assert len(info.value.problems) == 4
    assert str(info.value).splitlines()[-1].endswith("8:8: 'two' is not of type 'integer' (might)")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_device_is_cut_off_at_the_size_limit() -> None:
    assert problems_of(Path("/dev/zero")) == ["/dev/zero: files larger than 1,000,000 bytes are refused"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_without_a_writer_does_not_block(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    assert problems_of(pipe) == [f"{pipe}:1:1: expected a mapping of fields at the top level, found an empty file"]
