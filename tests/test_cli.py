"""The ``riftscript`` command: help everywhere, the foundation subcommands, and the command table
other tools extend."""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from clihelp import run
from riftscript.core.script import yamlio
from riftscript.tools import cli

ROOT = Path(__file__).resolve().parent.parent


def test_every_subcommand_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    names = list(cli.build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    assert {"validate", "sets", "cards", "keywords", "schema", "info"} <= set(names)
    for name in names:
        with pytest.raises(SystemExit) as exit_info:
            cli.main([name, "--help"])
        assert exit_info.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith(f"usage: riftscript {name}"), name


def test_no_command_prints_the_overview() -> None:
    result = run()
    assert result.code == 0 and result.out.startswith("usage: riftscript")
    assert "validate" in result.out and "--no-cache" in result.out


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["valdiate"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'valdiate'" in capsys.readouterr().err


def test_the_console_script_is_installed() -> None:
    exe = shutil.which("riftscript")
    assert exe is not None
    done = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "riftscript 0.1.0"


def test_validate_all_installed_sets() -> None:
    result = run("validate")
    assert result.code == 0
    assert re.fullmatch(r"\d+ files in \d+ sets checked: no problems", result.lines[-1])


def test_sets_table_and_json() -> None:
    lines = run("sets").lines
    assert lines[0].split() == ["CODE", "NAME", "VERSION", "PLUGIN", "SCRIPTED", "DECLARED", "STATUS"]
    rows = json.loads(run("sets", "--json").out)
    origins = next(r for r in rows if r["code"] == "OGN")
    assert origins["plugin"] == "origins" and origins["declared"] == 298 and origins["scripted"] > 0


def test_card_search_filters() -> None:
    lines = run("cards", "--type", "spell", "--domain", "FURY", "--set", "ogn").lines
    assert lines[0].split()[:4] == ["CODE", "NAME", "TYPE", "DOMAINS"]
    rows = lines[1:-1]
    assert rows and all(" spell " in row and " fury" in row for row in rows)
    assert lines[-1] == f"{len(rows)} cards"
    found = json.loads(run("cards", "--name", "chemtech", "--set", "ogn", "--json").out)
    assert [c["code"] for c in found] == ["OGN-003"]
    assert found[0]["keywords"] == "Assault 2"
    assert all("Tank" in c["keywords"] for c in json.loads(run("cards", "--keyword", "tank", "--json").out))


def test_show_one_card() -> None:
    result = run("cards", "--show", "ogn-003")
    assert result.lines[:4] == ["code:      OGN-003", "name:      Chemtech Enforcer", "set:       OGN",
                                "type:      unit"]
    script = result.out.split("--- script\n")[1]
    assert yamlio.load_text(script, "shown")["abilities"][0]["when"] == {"event": "played", "subject": "self"}


def test_show_an_unknown_card_suggests_one() -> None:
    result = run("cards", "--show", "Chemtech Enforcr")
    assert result.code == 1
    assert result.err == "error: no installed card 'Chemtech Enforcr'; did you mean 'Chemtech Enforcer'?\n"
    assert run("cards", "--show", "chemtech enforcer").lines[0] == "code:      OGN-003"


def test_schema_locations() -> None:
    folder = Path(run("schema", "--path").out.strip())
    assert (folder / "card.schema.json").is_file()
    assert run("schema", "card").out.strip() == str(folder / "card.schema.json")
    dumped = json.loads(run("schema", "effect", "--dump").out)
    assert "deal_damage" in dumped["$defs"]["effect_node"]["properties"]["type"]["enum"]


def test_info() -> None:
    out = run("info").out
    assert out.startswith("riftscript 0.1.0 (script schema version 1)")
    assert "plugin origins" in out
    from riftscript.core.engine import decisions  # a regular install runs the compiled kernel (setup.py)
    assert ("engine: pure Python" in out) == decisions.__file__.endswith(".py")
    assert ("engine: compiled with mypyc" in out) == (not decisions.__file__.endswith(".py"))


def test_internal_errors_are_reported_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: argparse.Namespace) -> int:
        raise KeyError("oops")

    monkeypatch.setitem(cli.COMMANDS, "info", cli.Command("print versions", broken))
    result = run("info")
    assert result.code == 70
    assert result.err == ("internal error (a bug in RiftScript or a plugin): KeyError: 'oops'\n"
                          "run with RIFTSCRIPT_DEBUG=1 to see the traceback\n")


def test_the_command_table_is_the_extension_point(monkeypatch: pytest.MonkeyPatch) -> None:
    def hello(args: argparse.Namespace) -> int:
        cli.CONTEXT.stream.write(f"hello {args.who}\n")
        return 3

    def arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("who")

    monkeypatch.setitem(cli.COMMANDS, "hello", cli.Command("say hello", hello, arguments))

    def add_commands(sub: Any) -> None:
        parser = sub.add_parser("bye", help="say bye")
        parser.set_defaults(func=lambda args: 4)

    monkeypatch.setattr(cli, "MODULE_COMMANDS", [*cli.MODULE_COMMANDS, add_commands])
    assert (run("hello", "world").code, run("hello", "world").out) == (3, "hello world\n")
    assert run("bye").code == 4


def test_a_plugin_file_that_fails_to_load_is_an_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad_plugin.py"
    bad.write_text("raise ImportError('missing dependency: numpy')\n")
    result = run("--plugin", str(bad), "sets")
    assert result.code == 1
    assert result.err == (f"error: cannot load plugin '{bad}': ImportError: missing dependency: numpy\n")


def test_shipped_script_files_point_editors_at_their_schema() -> None:
    """Every card, keyword, deck and set file starts with a yaml-language-server modeline whose
    relative path leads to the schema of its kind."""
    kinds = {"cards": "card", "keywords": "keyword", "decks": "deck"}
    files = [*ROOT.glob("sets/*/cards/*.yaml"), *ROOT.glob("sets/*/decks/*.yaml"), *ROOT.glob("sets/*/set.yaml"),
             *ROOT.glob("plugins/keywords/*.yaml"), *ROOT.glob("examples/community-set/*/cards/*.yaml"),
             *ROOT.glob("examples/community-set/*/keywords/*.yaml"), *ROOT.glob("examples/community-set/*/set.yaml")]
    assert len(files) > 300
    for path in files:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        prefix = "# yaml-language-server: $schema="
        assert first.startswith(prefix), path
        target = (path.parent / first[len(prefix):]).resolve()
        kind = "set" if path.name == "set.yaml" else kinds[path.parent.name]
        assert target == (ROOT / "schemas" / f"{kind}.schema.json").resolve(), path


def test_schemas_reach_each_other_through_the_files_beside_them() -> None:
    """An editor opening a schema from its modeline path follows $refs to files in the same folder,
    never to the network: every $ref is local (#...) or names a schema file that exists beside it, and
    a plain validator that can only read that folder validates a shipped card with them."""
    from urllib.parse import urljoin

    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.exceptions import NoSuchResource

    folder = ROOT / "schemas"
    refs: list[str] = []
    for path in folder.glob("*.schema.json"):
        text = path.read_text(encoding="utf-8")
        assert "://" not in text.replace("https://json-schema.org/draft/2020-12/schema", ""), path
        refs += re.findall(r'"\$ref": "([^"#]*)#', text)
    assert refs and all(ref == "" or (folder / ref).is_file() for ref in refs)

    retrieved: list[str] = []

    def retrieve(uri: str) -> Resource[Any]:
        if "://" in uri and not uri.startswith("file://"):
            raise NoSuchResource(ref=uri)
        retrieved.append(uri.rsplit("/", 1)[-1])
        return Resource.from_contents(json.loads((folder / uri.rsplit("/", 1)[-1]).read_text(encoding="utf-8")))

    base = (folder / "card.schema.json").as_uri()
    registry: Registry[Any] = Registry(retrieve=retrieve)  # type: ignore[call-arg]
    validator = Draft202012Validator({"$ref": base}, registry=registry)
    card_file = ROOT / "sets/origins/cards/OGN-067.yaml"
    card = json.loads(json.dumps(yamlio.load_text(card_file.read_text(encoding="utf-8"), str(card_file))))
    assert list(validator.iter_errors(card)) == []
    assert list(validator.iter_errors({**card, "might": "lots"}))
    assert {"card.schema.json", "effect.schema.json"} <= set(retrieved)  # read from the folder, not fetched
    assert urljoin(base, "effect.schema.json") == (folder / "effect.schema.json").as_uri()
