"""The web app: routes, pages and the limits that make it safe to leave running.

Everything a browser sends is untrusted.  Bodies are capped per route (:data:`LIMITS`) before they
are read; card and scenario YAML go through the project's safe loader and its limits; no route
takes a file-system path (replays are uploaded, data files are named by server-made ids checked
against a pattern); game ids and seat tokens come from :mod:`secrets`; a page acts by the index of
one of its seat's legal actions, on the position it was drawn from.  Only the Host names given are
served (a DNS-rebinding page can't reach a server on 127.0.0.1), and every response forbids
inline script, framing and referrers.
"""
from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.script.decks import Deck
from riftscript.core.errors import IllegalActionError, RiftScriptError
from riftscript.tools.web import board, replay, workshop
from riftscript.tools.web.games import ID_PATTERN, PERSON, GameStore, NotFound, Stale

HERE = Path(__file__).parent
KB = 1024
# the largest body each route reads (the first matching prefix wins)
LIMITS = (("/replay", 8 * KB * KB), ("/workshop", 512 * KB), ("", 16 * KB))
NOTES = {"stale": "The game had moved on (another tab, or a double click): here it is now.",
         "illegal": "That action is no longer possible.",
         "cant": "That can't be done now."}
EXAMPLE_CARD = """\
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
      type: deal_damage
      amount: 1
      target: {pick: all, what: unit, where: {controller: enemy, location: here}}
"""


class BodyLimit:
    """Refuse a request body over the route's limit (413), by its Content-Length or as it streams in."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        limit = next(size for prefix, size in LIMITS if path.startswith(prefix))
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await PlainTextResponse(f"request body over {limit:,} bytes", 413)(scope, receive, send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except TooLarge:
            await PlainTextResponse(f"request body over {limit:,} bytes", 413)(scope, receive, send)


class TooLarge(Exception):
    """A streamed body passed its limit."""


class SecurityHeaders:
    """No inline script, no framing, no referrer (a seat's link is its key), no type sniffing."""

    HEADERS = [(b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                            b"script-src 'self'; frame-ancestors 'none'; form-action 'self'"),
               (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
               (b"x-frame-options", b"DENY"), (b"cache-control", b"no-store")]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + self.HEADERS
            await send(message)

        await self.app(scope, receive, with_headers)


class ReplayStore:
    """Uploaded replays on disk under ``root`` (their recordings as JSON), a few steppers in memory."""

    def __init__(self, root: Path, cards: workshop.CardCatalogs, keep: int = 16) -> None:
        self.root = root
        self.cards = cards
        self.keep = keep
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._steppers: OrderedDict[tuple[str, int], replay.Stepper] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, recordings: list[replay.Recording]) -> str:
        rid = secrets.token_urlsafe(15)
        self._write(rid, recordings)
        return rid

    def _write(self, rid: str, recordings: list[replay.Recording]) -> None:
        path = self.root / f"{rid}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"format": "riftscript-web-replay", "recordings": [r.to_json() for r in recordings]}),
                       encoding="utf-8")
        tmp.replace(path)

    def recordings(self, rid: str) -> list[replay.Recording]:
        if not ID_PATTERN.match(rid):
            raise NotFound("no such replay")
        try:
            data = json.loads((self.root / f"{rid}.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise NotFound("no such replay") from None
        return [replay.Recording.from_json(r) for r in data["recordings"]]

    def stepper(self, rid: str, index: int, step: int) -> replay.Stepper | replay.Recording:
        """The recording's game at ``step`` (or the recording itself when it can only be read as text)."""
        with self._lock:
            key = (rid, index)
            found = self._steppers.get(key)
            if found is None:
                recordings = self.recordings(rid)
                if not 0 <= index < len(recordings):
                    raise NotFound("no such game in this replay")
                rec = recordings[index]
                if rec.actions is None:
                    try:
                        replay.find_actions(self.cards, rec)
                    finally:  # the actions found, or why there are none (not looked for again)
                        self._write(rid, recordings)
                if rec.actions is None:
                    return rec
                found = replay.Stepper(self.cards.catalog(rec.card), rec)
                self._steppers[key] = found
                while len(self._steppers) > self.keep:
                    self._steppers.popitem(last=False)
            self._steppers.move_to_end(key)
            found.goto(step)
            return found


class WebApp:
    """The app's state: catalogs, stores and templates; its methods are the routes."""

    def __init__(self, data_dir: Path, catalog: Catalog | None = None) -> None:
        base = catalog or load_catalog()
        self.cards = workshop.CardCatalogs(base)
        self.games = GameStore(data_dir / "games", self.cards)
        self.replays = ReplayStore(data_dir / "replays", self.cards)
        self.texts = board.Texts()
        self.templates = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(
            default=True, default_for_string=True), trim_blocks=True, lstrip_blocks=True)

    @property
    def catalog(self) -> Catalog:
        return self.cards.base

    def page(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(self.templates.get_template(name).render(**context), status_code=status)

    def error(self, status: int, message: str) -> HTMLResponse:
        return self.page("error.html", status, title="Not possible", message=message)

    # ------------------------------------------------------------------ pages
    async def no_icon(self, request: Request) -> Response:
        return Response(status_code=204)

    async def home(self, request: Request) -> Response:
        return self.page("home.html", title="RiftScript")

    def choices(self) -> dict[str, Any]:
        assert self.catalog.plugins is not None
        modes = sorted(self.catalog.plugins.modes().values(), key=lambda m: (m.players, m.best_of, m.name))
        return {"modes": modes, "decks": sorted(self.catalog.decks), "max_players": max(m.players for m in modes),
                "agents": sorted(self.catalog.plugins.agents().values(), key=lambda a: (a.name != "greedy", a.name))}

    async def new_game_form(self, request: Request) -> Response:
        return self.page("new_game.html", title="New game", **self.choices())

    async def new_game(self, request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=40)
        assert self.catalog.plugins is not None
        mode = str(form.get("mode", "duel"))
        spec = self.catalog.plugins.modes().get(mode)
        if spec is None:
            return self.error(400, f"unknown mode {mode!r}")
        decks, seats = [], []
        for seat in range(spec.players):
            name = str(form.get(f"deck{seat}", ""))
            if name not in self.catalog.decks:
                return self.error(400, f"seat {seat + 1}: choose one of the installed decks")
            decks.append(Deck.from_data(self.catalog.decks[name][0], self.catalog))
            seats.append(str(form.get(f"seat{seat}", PERSON)))
        return await self._start(mode, decks, seats, _seed(form.get("seed")))

    async def _start(self, mode: str, decks: list[Deck], seats: list[str], seed: int,
                     card: str | None = None) -> Response:
        names = _names(decks)
        try:
            table, tokens = await run_in_threadpool(self.games.create, mode, decks, seats, seed, names, card)
        except RiftScriptError as exc:
            return self.error(400, str(exc))
        links = {seat: f"/play/{table.id}/{token}" for seat, token in tokens.items()}
        if len(links) == 1:
            return RedirectResponse(next(iter(links.values())), status_code=303)
        return self.page("links.html", title="Your seats", links=[(names[s], s, link) for s, link in links.items()])

    async def game_page(self, request: Request) -> Response:
        gid, token = request.path_params["gid"], request.path_params["token"]
        try:
            view = await run_in_threadpool(self._seat_view, gid, token)
        except NotFound:
            return self.error(404, "No such game (or not your seat's link).")
        note = NOTES.get(request.query_params.get("note", ""), "")
        return self.page("game.html", title="RiftScript game", note=note, **view)

    def _seat_view(self, gid: str, token: str) -> dict[str, Any]:
        with self.games.locked(gid) as table:
            seat = table.seat_of(token)
            view = board.seat_view(table.game, seat, self.texts, self.games.catalog(table))
            view.update(gid=gid, token=token, moves=table.moves, mode=table.mode, agents=table.seats)
            return view

    async def game_state(self, request: Request) -> Response:
        """The seat's position as JSON (for a page waiting on another person, and for scripts)."""
        gid, token = request.path_params["gid"], request.path_params["token"]
        try:
            view = await run_in_threadpool(self._seat_view, gid, token)
        except NotFound:
            return JSONResponse({"error": "no such game"}, 404)
        return JSONResponse({"moves": view["moves"], "over": view["over"], "mine": view["mine"],
                             "prompt": view["prompt"], "shown": view["shown"], "waiting_for": view["waiting_for"],
                             "winners": view["obs"]["winners"], "outcome": view["outcome"],
                             "actions": _labels(view["groups"])})

    async def act(self, request: Request) -> Response:
        gid, token = request.path_params["gid"], request.path_params["token"]
        form = await request.form(max_files=0, max_fields=8)
        note = ""
        try:
            index, moves = int(str(form.get("n", ""))), int(str(form.get("v", "")))
            await run_in_threadpool(self.games.act, gid, token, index, moves)
        except NotFound:
            return self.error(404, "No such game (or not your seat's link).")
        except Stale:
            note = "stale"
        except (ValueError, IllegalActionError):
            note = "illegal"
        return self._back(request, gid, token, note, form.get("json"))

    async def concede(self, request: Request) -> Response:
        gid, token = request.path_params["gid"], request.path_params["token"]
        form = await request.form(max_files=0, max_fields=4)
        try:
            await run_in_threadpool(self.games.concede, gid, token)
        except NotFound:
            return self.error(404, "No such game (or not your seat's link).")
        except IllegalActionError:
            return self._back(request, gid, token, "cant", form.get("json"))
        return self._back(request, gid, token, "", form.get("json"))

    def _back(self, request: Request, gid: str, token: str, note: str, as_json: Any) -> Response:
        if as_json:
            return JSONResponse({"ok": not note, "note": note}, 409 if note == "stale" else 400 if note else 200)
        return RedirectResponse(f"/play/{gid}/{token}" + (f"?note={note}" if note else ""), status_code=303)

    # ------------------------------------------------------------------ replay
    async def replay_form(self, request: Request) -> Response:
        return self.page("replay_open.html", title="Replay a game", message="")

    async def replay_upload(self, request: Request) -> Response:
        form = await request.form(max_files=1, max_fields=4, max_part_size=8 * KB * KB)
        upload = form.get("file")
        if isinstance(upload, UploadFile):
            raw = await upload.read()
        else:
            raw = str(form.get("text", "")).encode("utf-8", "surrogatepass")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            return self.page("replay_open.html", 400, title="Replay a game", message="the file is not UTF-8 text")
        try:
            recordings = await run_in_threadpool(replay.read, self.cards, text)
        except RiftScriptError as exc:
            return self.page("replay_open.html", 400, title="Replay a game", message=str(exc))
        rid = self.replays.add(recordings)
        return RedirectResponse(f"/replay/{rid}" + ("/0" if len(recordings) == 1 else ""), status_code=303)

    async def replay_list(self, request: Request) -> Response:
        rid = request.path_params["rid"]
        try:
            recordings = self.replays.recordings(rid)
        except NotFound:
            return self.error(404, "No such replay.")
        return self.page("replay_list.html", title="Replay", rid=rid, recordings=list(enumerate(recordings)))

    async def replay_step(self, request: Request) -> Response:
        rid, index = request.path_params["rid"], int(request.path_params["index"])
        step = _int(request.query_params.get("step"), 0)
        view_arg = request.query_params.get("view", "all")
        viewer = None if view_arg == "all" else _int(view_arg, 1) - 1
        try:
            context = await run_in_threadpool(self._replay_view, rid, index, step, viewer)
        except NotFound:
            return self.error(404, "No such replay.")
        except RiftScriptError as exc:
            return self.error(400, str(exc))
        return self.page("replay.html", title="Replay", rid=rid, index=index, view=view_arg, **context)

    def _replay_view(self, rid: str, index: int, step: int, viewer: int | None) -> dict[str, Any]:
        found = self.replays.stepper(rid, index, step)
        if isinstance(found, replay.Recording):
            steps = replay.text_steps(found)
            step = max(0, min(step, len(steps) - 1))
            return {"rec": found, "text_only": True, "step": step, "steps": len(steps) - 1,
                    "lines": [line for chunk in steps[:step + 1] for line in chunk][-board.NARRATION_LINES:],
                    "new_lines": len(steps[step])}
        seats = len(found.rec.decks)
        if viewer is not None and not 0 <= viewer < seats:
            viewer = None
        view = board.seat_view(found.game, viewer, self.texts, found.catalog, legal=False)
        return {"rec": found.rec, "text_only": False, "step": found.step, "steps": found.steps,
                "last": found.labels[found.step - 1] if found.step else "",
                "next": found.labels[found.step] if found.step < len(found.labels) else "",
                "seats": seats, **view}

    # ------------------------------------------------------------------ workshop
    async def workshop_page(self, request: Request) -> Response:
        assert self.catalog.plugins is not None
        return self.page("workshop.html", title="Card workshop", card=EXAMPLE_CARD, decks=sorted(self.catalog.decks),
                         agents=sorted(self.catalog.plugins.agents()), message="")

    async def workshop_check(self, request: Request) -> Response:
        usage = "send JSON: {\"card\": YAML text, \"scenarios\": YAML text}"
        try:
            body = json.loads(await request.body())
            card, scenarios = body.get("card", ""), body.get("scenarios", "")
        except RecursionError:  # JSON nested 100,000 deep: json.loads recurses
            return JSONResponse({"error": f"the JSON is nested too deeply; {usage}"}, 400)
        except (ValueError, AttributeError):
            card = scenarios = None
        if not isinstance(card, str) or not isinstance(scenarios, str):
            return JSONResponse({"error": usage}, 400)
        result = await run_in_threadpool(workshop.report, self.cards, card, scenarios)
        return JSONResponse(result.to_json())

    async def workshop_play(self, request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=8, max_part_size=512 * KB)
        card_text = str(form.get("card", ""))
        checked = await run_in_threadpool(self.cards.check, card_text)
        if checked.card is None or checked.catalog is None:
            return self.error(400, "The card has problems; fix them first:\n"
                              + "\n".join(str(p) for p in checked.problems))
        name = str(form.get("deck", ""))
        if name not in self.catalog.decks:
            return self.error(400, "Choose one of the installed decks.")
        agent = str(form.get("agent", "greedy"))
        try:
            deck = Deck.from_data(self.catalog.decks[name][0], self.catalog)
            mine = workshop.deck_with(checked.catalog, deck, checked.card)
        except RiftScriptError as exc:
            return self.error(400, str(exc))
        deck = Deck.from_data(self.catalog.decks[name][0], self.catalog)
        refusal = workshop.deck_refusal(checked.catalog, deck, checked.card)
        if refusal:
            return self.error(400, f"{name} can't play {checked.card.name}: {refusal}")
        rival = str(form.get("opponent", ""))
        if rival not in self.catalog.decks:
            rival = next(d for d in sorted(self.catalog.decks) if d != name)
        opponent = Deck.from_data(self.catalog.decks[rival][0], self.catalog)
        return await self._start("duel", [mine, opponent], [PERSON, agent], _seed(form.get("seed")), card_text)


def _labels(groups: list[board.Group]) -> list[str]:
    """The buttons' labels in the order of the legal actions (their indexes)."""
    return [b.label for b in sorted((b for g in groups for b in g.buttons), key=lambda b: b.index)]


def _names(decks: list[Deck]) -> list[str]:
    """Seat names from the decks' first words, numbered when two are the same."""
    names = [d.name.split()[0] for d in decks]
    return [f"{n} {i + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def _int(value: Any, default: int) -> int:
    try:
        return int(str(value))
    except ValueError:
        return default


def _seed(value: Any) -> int:
    """The seed asked for, or a random one."""
    seed = _int(value, -1)
    return seed if 0 <= seed < 2 ** 62 else secrets.randbelow(2 ** 31)


def create_app(data_dir: Path, catalog: Catalog | None = None, allowed_hosts: list[str] | None = None) -> Starlette:
    """The ASGI app; ``allowed_hosts`` are the Host names it answers (default: this machine's loopback names)."""
    web = WebApp(data_dir, catalog)
    gid = "{gid:str}/{token:str}"
    routes = [
        Route("/", web.home),
        Route("/favicon.ico", web.no_icon),
        Route("/play", web.new_game_form, methods=["GET"]),
        Route("/play", web.new_game, methods=["POST"]),
        Route(f"/play/{gid}", web.game_page, methods=["GET"]),
        Route(f"/play/{gid}/state.json", web.game_state, methods=["GET"]),
        Route(f"/play/{gid}/act", web.act, methods=["POST"]),
        Route(f"/play/{gid}/concede", web.concede, methods=["POST"]),
        Route("/replay", web.replay_form, methods=["GET"]),
        Route("/replay", web.replay_upload, methods=["POST"]),
        Route("/replay/{rid:str}", web.replay_list),
        Route("/replay/{rid:str}/{index:int}", web.replay_step),
        Route("/workshop", web.workshop_page),
        Route("/workshop/check", web.workshop_check, methods=["POST"]),
        Route("/workshop/play", web.workshop_play, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    hosts = allowed_hosts or ["127.0.0.1", "localhost", "::1"]
    middleware = [Middleware(SecurityHeaders), Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
                  Middleware(BodyLimit)]
    app = Starlette(routes=routes, middleware=middleware)
    app.state.web = web
    return app

