"""The tournament's win-rate matrix as a heatmap picture (PNG or SVG, through matplotlib: the ``plot``
extra).  Each cell: the row deck's win rate against the column deck, coloured from red (loses) through
white (even) to blue (wins), with its 95% interval; a last column gives each deck's overall rate."""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from riftscript.core.errors import RiftScriptError


def _pyplot(path: str) -> Any:
    """matplotlib's pyplot (headless), once the picture's format is known to be one we write."""
    if Path(path).suffix.lower() not in (".png", ".svg"):
        raise RiftScriptError(f"{path}: a heatmap is written as .png or .svg")
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise RiftScriptError("heatmap pictures need matplotlib: pip install 'riftscript[plot]'") from None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: small, searchable SVG
    return importlib.import_module("matplotlib.pyplot")


def check(path: str) -> None:
    """Fail before the games are played, not after, when the picture can't be drawn."""
    _pyplot(path)


def draw(data: dict[str, Any], path: str) -> None:
    """Write the heatmap of a tournament report to ``path`` (.png or .svg)."""
    plt = _pyplot(path)
    from matplotlib.colors import TwoSlopeNorm
    import matplotlib

    cells = {(m["deck"], m["opponent"]): m for m in data["matrix"]}
    names = list(dict.fromkeys(m["deck"] for m in data["matrix"]))
    overall = {d["deck"]: d for d in data["decks"]}
    columns = [*names, "overall"]
    grid = [[float("nan")] * len(columns) for _ in names]
    labels = [[""] * len(columns) for _ in names]
    for i, row in enumerate(names):
        for j, column in enumerate(columns):
            cell = overall[row] if column == "overall" else cells.get((row, column))
            if cell is None or not cell["games"]:
                continue
            grid[i][j] = cell["win_rate"]
            labels[i][j] = f"{100 * cell['win_rate']:.0f}%\n[{100 * cell['low']:.0f}-{100 * cell['high']:.0f}]"
    even = 1 / data["players"]
    size = 1.1 + 0.95 * len(columns)
    figure, axes = plt.subplots(figsize=(size + 2.2, 0.8 * len(names) + 2.2))
    colours = matplotlib.colormaps["RdBu"].with_extremes(bad="#dddddd")  # the diagonal: no games
    image = axes.imshow(grid, cmap=colours, norm=TwoSlopeNorm(vcenter=even, vmin=0.0, vmax=1.0))
    axes.set_xticks(range(len(columns)), labels=[short(c) for c in columns], rotation=35, ha="right")
    axes.set_yticks(range(len(names)), labels=[short(n) for n in names])
    axes.axvline(len(names) - 0.5, color="black", linewidth=1.5)
    for i in range(len(names)):
        for j in range(len(columns)):
            if labels[i][j]:
                dark = abs(grid[i][j] - even) > 0.3
                axes.text(j, i, labels[i][j], ha="center", va="center", fontsize=8,
                          color="white" if dark else "black")
    axes.set_xlabel("opponent")
    axes.set_ylabel("deck")
    agents = " vs ".join(dict.fromkeys(data["agents"]))
    axes.set_title(f"{data['mode']}: win rate of the row deck against the column deck [95% Wilson interval]\n"
                   f"{data['games_per_pairing']} games per pairing, {agents} agents, "
                   f"{data['games_played']} games", fontsize=10)
    figure.colorbar(image, ax=axes, fraction=0.04, pad=0.03, label="win rate")
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=110)
    except OSError as exc:
        raise RiftScriptError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(figure)


def short(name: str) -> str:
    """A deck name without the words every official deck shares."""
    for tail in (" Champion Deck", " Starter Deck"):
        if name.endswith(tail):
            return name[: -len(tail)]
    return name
