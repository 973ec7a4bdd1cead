"""Model families as data: one ``ModelFamily`` row per family, in one table.

A row says how a family marks reasoning, which special tokens must never be
visible, and which tool-call markup it writes. Detectors read the table and the
indexes derived from it; adding a family is one new row plus its tests (see
``detectors/AGENTS.md``).

Registry keys (``name``) and ``parser_names`` are the names users type
(``--reasoning-parser deepseek_r1``); renaming one is a breaking change.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from leakline.detectors import tool_markup as tm
from leakline.detectors.exchange import Exchange
from leakline.detectors.interface import UnknownFamilyError


# eq=False: rows compare and hash by identity (cheap in caches; rows are unique).
@dataclass(frozen=True, slots=True, eq=False)
class ModelFamily:
    """How one model family marks the boundaries of its output.

    All delimiters are literal, case-sensitive strings.

    - ``reasoning_start`` / ``reasoning_end``: the delimiters around reasoning
      (empty when the family has none). Any start pairs with any end of the row.
    - ``start_prefilled``: the chat template may put the start delimiter in the
      prompt, so raw output can begin inside reasoning with only an end delimiter.
    - ``boundary_tokens``: other special tokens that must never be visible.
    - ``contextual_tokens``: strings that are ordinary text elsewhere (``<answer>``);
      they count only when this family is the named one or one of its other
      delimiters is visible too.
    - ``budget_end_strings``: text a thinking-budget forces at the end of reasoning.
    - ``tool_call_markup``: the syntaxes this family writes tool calls in.
    """

    name: str
    parser_names: tuple[str, ...] = ()
    model_patterns: tuple[str, ...] = ()
    reasoning_start: tuple[str, ...] = ()
    reasoning_end: tuple[str, ...] = ()
    start_prefilled: bool = False
    boundary_tokens: tuple[str, ...] = ()
    contextual_tokens: tuple[str, ...] = ()
    budget_end_strings: tuple[str, ...] = ()
    tool_call_markup: tuple[tm.ToolMarkup, ...] = ()

    @property
    def visible_tokens(self) -> tuple[str, ...]:
        """Every literal whose visibility is a ``boundary_token`` leak for this family."""
        return (
            self.reasoning_start
            + self.reasoning_end
            + self.boundary_tokens
            + self.contextual_tokens
            + self.budget_end_strings
        )


_THINK = ("<think>",)
_END_THINK = ("</think>",)
_CHATML = ("<|im_start|>", "<|im_end|>", "<|endoftext|>")
_DEEPSEEK_SPECIAL = (
    "<｜begin▁of▁sentence｜>",
    "<｜end▁of▁sentence｜>",
    "<｜User｜>",
    "<｜Assistant｜>",
)

FAMILIES: tuple[ModelFamily, ...] = (
    ModelFamily(
        name="qwen3",
        parser_names=("qwen3", "qwen3_xml", "qwen3_coder", "qwen3-coder"),
        model_patterns=("qwen3", "qwq"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        # Qwen3 *-Thinking-2507 templates put <think> in the prompt; output shows only </think>.
        start_prefilled=True,
        boundary_tokens=_CHATML,
        # vLLM's thinking-budget example end strings (reasoning_end_str in --reasoning-config).
        budget_end_strings=(
            "I have to give the solution based on the thinking directly now.",
            "I have to give the solution based on the reasoning directly now.",
        ),
        tool_call_markup=(tm.HERMES, tm.QWEN3_XML),
    ),
    ModelFamily(
        name="deepseek_r1",
        parser_names=("deepseek_r1", "deepseek-r1"),
        model_patterns=("deepseek-r1", "deepseek_r1", "r1-distill"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        # R1's template prefills <think>: the model starts inside reasoning (R1-0528 writes both).
        start_prefilled=True,
        boundary_tokens=_DEEPSEEK_SPECIAL,
        tool_call_markup=(tm.DEEPSEEK,),
    ),
    ModelFamily(
        name="deepseek_v3",
        parser_names=("deepseek_v3", "deepseek-v3", "deepseek_v31", "deepseekv3", "deepseekv31"),
        model_patterns=("deepseek-v3", "deepseek_v3"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        # V3.1 thinking mode ends the prompt with <think>.
        start_prefilled=True,
        boundary_tokens=_DEEPSEEK_SPECIAL,
        tool_call_markup=(tm.DEEPSEEK,),
    ),
    ModelFamily(
        name="gemma4",
        parser_names=("gemma4",),
        model_patterns=("gemma-4", "gemma4"),
        # From Google's Gemma 4 prompt-format page: thinking is "<|channel>thought\n…<channel|>"
        # and turns are "<|turn>…<turn|>". Note the asymmetric bars, unlike harmony's <|channel|>.
        reasoning_start=("<|channel>",),
        reasoning_end=("<channel|>",),
        boundary_tokens=("<|turn>", "<turn|>", "<|think|>"),
        tool_call_markup=(tm.GEMMA4,),
    ),
    ModelFamily(
        name="glm45",
        parser_names=("glm45", "glm4_moe", "glm47"),
        model_patterns=("glm-4.5", "glm-4.6", "glm-4.7", "glm45"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        boundary_tokens=("<|assistant|>", "<|user|>", "<|system|>", "<|observation|>", "[gMASK]"),
        tool_call_markup=(tm.GLM45,),
    ),
    ModelFamily(
        name="minimax_m2",
        parser_names=("minimax_m2", "minimax_m2_append_think", "minimax-m2"),
        model_patterns=("minimax-m2", "minimax_m2"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        # The parser name says it: the template opens <think>, the parser appends it back.
        start_prefilled=True,
        tool_call_markup=(tm.MINIMAX_M2,),
    ),
    ModelFamily(
        name="kimi_k2",
        parser_names=("kimi_k2", "kimi-k2"),
        model_patterns=("kimi-k2", "kimi_k2", "kimi-vl"),
        # ◁think▷ is the Kimi thinking models' spelling; K2-Thinking/K2.5 templates use <think>.
        reasoning_start=("◁think▷", "<think>"),
        reasoning_end=("◁/think▷", "</think>"),
        boundary_tokens=(
            "<|im_end|>",
            "<|im_user|>",
            "<|im_assistant|>",
            "<|im_system|>",
            "<|im_middle|>",
        ),
        tool_call_markup=(tm.KIMI_K2,),
    ),
    ModelFamily(
        name="gpt_oss",
        parser_names=("openai_gptoss", "gpt-oss", "gpt_oss", "openai", "harmony"),
        model_patterns=("gpt-oss", "gpt_oss"),
        reasoning_start=("<|channel|>analysis",),
        # "assistantfinal" is the harmony header with its special tokens stripped
        # ("analysis…assistantfinal…" output when skip_special_tokens drops them).
        reasoning_end=("<|end|>", "assistantfinal"),
        boundary_tokens=(
            "<|start|>",
            "<|channel|>",
            "<|message|>",
            "<|return|>",
            "<|call|>",
            "<|constrain|>",
        ),
        tool_call_markup=(tm.HARMONY,),
    ),
    ModelFamily(
        name="granite",
        parser_names=("granite",),
        model_patterns=("granite",),
        # Granite 3.2 writes plain-text headers. The <|thinking|>/<|response|> spelling is
        # listed in LABELS.md; it is not confirmed against a Granite tokenizer.
        reasoning_start=("Here is my thought process:", "<|thinking|>"),
        reasoning_end=("Here is my response:", "<|response|>"),
        boundary_tokens=("<|start_of_role|>", "<|end_of_role|>", "<|end_of_text|>"),
        contextual_tokens=("Here is my response:",),
        tool_call_markup=(tm.GRANITE,),
    ),
    # Cohere Command A Reasoning (vLLM/SGLang cohere_command3). The start token is always
    # written by the model (SGLang's CohereCmdParser: initial_in_reasoning=false).
    ModelFamily(
        name="cohere_command3",
        parser_names=("cohere_command3",),
        model_patterns=("command-a", "command-r", "c4ai-command", "cohere"),
        reasoning_start=("<|START_THINKING|>",),
        reasoning_end=("<|END_THINKING|>",),
        boundary_tokens=(
            "<|START_RESPONSE|>",
            "<|END_RESPONSE|>",
            "<|START_OF_TURN_TOKEN|>",
            "<|END_OF_TURN_TOKEN|>",
            "<|CHATBOT_TOKEN|>",
            "<|USER_TOKEN|>",
            "<|SYSTEM_TOKEN|>",
        ),
        tool_call_markup=(tm.COHERE_ACTION,),
    ),
    # Holo2 (H Company, Qwen3-based): thinking is on by default and vLLM's holo2 parser
    # then delegates to the R1 parser, which expects a prefilled <think>. The Hermes tool
    # syntax is inherited from Qwen3 (assumed; not seen in a Holo2 card).
    ModelFamily(
        name="holo2",
        parser_names=("holo2",),
        model_patterns=("holo2", "holo-2"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        start_prefilled=True,
        boundary_tokens=_CHATML,
        tool_call_markup=(tm.HERMES,),
    ),
    # Nemotron 3 Nano: ChatML; the generation prompt ends with "<think>\n" (llama.cpp's
    # nemotron_v3 format checks for it); tool calls use the Qwen3-Coder XML syntax.
    # Before "nemotron": both patterns match "nemotron-3" names.
    ModelFamily(
        name="nemotron_v3",
        parser_names=("nemotron_v3", "nano_v3"),
        model_patterns=("nemotron-3", "nemotron3", "nemotron-nano-3"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        start_prefilled=True,
        boundary_tokens=_CHATML,
        tool_call_markup=(tm.QWEN3_XML,),
    ),
    # Llama-Nemotron / Nemotron Nano 2: the model writes <think>…</think> itself; tool
    # calls are <TOOLCALL>[…]</TOOLCALL> (vLLM llama_nemotron_json). Before llama3, whose
    # patterns also match "Llama-3.3-Nemotron-…".
    ModelFamily(
        name="nemotron",
        parser_names=("nemotron", "llama_nemotron_json"),
        model_patterns=("nemotron",),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        tool_call_markup=(tm.NEMOTRON_TOOLCALL,),
    ),
    # Olmo 3 Think: the generation prompt ends with "<think>"; tools are pythonic calls in
    # <function_calls> (vLLM/SGLang olmo3 tool parser).
    ModelFamily(
        name="olmo3",
        parser_names=("olmo3",),
        model_patterns=("olmo-3", "olmo3"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        start_prefilled=True,
        boundary_tokens=_CHATML,
        tool_call_markup=(tm.OLMO3_PYTHONIC,),
    ),
    ModelFamily(
        name="hunyuan",
        parser_names=("hunyuan_a13b", "hunyuan"),
        model_patterns=("hunyuan",),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        contextual_tokens=("<answer>", "</answer>"),
    ),
    # ERNIE-4.5 Thinking. Its parser also strips <response>…</response> around the answer;
    # those words are ordinary HTML-ish text elsewhere, hence contextual.
    ModelFamily(
        name="ernie",
        parser_names=("ernie45", "ernie"),
        model_patterns=("ernie",),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        contextual_tokens=("<response>", "</response>"),
        tool_call_markup=(tm.HERMES,),
    ),
    ModelFamily(
        name="claude",
        model_patterns=("claude",),
        reasoning_start=("<thinking>",),
        reasoning_end=("</thinking>",),
        tool_call_markup=(tm.CLAUDE_XML,),
    ),
    # ByteDance Seed-OSS: <seed:think>…</seed:think>; with a thinking budget the model
    # reports its spend inside <seed:cot_budget_reflect>…</seed:cot_budget_reflect>.
    ModelFamily(
        name="seed_oss",
        parser_names=("seed_oss",),
        model_patterns=("seed-oss", "seed_oss"),
        reasoning_start=("<seed:think>",),
        reasoning_end=("</seed:think>",),
        boundary_tokens=("<seed:cot_budget_reflect>", "</seed:cot_budget_reflect>"),
        tool_call_markup=(tm.QWEN3_XML,),
    ),
    # Before mistral/llama3: fine-tunes such as Hermes-3-Llama-3.1 name both.
    ModelFamily(
        name="hermes",
        parser_names=("hermes", "qwen25"),
        model_patterns=("hermes", "qwen2"),
        boundary_tokens=_CHATML,
        tool_call_markup=(tm.HERMES,),
    ),
    ModelFamily(
        name="mistral",
        parser_names=("mistral",),
        model_patterns=("mistral", "magistral", "devstral", "mixtral", "ministral"),
        reasoning_start=("[THINK]",),
        reasoning_end=("[/THINK]",),
        boundary_tokens=("[INST]", "[/INST]"),
        tool_call_markup=(tm.MISTRAL,),
    ),
    # Llama 3.x and 4: JSON calls (llama3_json / llama4_json) and pythonic lists
    # (pythonic / llama4_pythonic). Llama 4 renamed the header and end-of-turn tokens.
    ModelFamily(
        name="llama3",
        parser_names=("llama3_json", "llama3", "llama4_json", "llama4_pythonic", "pythonic"),
        model_patterns=("llama-3", "llama3", "llama-4", "llama4"),
        boundary_tokens=(
            "<|begin_of_text|>",
            "<|start_header_id|>",
            "<|end_header_id|>",
            "<|eot_id|>",
            "<|eom_id|>",
            "<|header_start|>",
            "<|header_end|>",
            "<|eot|>",
            "<|eom|>",
        ),
        tool_call_markup=(
            tm.LLAMA3_PYTHON_TAG,
            tm.LLAMA4_PYTHON_START,
            tm.PYTHONIC,
            tm.LLAMA3_JSON,
        ),
    ),
)


_BY_NAME = {f.name: f for f in FAMILIES}
_BY_PARSER = {p.lower(): f for f in FAMILIES for p in f.parser_names}


def get_family(name: str) -> ModelFamily:
    """The row registered under ``name``; raises ``UnknownFamilyError`` listing the known names."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise UnknownFamilyError(name, (f.name for f in FAMILIES)) from None


@lru_cache(maxsize=256)
def _named(
    reasoning_parser: str | None, tool_call_parser: str | None, model_name: str | None
) -> tuple[ModelFamily, ...]:
    named: list[ModelFamily] = []
    for parser in (reasoning_parser, tool_call_parser):
        family = _BY_PARSER.get(parser.lower()) if parser else None
        if family is not None and family not in named:
            named.append(family)
    if model_name:
        lowered = model_name.lower()
        for family in FAMILIES:
            if family not in named and any(p in lowered for p in family.model_patterns):
                named.append(family)
                break
    return tuple(named)


def named_for(
    reasoning_parser: str | None, tool_call_parser: str | None, model_name: str | None
) -> tuple[ModelFamily, ...]:
    """The families these version fields point at (cached): parsers first, then the model."""
    return _named(reasoning_parser, tool_call_parser, model_name)


def named_families(exchange: Exchange) -> tuple[ModelFamily, ...]:
    """The families the exchange's versions point at: reasoning parser, tool parser, model name."""
    v = exchange.versions
    return _named(v.reasoning_parser, v.tool_call_parser, v.model_name)


@lru_cache(maxsize=256)
def _ordered(named: tuple[ModelFamily, ...]) -> tuple[ModelFamily, ...]:
    return named + tuple(f for f in FAMILIES if f not in named)


def family_for(exchange: Exchange) -> list[ModelFamily]:
    """All rows, the named ones first: unknown or wrong versions still get every rule."""
    return list(_ordered(named_families(exchange)))


@lru_cache(maxsize=256)
def _rank(named: tuple[ModelFamily, ...]) -> dict[ModelFamily, int]:
    return {family: i for i, family in enumerate(_ordered(named))}


def family_rank(exchange: Exchange) -> dict[ModelFamily, int]:
    """Each row's position in ``family_for(exchange)``: lower is preferred. Do not mutate."""
    return _rank(named_families(exchange))


@dataclass(frozen=True, slots=True, eq=False)
class Preference:
    """For one set of named families: the preferred row for every visible literal."""

    rank: dict[ModelFamily, int]  # position in family_for(): lower is preferred
    owner: dict[str, ModelFamily]  # literal -> preferred family among all its owners
    closer: dict[str, ModelFamily]  # end literal -> preferred family it closes reasoning for

    def best(self, families: tuple[ModelFamily, ...]) -> ModelFamily:
        return min(families, key=self.rank.__getitem__)


@lru_cache(maxsize=256)
def _preference(named: tuple[ModelFamily, ...]) -> Preference:
    rank = _rank(named)
    owner = {lit: min(role.owners, key=rank.__getitem__) for lit, role in TOKEN_ROLES.items()}
    closer = {
        lit: min(role.ends, key=rank.__getitem__) for lit, role in TOKEN_ROLES.items() if role.ends
    }
    return Preference(rank, owner, closer)


def preference(exchange: Exchange) -> Preference:
    """Which row each literal is attributed to, the exchange's named families first."""
    return _preference(named_families(exchange))


# --------------------------------------------------------------------------- derived indexes


@dataclass(frozen=True, slots=True)
class TokenRole:
    """What one visible literal means, across every family that uses it."""

    owners: tuple[ModelFamily, ...]
    starts: tuple[ModelFamily, ...]  # families for which it opens reasoning
    ends: tuple[ModelFamily, ...]  # families for which it closes reasoning
    contextual: bool  # contextual for every owner
    budget: bool  # a thinking-budget end string: it sits inside reasoning


def _token_roles() -> dict[str, TokenRole]:
    literals = dict.fromkeys(t for f in FAMILIES for t in f.visible_tokens)
    roles = {}
    for literal in literals:
        owners = tuple(f for f in FAMILIES if literal in f.visible_tokens)
        roles[literal] = TokenRole(
            owners=owners,
            starts=tuple(f for f in owners if literal in f.reasoning_start),
            ends=tuple(f for f in owners if literal in f.reasoning_end),
            contextual=all(literal in f.contextual_tokens for f in owners),
            budget=any(literal in f.budget_end_strings for f in owners),
        )
    return roles


TOKEN_ROLES: dict[str, TokenRole] = _token_roles()
