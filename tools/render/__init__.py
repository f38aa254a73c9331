"""English rules text rendered from card scripts.

Every sentence is built from the nodes of a card's script (abilities, keywords, effects,
selectors, amounts, conditions, triggers and costs), so a card author sees what a script
means in the style of printed Riftbound text: "When you play me, draw 1.", "{Exhaust}: Ready
me.", "[Deathknell] — Draw 1.".  Nothing is copied from printed card
text.  A node the renderer does not know is shown as an explicit ``‹...›`` marker; rendering
never raises.

The package mirrors the interpreter, so that whoever adds an effect finds its interpreter and its
English in files of the same name: ``selectors`` (references, filters, locations), ``conditions``
(amounts and conditions), ``costs``, ``triggers``, ``effects`` (one ``e_<primitive>`` each),
``control`` (sequence, if, may, choose one, created effects), ``abilities`` (static, triggered,
activated, replacement), ``cards`` (keyword lines and a card's lines); ``phrases`` holds the
words and sentence helpers they share, and ``renderer`` the ``Renderer`` class that lists them.
"""
from __future__ import annotations

from riftscript.tools.render.phrases import MARK_CLOSE, MARK_OPEN
from riftscript.tools.render.renderer import Renderer, render_card, render_effect, render_lines

__all__ = ["MARK_CLOSE", "MARK_OPEN", "Renderer", "render_card", "render_effect", "render_lines"]
