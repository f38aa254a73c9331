// RiftScript web: small progressive enhancements; every page works without them.
"use strict";

function onReady(fn) {
  if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
}

// New game: show as many seats as the chosen mode has players.
function setupNewGame() {
  const mode = document.getElementById("mode");
  if (!mode) return;
  const update = () => {
    const players = Number(mode.selectedOptions[0].dataset.players);
    document.querySelectorAll("tr.seat").forEach((row) => {
      row.hidden = Number(row.dataset.seat) >= players;
    });
  };
  mode.addEventListener("change", update);
  update();
}

// Game: one click per decision (a double click would act twice), confirm a concession,
// wait for another person's decision, and keep the play-by-play scrolled to its end.
function setupGame() {
  const actions = document.getElementById("actions");
  if (actions) {
    actions.addEventListener("submit", (event) => {
      const chosen = event.submitter;
      if (chosen && chosen.name === "n") {
        const hidden = document.createElement("input");
        hidden.type = "hidden"; hidden.name = "n"; hidden.value = chosen.value;
        actions.appendChild(hidden);
      }
      actions.querySelectorAll("button").forEach((b) => { b.disabled = true; });
      actions.classList.add("busy");
    });
  }
  document.querySelectorAll("form[data-confirm]").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
  const waiting = document.getElementById("waiting");
  if (waiting) {
    const poll = async () => {
      try {
        const answer = await fetch(waiting.dataset.poll, {cache: "no-store"});
        const state = await answer.json();
        if (String(state.moves) !== waiting.dataset.moves) { window.location.reload(); return; }
      } catch (e) { /* the server may be restarting: try again */ }
      window.setTimeout(poll, 1500);
    };
    window.setTimeout(poll, 1500);
  }
  document.querySelectorAll("[data-scroll-end]").forEach((el) => { el.scrollTop = el.scrollHeight; });
}

// Replay: the arrow keys step back and forward.
function setupReplay() {
  const links = document.querySelectorAll("[data-key]");
  if (!links.length) return;
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    links.forEach((link) => { if (link.dataset.key === event.key) window.location.href = link.href; });
  });
}

// Workshop: check the card a moment after each change; show each problem under its line.
function setupWorkshop() {
  const card = document.getElementById("card");
  if (!card || !card.dataset.check) return;
  const scenarios = document.getElementById("scenarios");
  const listing = document.getElementById("listing");
  const status = document.getElementById("status");
  const text = document.getElementById("text");
  const picture = document.getElementById("picture");
  const results = document.getElementById("scenario-results");
  const deck = document.getElementById("play-deck");
  const refusal = document.getElementById("deck-refusal");
  const playButton = document.getElementById("play-button");
  let timer = null;
  let asked = 0;
  let decks = {};

  const el = (tag, cls, content) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    return node;
  };

  const goTo = (line, col) => {
    const lines = card.value.split("\n");
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    offset += col - 1;
    card.focus();
    card.setSelectionRange(offset, offset);
  };

  const showListing = (source, problems) => {
    listing.replaceChildren();
    const byLine = new Map();
    const loose = [];
    problems.forEach((p) => {
      if (p.line) { if (!byLine.has(p.line)) byLine.set(p.line, []); byLine.get(p.line).push(p); }
      else loose.push(p);
    });
    loose.forEach((p) => {
      const item = el("li", "problem loose");
      item.dataset.line = "";
      item.textContent = p.message + (p.path ? " (" + p.path + ")" : "");
      listing.appendChild(item);
    });
    source.split("\n").forEach((line, i) => {
      const number = i + 1;
      const row = el("li", byLine.has(number) ? "src bad" : "src");
      row.value = number;
      row.appendChild(el("code", "", line || " "));
      listing.appendChild(row);
      (byLine.get(number) || []).forEach((p) => {
        const note = el("li", "problem");
        note.dataset.line = String(p.line);
        note.dataset.col = String(p.col || "");
        note.textContent = p.line + ":" + (p.col || "") + ": " + p.message + (p.path ? " (" + p.path + ")" : "");
        note.title = "click to put the cursor there";
        note.addEventListener("click", () => goTo(p.line, p.col || 1));
        listing.appendChild(note);
      });
    });
  };

  const show = (source, answer) => {
    showListing(source, answer.problems);
    listing.hidden = answer.ok;
    status.textContent = answer.ok ? "none" : answer.problems.length + " problem" + (answer.problems.length === 1 ? "" : "s");
    status.className = "status-badge " + (answer.ok ? "ok" : "bad");
    text.replaceChildren();
    answer.text.forEach((line) => text.appendChild(el("p", "", line)));
    if (answer.ok && !answer.text.length) text.appendChild(el("p", "muted", "(no rules text)"));
    picture.hidden = !answer.picture;
    if (answer.picture) picture.src = answer.picture;
    results.replaceChildren();
    answer.scenario_problems.forEach((p) => results.appendChild(
      el("li", "fail", (p.line ? p.line + ":" + (p.col || "") + ": " : "") + p.message)));
    answer.scenarios.forEach((s) => {
      const item = el("li", s.passed ? "pass" : "fail", (s.passed ? "passed: " : "failed: ") + s.name);
      if (s.message) item.appendChild(el("pre", "", s.message));
      results.appendChild(item);
    });
    decks = {};
    answer.decks.forEach((d) => { decks[d.name] = d.refused; });
    updateDeck(answer.ok);
  };

  const updateDeck = (ok) => {
    const why = decks[deck.value];
    refusal.textContent = why ? "can't: " + why : "";
    playButton.disabled = !ok || Boolean(why);
  };
  deck.addEventListener("change", () => updateDeck(status.classList.contains("ok")));

  const check = async () => {
    const source = card.value;
    const mine = ++asked;
    status.textContent = "checking…";
    try {
      const answer = await fetch(card.dataset.check, {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({card: source, scenarios: scenarios.value}),
      });
      const body = await answer.json();
      if (mine !== asked) return;  // a newer edit is being checked
      if (!answer.ok) { status.textContent = body.error || ("error " + answer.status); return; }
      show(source, body);
    } catch (e) {
      if (mine === asked) status.textContent = "the server can't be reached";
    }
  };
  const later = () => { window.clearTimeout(timer); timer = window.setTimeout(check, 300); };
  card.addEventListener("input", later);
  scenarios.addEventListener("input", later);
  check();
}

onReady(() => { setupNewGame(); setupGame(); setupReplay(); setupWorkshop(); });
