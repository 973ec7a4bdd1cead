"""Heuristic detectors: multilingual cue tables (English, Korean, Chinese, Japanese).

Importing this package registers the heuristics after the rules.
"""

# Rules register before heuristics whichever package is imported first.
import detectors.rules  # noqa: F401
from detectors.base import register
from detectors.heuristics.preamble_cues import PreambleCues
from detectors.heuristics.self_talk_cues import SelfTalkCues

HEURISTICS = (
    PreambleCues(),
    SelfTalkCues(),
)

for _heuristic in HEURISTICS:
    register(_heuristic)

__all__ = ["HEURISTICS", "PreambleCues", "SelfTalkCues"]
