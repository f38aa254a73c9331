"""Safe, bounded YAML reading with exact error positions.

Untrusted card files never execute code: only the ``safe`` loader is used (tags such as
``!!python/object`` are refused, duplicate keys are errors).  Hostile input is refused before
or while parsing, within bounded time and memory: file size, nesting depth, integer length (of
decimal literals while parsing, of hex, octal and binary ones after: a 4,000-digit ``0x`` number
parses, but can't be printed in a message) and the expanded size of the document (alias bombs)
are all capped.

The fast C parser (``ruamel.yaml.clib``) is used when installed.  Its error messages differ
from the pure-Python parser's, so a file it rejects is parsed again with the pure parser: users
see the same message whichever is installed.  Positions of schema errors are found by parsing
only the failing file once more with the round-trip loader (see :class:`Positions`).
"""
from __future__ import annotations

import datetime
import importlib.util
import math
import os
import re
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver, implicit_resolvers
from ruamel.yaml.tag import Tag

from ..errors import Problem, ScriptError

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_NODES = 200_000
MAX_SCALAR = 20_000
MAX_INT_DIGITS = sys.get_int_max_str_digits() or 4300
PURE_ENV = "RIFTSCRIPT_PURE_YAML"

JsonPath = list[str | int]


def _have_clib() -> bool:
    """True when ruamel.yaml's C parser is installed (it imports as ``_ruamel_yaml``)."""
    return importlib.util.find_spec("_ruamel_yaml") is not None


HAVE_CLIB = _have_clib()


class YamlProblem(ScriptError):
    """A file could not be read as YAML; carries the problem with its position."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__([problem])


class _TreeProblem(Exception):
    """A parsed document breaks a limit; ``path`` (and ``key``) say where, to become a position."""

    def __init__(self, message: str, path: JsonPath | None, key: Any = None) -> None:
        self.message = message
        self.path = path
        self.key = key
        super().__init__(message)


_TAGS: dict[str, Tag] = {}


def _tag(name: str) -> Tag:
    """One shared Tag object per tag name, so that plain nodes are recognised by identity."""
    return _TAGS.setdefault(name, Tag(suffix="tag:yaml.org,2002:" + name))


T_STR, T_SEQ, T_MAP, T_INT, T_FLOAT, T_BOOL, T_NULL = (
    _tag(n) for n in ("str", "seq", "map", "int", "float", "bool", "null"))
_IMPLICIT: dict[Any, list[tuple[Tag, Any]]] = {}
for _versions, _name, _regexp, _first in implicit_resolvers:
    if (1, 2) in _versions:
        for _ch in list(_first) if _first else [None]:
            _IMPLICIT.setdefault(_ch, []).append((_tag(_name.rsplit(":", 1)[1]), _regexp))
_ANY_FIRST = _IMPLICIT.get(None, [])
_BY_FIRST = {ch: rules + _ANY_FIRST for ch, rules in _IMPLICIT.items() if ch is not None}
_EMPTY = _IMPLICIT.get("", []) + _ANY_FIRST


class Resolver12(VersionedResolver):
    """YAML 1.2 core-schema resolution, always (a ``%YAML 1.1`` directive brings back neither
    yes/no booleans nor 010 octals), with its rule table built once instead of per document."""

    @property
    def processing_version(self) -> tuple[int, int]:
        return (1, 2)

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Tag:
        if kind is ScalarNode:
            if implicit[0]:
                for tag, regexp in _BY_FIRST.get(value[:1], _ANY_FIRST) if value else _EMPTY:
                    if regexp.match(value):
                        return tag
            return T_STR
        return T_SEQ if kind is SequenceNode else T_MAP


def _safe_loader(pure: bool) -> YAML:
    yaml = YAML(typ="safe", pure=pure)
    yaml.Resolver = Resolver12
    yaml.allow_duplicate_keys = False
    return yaml


def use_c_parser() -> bool:
    """Whether loads go through the C parser (installed, and not switched off by the env var)."""
    return HAVE_CLIB and not os.environ.get(PURE_ENV)


_PURE = _safe_loader(pure=True)


class _NotPlain(Exception):
    """The document uses a YAML feature the fast converter leaves to ruamel's own constructor."""


if HAVE_CLIB:
    from _ruamel_yaml import CParser  # type: ignore[import-not-found]

    class _CLoader(CParser, SafeConstructor, Resolver12):  # type: ignore[misc]
        """ruamel's C reader/scanner/parser/composer with the safe constructor, as ruamel
        assembles it for ``YAML(typ='safe')`` (without building a new class per document)."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            self._parser = self._composer = self
            SafeConstructor.__init__(self, loader=self)
            self.allow_duplicate_keys = False
            Resolver12.__init__(self, loadumper=self)


def _plain(node: Node, loader: Any, memo: dict[int, Any], busy: set[int]) -> Any:
    """Build Python data from a composed node, for the plain subset of YAML card files use:
    untagged scalars, string keys, no duplicates, no merge keys, no recursive aliases.  Anything
    else raises _NotPlain and the document goes through ruamel's SafeConstructor instead, so
    results and errors are exactly ruamel's.  Every node is built once and shared by all its
    aliases, like the constructor does, so an alias bomb stays small here (and is refused by
    _check_tree, which counts every use).  ``memo`` and ``busy`` are keyed by id(node): they live
    for one document, whose node tree keeps every node alive, so no id is reused."""
    ctag = node.ctag
    cls = type(node)
    if cls is ScalarNode:
        if ctag is T_STR:
            return node.value
        if ctag is T_INT:
            return loader.construct_yaml_int(node)
        if ctag is T_FLOAT:
            return loader.construct_yaml_float(node)
        if ctag is T_BOOL:
            return loader.construct_yaml_bool(node)
        if ctag is T_NULL:
            return None
        raise _NotPlain
    key = id(node)
    if key in memo:
        return memo[key]
    if key in busy:
        raise _NotPlain
    busy.add(key)
    out: Any
    if cls is MappingNode and ctag is T_MAP:
        out = {}
        for knode, vnode in node.value:
            if type(knode) is not ScalarNode or knode.ctag is not T_STR:
                raise _NotPlain
            name = knode.value
            if name in out or name == "<<":
                raise _NotPlain
            out[name] = _plain(vnode, loader, memo, busy)
    elif cls is SequenceNode and ctag is T_SEQ:
        out = [_plain(item, loader, memo, busy) for item in node.value]
    else:
        raise _NotPlain
    busy.discard(key)
    memo[key] = out  # an alias is the very node it names (the C composer keeps no anchor name)
    return out


class _FastYaml:
    """``load(text)`` through the C parser and the plain-data converter (about 4x faster than
    ``YAML(typ='safe').load`` for card files), falling back to ruamel's constructor."""

    def load(self, text: str) -> Any:
        loader = _CLoader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            try:
                return _plain(node, loader, {}, set())
            except _NotPlain:
                return loader.construct_document(node)
        finally:
            loader.dispose()


_FAST: Any = _FastYaml() if HAVE_CLIB else _PURE

_DEEP_INDENT = " " * (MAX_DEPTH // 2)
_DEEP_DASHES = "- " * (MAX_DEPTH // 2)
_LONG_INT = re.compile(r"[-+]?[0-9][0-9_]{%d,}" % (MAX_INT_DIGITS - 1))


def _deep(file: str, line: int, col: int) -> YamlProblem:
    return YamlProblem(Problem(file, line, col, f"nesting deeper than {MAX_DEPTH} levels is refused"))


def _prescan_flow(text: str, file: str) -> None:
    """Refuse ``[[[[...`` / ``{{{{...`` deeper than MAX_DEPTH before the recursive parser sees it."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    line = 1
    col = 0
    quote = ""
    for ch in text:
        col += 1
        if ch == "\n":
            line += 1
            col = 0
            quote = ""
            continue
        if quote:
            if ch == quote:
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _deep(file, line, col)
        elif ch in "]}":
            depth = max(0, depth - 1)


def _prescan_block(text: str, file: str) -> None:
    """Refuse block nesting deeper than MAX_DEPTH: an upper bound from indentation and ``- - -``."""
    if _DEEP_INDENT not in text and _DEEP_DASHES not in text:
        return  # fewer than MAX_DEPTH/2 indent levels and dashes per line: cannot be too deep
    indents: list[int] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(raw) - len(stripped)
        while indents and indents[-1] >= indent:
            indents.pop()
        indents.append(indent)
        dashes = len(stripped) - len(stripped.lstrip("- "))
        if len(indents) + dashes // 2 > MAX_DEPTH:
            raise _deep(file, number, indent + 1)


def _check_tree(data: Any) -> None:
    """Bound the expanded size of the document (aliases count at every use) and its depth;
    allow only plain JSON data (text, numbers, booleans, null, lists, string-keyed mappings)."""
    budget = MAX_NODES
    stack: list[tuple[Any, JsonPath]] = [(data, [])]
    while stack:
        node, path = stack.pop()
        budget -= 1
        if budget < 0:
            raise _TreeProblem(f"document expands to more than {MAX_NODES:,} values (alias bomb?); refused", None)
        if len(path) > MAX_DEPTH:
            loop = _self_reference(data, path)
            if loop is not None:
                raise _TreeProblem("a recursive alias: this anchored node contains an alias to itself; "
                                   "refused", loop)
            raise _TreeProblem(f"nesting deeper than {MAX_DEPTH} levels is refused", path)
        if isinstance(node, dict):
            for key, value in node.items():
                if not isinstance(key, str):
                    raise _TreeProblem(f"mapping key {_short(key)} must be text", path, key)
                if _SURROGATE.search(key):
                    raise _TreeProblem(_surrogate_message(key), path, key)
                stack.append((value, path + [key]))
        elif isinstance(node, list):
            stack.extend((item, path + [i]) for i, item in enumerate(node))
        elif isinstance(node, str):
            if len(node) > MAX_SCALAR:
                raise _TreeProblem(f"a text value longer than {MAX_SCALAR:,} characters is refused", path)
            if _SURROGATE.search(node):
                raise _TreeProblem(_surrogate_message(node), path)
        elif isinstance(node, int):
            if node.bit_length() > _INT_BITS and abs(node) >= _INT_LIMIT:
                raise _TreeProblem(f"an integer of {_decimal_digits(node):,} decimal digits is refused "
                                   f"(at most {MAX_INT_DIGITS:,})", path)
        elif node is not None and not isinstance(node, float):
            raise _TreeProblem(f"{_kind_of(node)} is not allowed in script files; quote it to make it text", path)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_message(text: str) -> str:
    """Why a ``"\\ud800"`` escape is refused: the pure parser accepts it (the C parser does not), and
    text holding it can't be written as UTF-8 (a save, a web page, the terminal)."""
    found = _SURROGATE.search(text)
    code = f"\\u{ord(found.group()):04x}" if found else "\\ud800"
    return (f"text with a surrogate escape ({code}) is refused; write the character itself, "
            f"or a \\U00XXXXXX escape for one outside the basic plane")


_INT_LIMIT = 10 ** MAX_INT_DIGITS
_INT_BITS = MAX_INT_DIGITS * 3  # fewer bits than this: fewer than MAX_INT_DIGITS decimal digits


def _decimal_digits(value: int) -> int:
    """How many decimal digits a huge integer has, without printing it (that is what fails)."""
    return max(MAX_INT_DIGITS + 1, int(math.log10(abs(value))) + 1)


def _self_reference(data: Any, path: JsonPath) -> JsonPath | None:
    """The path of the first alias on ``path`` that names one of its own ancestors, if any: a
    recursive alias looks like endless nesting, and saying so helps more than a depth."""
    seen = {id(data)}
    node = data
    for depth, step in enumerate(path):
        node = node[step]
        if isinstance(node, (dict, list)):
            if id(node) in seen:
                return path[: depth + 1]
            seen.add(id(node))
    return None


def _kind_of(value: object) -> str:
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"a date ({value.isoformat()})"
    if isinstance(value, bytes):
        return "binary data (!!binary)"
    if isinstance(value, (set, frozenset)):
        return "a set (!!set)"
    return f"a value of type {type(value).__name__}"


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _mark_problem(file: str, exc: MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    message = exc.problem or exc.context or "invalid YAML"
    if "'\\t'" in message:
        message = "tab characters are not allowed for indentation; use spaces"
    elif "duplicate key" in message:
        message = message.split(" with value")[0]
    elif "could not determine a constructor for the tag" in message:
        tag = message.split("tag ", 1)[1].strip().strip("'").replace("tag:yaml.org,2002:", "!!")
        message = f"tag {tag} is not allowed (script files are plain data; tags are never executed)"
    if mark is None:
        return Problem(file, None, None, message)
    return Problem(file, mark.line + 1, mark.column + 1, message)


def _position_of(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def read_text(path: Path) -> str:
    """Read a file within the size limit (checked before reading a single byte)."""
    return decode(read_bytes(path), str(path))


def read_bytes(path: Path) -> bytes:
    """The raw bytes of a file, refusing more than MAX_FILE_BYTES without reading them all.

    Reads through the file descriptor with the size from ``fstat``: several times faster than
    ``open().read(limit)``, which allocates a buffer of the limit's size for every small file.
    A device or pipe (size 0) is read in chunks and cut off at the limit too.
    """
    file = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a named pipe must not block
        try:
            size = os.fstat(fd).st_size
            if size > MAX_FILE_BYTES:
                raise YamlProblem(Problem(file, None, None, f"file is {size:,} bytes; files larger than "
                                                            f"{MAX_FILE_BYTES:,} bytes are refused"))
            parts = [os.read(fd, size + 1)]
            total = len(parts[0])
            while parts[-1] and total <= MAX_FILE_BYTES:
                parts.append(os.read(fd, 1 << 16))
                total += len(parts[-1])
        finally:
            os.close(fd)
    except OSError as exc:
        raise YamlProblem(Problem(file, None, None, f"cannot read file: {exc.strerror or exc}")) from None
    if total > MAX_FILE_BYTES:
        raise YamlProblem(Problem(file, None, None, f"files larger than {MAX_FILE_BYTES:,} bytes are refused"))
    return b"".join(parts)


def decode(data: bytes, file: str) -> str:
    """UTF-8 text of a file (a leading byte-order mark is dropped)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, col = _position_of(data.decode("utf-8", "replace"), exc.start)
        raise YamlProblem(Problem(file, line, col, f"file is not UTF-8 text ({exc.reason})")) from None


def _parse(yaml: Any, text: str, file: str) -> Any:
    try:
        return yaml.load(text)
    except MarkedYAMLError as exc:
        raise YamlProblem(_mark_problem(file, exc)) from None
    except YAMLError as exc:
        raise YamlProblem(Problem(file, None, None, str(exc).splitlines()[0])) from None
    except RecursionError:
        raise YamlProblem(Problem(file, None, None, f"nesting deeper than {MAX_DEPTH} levels is refused")) from None
    except ValueError as exc:  # an integer literal with thousands of digits
        match = _LONG_INT.search(text)
        if match is None:
            raise YamlProblem(Problem(file, None, None, f"value refused: {exc}")) from None
        line, col = _position_of(text, match.start())
        digits = sum(ch.isdigit() for ch in match.group())
        raise YamlProblem(Problem(file, line, col, f"an integer with {digits:,} digits is refused "
                                                   f"(at most {MAX_INT_DIGITS:,})")) from None


def load_text(text: str, file: str) -> Any:
    """Parse YAML text safely, refusing hostile input with a positioned problem."""
    if len(text) > MAX_FILE_BYTES:
        raise YamlProblem(Problem(file, None, None, f"documents larger than {MAX_FILE_BYTES:,} bytes are refused"))
    _prescan_flow(text, file)
    _prescan_block(text, file)
    if use_c_parser():
        try:
            data = _parse(_FAST, text, file)
        except YamlProblem:
            data = _parse(_PURE, text, file)  # same verdict; the pure parser's message and position
    else:
        data = _parse(_PURE, text, file)
    try:
        _check_tree(data)
    except _TreeProblem as exc:
        pos = None
        if exc.path is not None:
            where = Positions(text)
            pos = where.of(exc.path) if exc.key is None else where.of_key(exc.path, exc.key)
        raise YamlProblem(Problem(file, pos[0] if pos else None, pos[1] if pos else None, exc.message,
                                  dotted(exc.path or []))) from None
    return data


def load_file(path: Path) -> Any:
    return load_text(read_text(path), str(path))


def dotted(path: JsonPath, limit: int = 120) -> str:
    """A JSON path as users write it: ``abilities[0].effect.type`` (middle cut if very long)."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    if len(out) > limit:
        out = out[: limit // 2 - 2] + "..." + out[-(limit // 2 - 1):]
    return out


def compose(text: str) -> Node | None:
    """The node tree of a document, with the start position of every node (no data built)."""
    if use_c_parser():
        loader = _CLoader(text)
        try:
            node: Node | None = loader.get_single_node()
            return node
        finally:
            loader.dispose()
    composed: Node | None = _PURE.compose(text)
    return composed


class Positions:
    """Line and column of nodes in one document, from its node tree (composed once, on first
    use; with the C parser this costs a fraction of a round-trip load)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._root: Node | None = None
        self._parsed = False
        self._keys: dict[int, dict[str, tuple[Node, Node]]] = {}

    def _tree(self) -> Node | None:
        if not self._parsed:
            self._parsed = True
            try:
                self._root = compose(self.text)
            except (YAMLError, RecursionError, ValueError):
                self._root = self._compose_pure()
        return self._root

    def _step(self, node: Node, step: str | int) -> tuple[Node, Node] | None:
        """(key node or item node, value node) for one step of a path, if present.

        A mapping's keys are indexed on first use, so that locating every problem of a file with
        60,000 unknown keys is linear, not a walk through the mapping per problem.  Nodes are
        keyed by id(): the tree, kept by ``self``, keeps them alive."""
        if isinstance(node, SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            item: Node = node.value[step]
            return item, item
        if isinstance(node, MappingNode):
            index = self._keys.get(id(node))
            if index is None:
                index = {}
                for knode, vnode in node.value:
                    if isinstance(knode, ScalarNode):
                        index.setdefault(str(knode.value), (knode, vnode))
                self._keys[id(node)] = index
            return index.get(str(step))
        return None

    def _compose_pure(self) -> Node | None:
        """The pure parser's tree, for a document only it reads (load_text falls back to it too)."""
        if not use_c_parser():
            return None
        try:
            node: Node | None = _PURE.compose(self.text)
        except (YAMLError, RecursionError, ValueError):
            return None
        return node

    @staticmethod
    def _at(node: Node) -> tuple[int, int]:
        return node.start_mark.line + 1, node.start_mark.column + 1

    def of(self, path: JsonPath) -> tuple[int, int] | None:
        """1-based (line, col) of the value at ``path``, or of its deepest existing ancestor."""
        node = self._tree()
        if node is None:
            return None
        position = (1, 1)
        for step in path:
            found = self._step(node, step)
            if found is None:
                break
            node = found[1]
            position = self._at(node)
        return position

    def of_key(self, path: JsonPath, key: Any) -> tuple[int, int] | None:
        """1-based (line, col) of ``key`` itself inside the mapping at ``path``."""
        node = self._tree()
        for step in path:
            found = self._step(node, step) if node is not None else None
            if found is None:
                return self.of(path)
            node = found[1]
        found = self._step(node, key if isinstance(key, (str, int)) else str(key)) if node is not None else None
        if found is None or not isinstance(node, MappingNode):
            return self.of(path)
        return self._at(found[0])


def locate(text: str, path: JsonPath) -> tuple[int, int] | None:
    """Return the 1-based (line, col) of the node at a JSON path, re-parsing with positions."""
    return Positions(text).of(path)


def locate_key(text: str, path: JsonPath, key: str) -> tuple[int, int] | None:
    """Position of an offending key (for 'unknown key' errors) inside the mapping at ``path``."""
    return Positions(text).of_key(path, key)
