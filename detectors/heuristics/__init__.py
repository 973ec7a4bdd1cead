"""Heuristic detectors: multilingual cue tables (English, Korean, Chinese, Japanese).

Importing this package registers the heuristics after the rules.
"""

from leakline.detectors.base import register
from leakline.detectors.heuristics.preamble_cues import PreambleCues
from leakline.detectors.heuristics.self_talk_cues import SelfTalkCues
from leakline.detectors.heuristics.stalled_turn import StalledTurn
from leakline.detectors.heuristics.structured_reasoning import StructuredReasoning

HEURISTICS = (
    StalledTurn(),
    PreambleCues(),
    SelfTalkCues(),
    StructuredReasoning(),
)

for _heuristic in HEURISTICS:
    register(_heuristic)

__all__ = ["HEURISTICS", "PreambleCues", "SelfTalkCues", "StalledTurn", "StructuredReasoning"]
