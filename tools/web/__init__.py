"""``riftscript serve``: play, replay and write cards in a browser.

The web app (Starlette on uvicorn, server-rendered HTML with a little plain JavaScript) is an
optional extra, ``pip install 'riftscript[web]'``; nothing here is imported by the engine.  The
modules: :mod:`.games` (tables of people and agents, saved as JSON), :mod:`.board` (what a seat
sees and may do, in plain words), :mod:`.replay` (game logs and records stepped through),
:mod:`.workshop` (a card typed in the browser, checked as ``validate`` checks a file) and
:mod:`.app` (the routes and the safety limits).
"""
