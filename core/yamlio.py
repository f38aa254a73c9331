"""Safe, bounded YAML reading with exact error positions.

Untrusted card files never execute code: only the ``safe`` loader is used (tags such as
``!!python/object`` are refused, duplicate keys are errors).  Hostile input is refused before
or while parsing, within bounded time and memory: file size, nesting depth, and the expanded
size of the document (alias bombs) are all capped.  Positions of schema errors are found by
re-parsing only the failing file with the round-trip loader.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .errors import Problem

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_NODES = 200_000
MAX_SCALAR = 20_000

try:  # the C parser is an optional extra; the pure-Python one gives identical results
    import ruamel.yaml.clib  # noqa: F401

    HAVE_CLIB = True
except ImportError:  # pragma: no cover - depends on the installation
    HAVE_CLIB = False


class YamlProblem(Exception):
    """A file could not be read as YAML; carries the problem with its position."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(str(problem))


def _safe_loader() -> YAML:
    yaml = YAML(typ="safe", pure=not HAVE_CLIB)
    yaml.allow_duplicate_keys = False
    return yaml


_SAFE = _safe_loader()


def _prescan(text: str, file: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before the (recursive) parser sees it."""
    depth = 0
    line = 1
    col = 0
    in_single = in_double = False
    for ch in text:
        col += 1
        if ch == "\n":
            line += 1
            col = 0
            in_single = in_double = False
            continue
        if in_double:
            if ch == '"':
                in_double = False
            continue
        if in_single:
            if ch == "'":
                in_single = False
            continue
        if ch == '"':
            in_double = True
        elif ch == "'":
            in_single = True
        elif ch == "#":
            continue
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlProblem(Problem(file, line, col, f"nesting deeper than {MAX_DEPTH} levels is refused"))
        elif ch in "]}":
            depth = max(0, depth - 1)
    indent_limit = MAX_DEPTH * 8
    for number, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.lstrip(" -")
        if stripped and len(raw) - len(stripped) > indent_limit:
            raise YamlProblem(Problem(file, number, len(raw) - len(stripped) + 1,
                                      f"nesting deeper than {MAX_DEPTH} levels is refused"))


def _check_tree(data: Any, file: str) -> None:
    """Bound the expanded size of the document: aliases are counted at every use."""
    budget = MAX_NODES
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        budget -= 1
        if budget < 0:
            raise YamlProblem(Problem(file, None, None,
                                      f"document expands to more than {MAX_NODES} nodes (alias bomb?); refused"))
        if depth > MAX_DEPTH:
            raise YamlProblem(Problem(file, None, None, f"nesting deeper than {MAX_DEPTH} levels is refused"))
        if isinstance(node, dict):
            for key, value in node.items():
                if not isinstance(key, str):
                    raise YamlProblem(Problem(file, None, None, f"mapping key {key!r} must be a string"))
                stack.append((value, depth + 1))
        elif isinstance(node, list):
            stack.extend((item, depth + 1) for item in node)
        elif isinstance(node, str) and len(node) > MAX_SCALAR:
            raise YamlProblem(Problem(file, None, None, f"a text value longer than {MAX_SCALAR} characters is refused"))


def _mark_problem(file: str, exc: MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    message = exc.problem or exc.context or "invalid YAML"
    if "found character '\\t'" in message or "\\t" in message:
        message = "tab characters are not allowed for indentation; use spaces"
    if exc.problem and "duplicate key" in exc.problem:
        message = exc.problem.split(" with value")[0]
    if "could not determine a constructor for the tag" in str(exc):
        tag = str(exc).split("tag ")[1].split("\n")[0] if "tag " in str(exc) else "?"
        message = f"tag {tag} is not allowed (card files are plain data; no tags are executed)"
    if mark is None:
        return Problem(file, None, None, message)
    return Problem(file, mark.line + 1, mark.column + 1, message)


def read_text(path: Path) -> str:
    """Read a file within the size limit."""
    file = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise YamlProblem(Problem(file, None, None, f"cannot read file: {exc.strerror}")) from None
    if size > MAX_FILE_BYTES:
        raise YamlProblem(Problem(file, None, None,
                                  f"file is {size:,} bytes; files larger than {MAX_FILE_BYTES:,} bytes are refused"))
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlProblem(Problem(file, None, None, f"file is not UTF-8 text ({exc.reason})")) from None


def load_text(text: str, file: str) -> Any:
    """Parse YAML text safely, refusing hostile input with a positioned problem."""
    if len(text) > MAX_FILE_BYTES:
        raise YamlProblem(Problem(file, None, None, f"document larger than {MAX_FILE_BYTES:,} bytes is refused"))
    _prescan(text, file)
    try:
        data = _SAFE.load(text)
    except MarkedYAMLError as exc:
        raise YamlProblem(_mark_problem(file, exc)) from None
    except YAMLError as exc:
        raise YamlProblem(Problem(file, None, None, str(exc).splitlines()[0])) from None
    except RecursionError:
        raise YamlProblem(Problem(file, None, None, "nesting too deep; refused")) from None
    except ValueError as exc:  # e.g. an integer literal with thousands of digits
        raise YamlProblem(Problem(file, None, None, f"value refused: {exc}")) from None
    _check_tree(data, file)
    return data


def load_file(path: Path) -> Any:
    return load_text(read_text(path), str(path))


def locate(text: str, path: list[str | int]) -> tuple[int, int] | None:
    """Return the 1-based (line, col) of the node at a JSON path, re-parsing with positions."""
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        node = yaml.load(text)
    except Exception:
        return None
    position: tuple[int, int] | None = (1, 1)
    for step in path:
        try:
            if isinstance(step, int):
                line, col = node.lc.item(step)
            else:
                if step not in node:
                    return (node.lc.line + 1, node.lc.col + 1)
                line, col = node.lc.value(step)
            position = (line + 1, col + 1)
            node = node[step]
        except (AttributeError, KeyError, IndexError, TypeError):
            break
    return position


def locate_key(text: str, path: list[str | int], key: str) -> tuple[int, int] | None:
    """Position of an offending key (for 'unknown key' errors) inside the mapping at ``path``."""
    yaml = YAML(typ="rt")
    try:
        node = yaml.load(text)
        for step in path:
            node = node[step]
        line, col = node.lc.key(key)
        return (line + 1, col + 1)
    except Exception:
        return locate(text, path)
