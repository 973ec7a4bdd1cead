"""Role words that chat templates write in their turn headers, one row per template style.

A template opens each turn with a header: special tokens around a role word
(``<|im_start|>assistant\\n``, ``<|start_header_id|>assistant<|end_header_id|>\\n\\n``,
``<start_of_turn>model\\n``) or a plain-text prefix (``ASSISTANT:``, ``### Response:``).
When an engine strips the special tokens from the output, the role word is left as text.
The words are data: a new template style is one ``RoleStyle`` row, and every detector that
reads turn headers (``rules.role_header`` today; a runaway-turn reader later) asks this
table, by role.

Words are the literal forms the templates write (case matters: Gemma's ``model`` is lower
case; an answer's heading "Model" is not a header).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

ASSISTANT: Final = "assistant"
USER: Final = "user"
SYSTEM: Final = "system"


@dataclass(frozen=True, slots=True)
class RoleStyle:
    """The role words one template style writes, per role."""

    name: str
    assistant: tuple[str, ...]
    user: tuple[str, ...]
    system: tuple[str, ...] = ()

    def words(self, role: str) -> tuple[str, ...]:
        if role == ASSISTANT:
            return self.assistant
        if role == USER:
            return self.user
        if role == SYSTEM:
            return self.system
        return ()


ROLE_STYLES: tuple[RoleStyle, ...] = (
    # ChatML (Qwen, Yi, Hermes, …), Llama 3 headers, Phi-3/4: the bare role names
    RoleStyle("chatml", ("assistant",), ("user",), ("system",)),
    # Gemma: <start_of_turn>user / <start_of_turn>model
    RoleStyle("gemma", ("model",), ("user",)),
    # ShareGPT-trained fine-tunes: "from": "gpt" / "human"
    RoleStyle("sharegpt", ("gpt",), ("human",), ("system",)),
    # Vicuna / Alpaca-style plain prefixes and chat-bot templates, with their capitalisation
    RoleStyle(
        "plain",
        ("Assistant", "ASSISTANT", "Bot", "bot"),
        ("User", "USER", "Human", "HUMAN"),
        ("System", "SYSTEM"),
    ),
)


def role_words(role: str) -> dict[str, str]:
    """Every word any style writes for ``role``, mapped to the first style that writes it."""
    out: dict[str, str] = {}
    for style in ROLE_STYLES:
        for word in style.words(role):
            out.setdefault(word, style.name)
    return out
