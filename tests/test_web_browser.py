"""``riftscript serve`` in a real browser: Playwright driving the system's Chromium (Debian's package).

Without Chromium the tests are skipped with the reason, except in CI (``CI`` set), where
``.ci/run`` installs it and its absence is a failure.  ``RIFTSCRIPT_CHROMIUM`` names another
binary.  Screenshots go to ``$RIFTSCRIPT_ARTIFACTS`` (else pytest's temporary folder).
"""
from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install -e '.[test]'")
pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")

import uvicorn
from playwright.sync_api import Browser, Page, expect, sync_playwright

from riftscript.core.script.catalog import load_catalog
from riftscript.tools.web.app import create_app

CHROMIUM = os.environ.get("RIFTSCRIPT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
JINX, VIKTOR = "Jinx Champion Deck", "Viktor Champion Deck"
QUICK_SEED = 3  # Jinx passing, Viktor's greedy agent wins in 12 turns


def _no_browser() -> None:
    reason = f"no Chromium at {CHROMIUM} (apt-get install chromium, or set RIFTSCRIPT_CHROMIUM)"
    if os.environ.get("CI"):
        pytest.fail(reason + ": .ci/run installs it, so CI runs these tests")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    if not os.access(CHROMIUM, os.X_OK):
        _no_browser()
    data = tmp_path_factory.mktemp("web-data")
    app = create_app(data, load_catalog())
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", data
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser(server: tuple[str, Path]) -> Iterator[Browser]:
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(15_000)
    errors: list[str] = []
    opened = context.new_page()
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("RIFTSCRIPT_ARTIFACTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def start_duel(page: Page, base: str) -> None:
    page.goto(base + "/play")
    page.select_option("select[name=deck0]", JINX)
    page.select_option("select[name=deck1]", VIKTOR)
    page.select_option("select[name=seat1]", "greedy")
    page.fill("input[name=seed]", str(QUICK_SEED))
    page.click("#start")
    expect(page.locator("#actions")).to_be_visible()


def test_a_duel_is_played_by_clicking_until_someone_wins(server: tuple[str, Path], page: Page,
                                                         artifacts: Path) -> None:
    base, _ = server
    start_duel(page, base)
    expect(page.locator(".player.me h3")).to_contain_text("Jinx (you)")
    clicks = 0
    while not page.locator("#outcome").count():
        assert clicks < 200, "the game did not end"
        labels = page.locator("#actions button.action").all_inner_texts()
        wanted = next((label for label in labels if label in ("end your turn", "pass", "keep your hand")), labels[0])
        page.get_by_role("button", name=wanted, exact=True).first.click()
        page.wait_for_load_state()
        clicks += 1
        if clicks == 6:
            page.screenshot(path=str(artifacts / "game-in-progress.png"), full_page=True)
    expect(page.locator("#outcome")).to_contain_text(re.compile(r"(Jinx|Viktor) won after \d+ turns?"))
    expect(page.locator("#narration")).to_contain_text(re.compile(r"\*\*\* (Jinx|Viktor) wins"))
    page.screenshot(path=str(artifacts / "game-over.png"), full_page=True)


def test_the_workshop_shows_a_typo_at_its_line_then_the_text(server: tuple[str, Path], page: Page,
                                                            artifacts: Path) -> None:
    base, _ = server
    page.goto(base + "/workshop")
    expect(page.locator("#status")).to_have_text("none")
    card = page.locator("#card")
    text = card.input_value()
    card.fill(text.replace("type: deal_damage", "type: deal_damge"))
    problem = page.locator("#listing .problem")
    expect(problem).to_have_count(1)
    expect(problem).to_have_attribute("data-line", "13")
    expect(problem).to_contain_text("13:13: 'deal_damge' is not a known type; did you mean 'deal_damage'?")
    expect(page.locator("#listing li.src.bad")).to_have_attribute("value", "13")  # the line itself is marked
    expect(page.locator("#play-button")).to_be_disabled()
    page.screenshot(path=str(artifacts / "workshop-typo.png"), full_page=True)
    card.fill(text)
    expect(page.locator("#status")).to_have_text("none")
    expect(page.locator("#text")).to_contain_text("When I attack, deal 1 to all enemy units here.")
    expect(page.locator("#picture")).to_be_visible()
    expect(page.locator("#play-button")).to_be_enabled()
    page.screenshot(path=str(artifacts / "workshop.png"), full_page=True)


def test_a_replay_steps_back_and_forward(server: tuple[str, Path], page: Page) -> None:
    base, data = server
    start_duel(page, base)
    for _ in range(4):
        page.locator("#actions button.action").first.click()
        page.wait_for_load_state()
    gid = page.url.split("/")[4]
    saved = data / "games" / f"{gid}.json"
    moves = json.loads(saved.read_text())["moves"]
    page.goto(base + "/replay")
    page.set_input_files("#replay-file", str(saved))
    page.click("#open")
    expect(page.locator("#position")).to_have_text(f"step 0 of {moves}")
    expect(page.locator("#last-action")).to_contain_text("The game as set up.")
    page.click("#forward")
    expect(page.locator("#position")).to_have_text(f"step 1 of {moves}")
    expect(page.locator("#last-action")).to_contain_text(re.compile(r"Step 1: (Jinx|Viktor): "))
    page.click("#forward")
    expect(page.locator("#position")).to_have_text(f"step 2 of {moves}")
    page.click("#back")
    expect(page.locator("#position")).to_have_text(f"step 1 of {moves}")
    page.wait_for_load_state("load")  # the arrow keys work once app.js has run, not when the text is there
    page.keyboard.press("ArrowRight")
    expect(page.locator("#position")).to_have_text(f"step 2 of {moves}")
    page.click("#last")
    expect(page.locator("#position")).to_have_text(f"step {moves} of {moves}")
    cards: Any = page.locator(".player .zone.hand").count()
    assert cards == 2  # every hand is shown in a replay
