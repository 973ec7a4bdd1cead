"""Role words that chat templates write in their turn headers, one row per template style.

A template opens each turn with a header: special tokens around a role word
(``<|im_start|>assistant\\n``, ``<|start_header_id|>assistant<|end_header_id|>\\n\\n``,
``<start_of_turn>model\\n``) or a plain-text prefix (``ASSISTANT:``, ``### Response:``).
When an engine strips the special tokens from the output, the role word is left as text.
The words are data: a new template style or language is one ``RoleStyle`` row, and every
detector that reads turn headers (``rules.role_header``, ``rules.runaway_turn``) asks this
table, by role. Rows with ``bare=False`` are conversational prefixes only ("인간:", "助手：",
"### Instruction:"): a template never writes them alone on a line, so ``role_header`` (the
bare word on the first line) leaves them out.

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
    # the template writes the word alone on its header line (tokens stripped leave it bare);
    # False: the word is only ever a prefix with a colon ("사용자:", "### Instruction:")
    bare: bool = True

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
    # conversational prefixes, per language ("Human:", "인간:", "用户：")
    RoleStyle("chat_en", ("AI", "Model", "Chatbot"), ("Human", "User"), bare=False),
    RoleStyle(
        "chat_ko",
        ("어시스턴트", "도우미", "챗봇", "봇", "모델"),
        ("사용자", "인간", "유저"),
        bare=False,
    ),
    RoleStyle("chat_zh", ("助手", "机器人", "模型", "AI助手"), ("用户", "人类"), bare=False),
    RoleStyle("chat_ja", ("アシスタント",), ("ユーザー", "人間"), bare=False),
    # Alpaca and its translations: "### Instruction:" / "### Response:"
    RoleStyle("alpaca", ("Response",), ("Instruction",), ("Input",), bare=False),
    RoleStyle("alpaca_ko", ("응답",), ("명령어", "지시"), bare=False),
    RoleStyle("alpaca_zh", ("回答", "回复"), ("指令",), bare=False),
    # OpenChat: "GPT4 Correct User:" / "GPT4 Correct Assistant:"
    RoleStyle("openchat", ("GPT4 Correct Assistant",), ("GPT4 Correct User",), bare=False),
)


def role_words(role: str, bare_only: bool = True) -> dict[str, str]:
    """Every word a style writes for ``role``, mapped to the first style that writes it;
    ``bare_only``: only the styles that write it alone on a header line."""
    out: dict[str, str] = {}
    for style in ROLE_STYLES:
        if bare_only and not style.bare:
            continue
        for word in style.words(role):
            out.setdefault(word, style.name)
    return out
