"""``python -m riftscript.tools.audit``: the same as ``riftscript audit``."""
import sys

from riftscript.tools.audit.cli import main

sys.exit(main())
