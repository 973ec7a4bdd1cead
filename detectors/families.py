"""Model families as data: one ``ModelFamily`` row per family, in one table.

A row says how a family marks reasoning, which special tokens must never be
visible, and which tool-call markup it writes. Detectors read the table and the
indexes derived from it; adding a family is one new row plus its tests (see
``detectors/AGENTS.md``).

Registry keys (``name``) and ``parser_names`` are the names users type
(``--reasoning-parser deepseek_r1``); renaming one is a breaking change.

The active table
----------------
``FAMILIES`` is the built-in table. What the detectors use is the *active* table, a
``FamilyTable`` that holds the rows plus every index derived from them (by name, by
parser, ``TokenRole`` per literal, the tool markup rows in scan order, and a memo of
what rules modules build from it, such as their ``LiteralScanner``):

- ``active_table()`` / ``active_families()`` / ``token_roles()`` / ``active_markups()``
  read it (one global read: cheap on the hot path);
- ``set_extra_families(rows)`` merges user rows into the built-in table (a row with a
  built-in name replaces that row in place; others are appended) and swaps in a new
  table; ``set_extra_families(())`` goes back to the built-in rows;
- ``families_excluding(names)`` is a context manager that runs its block with those
  rows (and any tool markup only they use) left out: leave-one-family-out evaluation.

A swap builds a new ``FamilyTable`` (its ``version`` counts up) and never mutates the
old one, so a detector that fetched a table keeps a consistent view for its call. Rules
modules never keep derived structures in module constants: they fetch them per call
through ``FamilyTable.memo(key, build)``. ``TOKEN_ROLES`` stays the built-in table's
roles, for code and tests that mean the built-in rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

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
        # ollama's Modelfile PARSER names: qwen3.5, qwen3-vl-instruct, qwen3-vl-thinking
        parser_names=(
            "qwen3",
            "qwen3_xml",
            "qwen3_coder",
            "qwen3-coder",
            "qwen3-thinking",
            "qwen3.5",
            "qwen3-vl-instruct",
            "qwen3-vl-thinking",
        ),
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
        parser_names=(
            "deepseek_v3",
            "deepseek-v3",
            "deepseek_v31",
            "deepseekv3",
            "deepseekv31",
            "deepseek_v32",
            "deepseekv32",
            "deepseek3",  # ollama
        ),
        model_patterns=("deepseek-v3", "deepseek_v3"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        # V3.1 thinking mode ends the prompt with <think>.
        start_prefilled=True,
        boundary_tokens=_DEEPSEEK_SPECIAL,
        # V3.2 writes DSML (<｜DSML｜function_calls>), V3/V3.1 the ▁-token syntax.
        tool_call_markup=(tm.DEEPSEEK, tm.DEEPSEEK_DSML),
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
        parser_names=("glm45", "glm4_moe", "glm47", "glm", "glm-4.7"),
        model_patterns=("glm-4.5", "glm-4.6", "glm-4.7", "glm45"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        boundary_tokens=("<|assistant|>", "<|user|>", "<|system|>", "<|observation|>", "[gMASK]"),
        tool_call_markup=(tm.GLM45,),
    ),
    ModelFamily(
        name="minimax_m2",
        # SGLang: "minimax" (reasoning, forced), "minimax-append-think", "minimax-m2" (tools)
        parser_names=(
            "minimax_m2",
            "minimax_m2_append_think",
            "minimax-m2",
            "minimax",
            "minimax-append-think",
        ),
        model_patterns=("minimax-m2", "minimax_m2"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        # The parser name says it: the template opens <think>, the parser appends it back.
        start_prefilled=True,
        tool_call_markup=(tm.MINIMAX_M2,),
    ),
    ModelFamily(
        name="kimi_k2",
        parser_names=("kimi_k2", "kimi-k2", "kimi"),  # SGLang "kimi": the ◁think▷ spelling
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
        # granite-20b-fc: Granite-20B-FunctionCalling; granite4: Granite 4.0 (<tool_call> JSON).
        parser_names=("granite", "granite-20b-fc", "granite4"),
        model_patterns=("granite",),
        # Granite 3.2 writes plain-text headers. The <|thinking|>/<|response|> spelling is
        # listed in LABELS.md; it is not confirmed against a Granite tokenizer.
        reasoning_start=("Here is my thought process:", "<|thinking|>"),
        reasoning_end=("Here is my response:", "<|response|>"),
        boundary_tokens=("<|start_of_role|>", "<|end_of_role|>", "<|end_of_text|>"),
        contextual_tokens=("Here is my response:",),
        tool_call_markup=(tm.GRANITE, tm.GRANITE_FC, tm.HERMES),
    ),
    # Cohere Command A Reasoning (vLLM/SGLang cohere_command3). The start token is always
    # written by the model (SGLang's CohereCmdParser: initial_in_reasoning=false).
    ModelFamily(
        name="cohere_command3",
        parser_names=("cohere_command3", "cohere_command4"),
        model_patterns=("command-a", "command-r", "c4ai-command", "cohere"),
        reasoning_start=("<|START_THINKING|>",),
        reasoning_end=("<|END_THINKING|>",),
        boundary_tokens=(
            "<|START_RESPONSE|>",
            "<|END_RESPONSE|>",
            # Command 4 (command-a-plus-05-2026) wraps its answer in START_TEXT/END_TEXT
            "<|START_TEXT|>",
            "<|END_TEXT|>",
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
        parser_names=("nemotron_v3", "nano_v3", "nemotron_3", "nemotron-3-nano"),
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
        parser_names=("olmo3", "olmo3-think"),
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
        # vLLM hunyuan_a13b tool parser: <tool_calls>[{"name": …, "arguments": …}]</tool_calls>
        tool_call_markup=(tm.TOOL_CALLS_JSON,),
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
        parser_names=("hermes", "qwen25", "qwen"),  # SGLang "qwen" = its Qwen 2.5 detector
        model_patterns=("hermes", "qwen2"),
        boundary_tokens=_CHATML,
        tool_call_markup=(tm.HERMES,),
    ),
    ModelFamily(
        name="mistral",
        parser_names=("mistral", "ministral"),
        model_patterns=("mistral", "magistral", "devstral", "mixtral", "ministral"),
        reasoning_start=("[THINK]",),
        reasoning_end=("[/THINK]",),
        # mistral-common's control tokens: turns, the tool list, tool results, system prompt
        # ([ARGS] / [CALL_ID] belong to the [TOOL_CALLS] markup).
        boundary_tokens=(
            "[INST]",
            "[/INST]",
            "[AVAILABLE_TOOLS]",
            "[/AVAILABLE_TOOLS]",
            "[TOOL_RESULTS]",
            "[/TOOL_RESULTS]",
            "[SYSTEM_PROMPT]",
            "[/SYSTEM_PROMPT]",
        ),
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
    # ----- rows from the 2026 parser survey (detectors/PARSERS.md) -----
    # DeepSeek V4: <think>…</think> and DSML tool calls (<｜DSML｜tool_calls>), per vLLM's
    # deepseek_v4 grammar parser docstring. The special tokens are assumed to be V3's.
    ModelFamily(
        name="deepseek_v4",
        parser_names=("deepseek_v4", "deepseek-v4", "deepseekv4"),
        model_patterns=("deepseek-v4", "deepseek_v4"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        start_prefilled=True,
        boundary_tokens=_DEEPSEEK_SPECIAL,
        tool_call_markup=(tm.DEEPSEEK_DSML,),
    ),
    # MiniMax-M3: <mm:think>…</mm:think>; SGLang forces reasoning when thinking_mode is
    # enabled because the template consumes the start tag (prefilled). Its namespaced XML
    # tool syntax is not in the table yet.
    ModelFamily(
        name="minimax_m3",
        parser_names=("minimax_m3", "minimax-m3"),
        model_patterns=("minimax-m3", "minimax_m3"),
        reasoning_start=("<mm:think>",),
        reasoning_end=("</mm:think>",),
        start_prefilled=True,
    ),
    # StepFun Step-3.5: SGLang parses it with the R1 reasoning detector and the Qwen3-Coder
    # tool detector. Before step3: "step3" is a substring of "step3p5".
    ModelFamily(
        name="step3p5",
        parser_names=("step3p5",),
        model_patterns=("step-3.5", "step3.5", "step3p5", "step-3p5"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        start_prefilled=True,
        tool_call_markup=(tm.QWEN3_XML,),
    ),
    # StepFun Step-3: R1-style reasoning (SGLang maps step3 to the R1 detector) and
    # steptml invokes between <｜tool_calls_begin｜> tokens.
    ModelFamily(
        name="step3",
        parser_names=("step3",),
        model_patterns=("step3", "step-3"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        start_prefilled=True,
        tool_call_markup=(tm.STEP3,),
    ),
    # Xiaomi MiMo: vLLM's mimo parsers are its Qwen3 ones (ChatML, <think>, Qwen3 tools).
    ModelFamily(
        name="mimo",
        parser_names=("mimo",),
        model_patterns=("mimo-", "mimo_"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        boundary_tokens=_CHATML,
        tool_call_markup=(tm.QWEN3_XML, tm.HERMES),
    ),
    # InternLM2 / Intern-S1: ChatML; calls are <|action_start|><|plugin|>{…}<|action_end|>;
    # Intern-S1 reasons in <think> (SGLang interns1 = its Qwen3 reasoning detector).
    ModelFamily(
        name="internlm",
        parser_names=("internlm", "interns1"),
        model_patterns=("internlm", "intern-s1", "interns1"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        boundary_tokens=_CHATML,
        tool_call_markup=(tm.INTERNLM_ACTION,),
    ),
    # Phi-4 family: Phi-4-mini tool calls are functools[…] (vLLM phi4_mini_json) and its
    # tool list sits in <|tool|>…<|/tool|>; Phi-4 (14B) separates role and text with
    # <|im_sep|>; Phi-4-reasoning writes <think>. <|end|> is Phi's end of turn too, but
    # it is harmony's reasoning end (gpt_oss row), so it stays there.
    ModelFamily(
        name="phi4",
        parser_names=("phi4_mini_json",),
        model_patterns=("phi-4", "phi4"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        boundary_tokens=("<|im_sep|>", "<|tool|>", "<|/tool|>"),
        tool_call_markup=(tm.PHI4_FUNCTOOLS,),
    ),
    # Liquid LFM2: ChatML plus tool-list / tool-call / tool-response tokens; calls are
    # pythonic lists between <|tool_call_start|> and <|tool_call_end|>. The thinking
    # variants (ollama lfm2-thinking) reason in <think>.
    ModelFamily(
        name="lfm2",
        parser_names=("lfm2", "lfm2-thinking"),
        model_patterns=("lfm2", "lfm-2"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        boundary_tokens=(
            "<|startoftext|>",
            "<|im_start|>",
            "<|im_end|>",
            "<|tool_list_start|>",
            "<|tool_list_end|>",
            "<|tool_response_start|>",
            "<|tool_response_end|>",
        ),
        tool_call_markup=(tm.LFM2,),
    ),
    # Meituan LongCat-Flash: <longcat_think>…</longcat_think> (the thinking template ends the
    # prompt with an open <longcat_think>), <longcat_user>/<longcat_assistant> turns,
    # </longcat_s> end of text, calls in <longcat_tool_call>.
    ModelFamily(
        name="longcat",
        parser_names=("longcat",),
        model_patterns=("longcat",),
        reasoning_start=("<longcat_think>",),
        reasoning_end=("</longcat_think>",),
        start_prefilled=True,
        boundary_tokens=("<longcat_user>", "<longcat_assistant>", "</longcat_s>"),
        tool_call_markup=(tm.LONGCAT,),
    ),
    # FunctionGemma (Gemma 3 270M): Gemma turns, declaration/response tokens, and
    # <start_function_call>call:NAME{…<escape>…}<end_function_call> calls.
    ModelFamily(
        name="functiongemma",
        parser_names=("functiongemma",),
        model_patterns=("functiongemma", "function-gemma"),
        boundary_tokens=(
            "<start_of_turn>",
            "<end_of_turn>",
            "<start_function_declaration>",
            "<end_function_declaration>",
            "<start_function_response>",
            "<end_function_response>",
        ),
        tool_call_markup=(tm.FUNCTIONGEMMA,),
    ),
    # Kimi K3: XTML channels, <|open|>NAME<|sep|> … <|close|>NAME<|sep|> (SGLang kimik3_format).
    # The tools channel and call/argument markers are markup; no ToolMarkup row reads them
    # yet, so they show up through the bare <|open|>/<|close|>/<|sep|> tokens.
    ModelFamily(
        name="kimi_k3",
        parser_names=("kimi_k3",),
        model_patterns=("kimi-k3", "kimi_k3"),
        reasoning_start=("<|open|>think<|sep|>",),
        reasoning_end=("<|close|>think<|sep|>",),
        boundary_tokens=(
            "<|open|>response<|sep|>",
            "<|close|>response<|sep|>",
            "<|close|>message<|sep|>",
            "<|open|>",
            "<|close|>",
            "<|sep|>",
        ),
    ),
    # MiniCPM 4.x/5: ChatML, <think> reasoning, XML calls without a wrapper.
    ModelFamily(
        name="minicpm",
        parser_names=("minicpm5",),
        model_patterns=("minicpm",),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        boundary_tokens=_CHATML,
        tool_call_markup=(tm.MINICPM_XML,),
    ),
    # Sber GigaChat 3 / 3.5: <|message_sep|> between messages, <|role_sep|> after a role
    # header ("function call<|role_sep|>" starts a call), <|function_call|> inline calls.
    ModelFamily(
        name="gigachat",
        parser_names=("gigachat3", "gigachat35"),
        model_patterns=("gigachat",),
        boundary_tokens=("<|message_sep|>", "<|role_sep|>"),
        tool_call_markup=(tm.GIGACHAT,),
    ),
    # Swiss AI Apertus: inner thoughts between <|inner_prefix|> and <|inner_suffix|>, role
    # start/end tokens, calls as [{"NAME": {args}}] between <|tools_prefix|>/<|tools_suffix|>.
    ModelFamily(
        name="apertus",
        parser_names=("apertus", "apertus2509"),
        model_patterns=("apertus",),
        reasoning_start=("<|inner_prefix|>",),
        reasoning_end=("<|inner_suffix|>",),
        boundary_tokens=(
            "<|system_start|>",
            "<|system_end|>",
            "<|developer_start|>",
            "<|developer_end|>",
            "<|user_start|>",
            "<|user_end|>",
            "<|assistant_start|>",
            "<|assistant_end|>",
        ),
        tool_call_markup=(tm.APERTUS,),
    ),
    # LG EXAONE 4.0: role tokens in square brackets ([|user|]), [|endofturn|] ends a turn
    # (an engine that does not stop on it lets the model write the next turns). Thinking
    # mode puts <think> in the prompt; calls are <tool_call>{JSON}</tool_call>.
    ModelFamily(
        name="exaone",
        model_patterns=("exaone",),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        start_prefilled=True,
        boundary_tokens=("[|endofturn|]", "[|system|]", "[|user|]", "[|assistant|]", "[|tool|]"),
        tool_call_markup=(tm.HERMES,),
    ),
    # ServiceNow Apriel Thinker (vLLM's apriel reasoning parser): the prompt ends with the
    # plain-text header "Here are my reasoning steps:", and everything before
    # [BEGIN FINAL RESPONSE] is reasoning; calls are <tool_calls>[{JSON}]</tool_calls>.
    ModelFamily(
        name="apriel",
        parser_names=("apriel",),
        model_patterns=("apriel",),
        reasoning_start=("Here are my reasoning steps:",),
        reasoning_end=("[BEGIN FINAL RESPONSE]",),
        start_prefilled=True,
        boundary_tokens=("[END FINAL RESPONSE]", "<|end|>"),
        contextual_tokens=("Here are my reasoning steps:",),
        tool_call_markup=(tm.TOOL_CALLS_JSON,),
    ),
    # NAVER HyperCLOVA X SEED Think (vLLM's hyperclovax_seed_think tool parser): ChatML turns,
    # reasoning that ends with </think> (its parser's samples open without <think>), and
    # GLM-style calls (<tool_call>NAME<arg_key>…</arg_key><arg_value>…</arg_value>).
    ModelFamily(
        name="hyperclovax",
        parser_names=("hyperclovax_seed_think",),
        model_patterns=("hyperclovax", "hyperclova"),
        reasoning_start=_THINK,
        reasoning_end=_END_THINK,
        start_prefilled=True,
        boundary_tokens=_CHATML,
        tool_call_markup=(tm.GLM45,),
    ),
)


def get_family(name: str) -> ModelFamily:
    """The active row registered under ``name``; raises ``UnknownFamilyError`` listing the known names."""
    table = _ACTIVE
    try:
        return table.by_name[name]
    except KeyError:
        raise UnknownFamilyError(name, (f.name for f in table.families)) from None


@lru_cache(maxsize=256)
def _named(
    table: FamilyTable,
    reasoning_parser: str | None,
    tool_call_parser: str | None,
    model_name: str | None,
) -> tuple[ModelFamily, ...]:
    named: list[ModelFamily] = []
    for parser in (reasoning_parser, tool_call_parser):
        family = table.by_parser.get(parser.lower()) if parser else None
        if family is not None and family not in named:
            named.append(family)
    if model_name:
        lowered = model_name.lower()
        for family in table.families:
            if family not in named and any(p in lowered for p in family.model_patterns):
                named.append(family)
                break
    return tuple(named)


def named_for(
    reasoning_parser: str | None, tool_call_parser: str | None, model_name: str | None
) -> tuple[ModelFamily, ...]:
    """The families these version fields point at (cached): parsers first, then the model."""
    return _named(_ACTIVE, reasoning_parser, tool_call_parser, model_name)


def named_families(exchange: Exchange) -> tuple[ModelFamily, ...]:
    """The families the exchange's versions point at: reasoning parser, tool parser, model name."""
    v = exchange.versions
    return _named(_ACTIVE, v.reasoning_parser, v.tool_call_parser, v.model_name)


@lru_cache(maxsize=256)
def _ordered(table: FamilyTable, named: tuple[ModelFamily, ...]) -> tuple[ModelFamily, ...]:
    return named + tuple(f for f in table.families if f not in named)


def family_for(exchange: Exchange) -> list[ModelFamily]:
    """All active rows, the named ones first: unknown or wrong versions still get every rule."""
    return list(_ordered(_ACTIVE, named_families(exchange)))


@lru_cache(maxsize=256)
def _rank(table: FamilyTable, named: tuple[ModelFamily, ...]) -> dict[ModelFamily, int]:
    return {family: i for i, family in enumerate(_ordered(table, named))}


def family_rank(exchange: Exchange) -> dict[ModelFamily, int]:
    """Each row's position in ``family_for(exchange)``: lower is preferred. Do not mutate."""
    return _rank(_ACTIVE, named_families(exchange))


@dataclass(frozen=True, slots=True, eq=False)
class Preference:
    """For one set of named families: the preferred row for every visible literal."""

    rank: dict[ModelFamily, int]  # position in family_for(): lower is preferred
    owner: dict[str, ModelFamily]  # literal -> preferred family among all its owners
    closer: dict[str, ModelFamily]  # end literal -> preferred family it closes reasoning for

    def best(self, families: tuple[ModelFamily, ...]) -> ModelFamily:
        return min(families, key=self.rank.__getitem__)


@lru_cache(maxsize=256)
def _preference(table: FamilyTable, named: tuple[ModelFamily, ...]) -> Preference:
    rank = _rank(table, named)
    roles = table.token_roles
    owner = {lit: min(role.owners, key=rank.__getitem__) for lit, role in roles.items()}
    closer = {lit: min(role.ends, key=rank.__getitem__) for lit, role in roles.items() if role.ends}
    return Preference(rank, owner, closer)


def preference(exchange: Exchange) -> Preference:
    """Which row each literal is attributed to, the exchange's named families first."""
    table = _ACTIVE
    v = exchange.versions
    return _preference(table, _named(table, v.reasoning_parser, v.tool_call_parser, v.model_name))


# --------------------------------------------------------------------------- derived indexes


@dataclass(frozen=True, slots=True)
class TokenRole:
    """What one visible literal means, across every family that uses it."""

    owners: tuple[ModelFamily, ...]
    starts: tuple[ModelFamily, ...]  # families for which it opens reasoning
    ends: tuple[ModelFamily, ...]  # families for which it closes reasoning
    contextual: bool  # contextual for every owner
    budget: bool  # a thinking-budget end string: it sits inside reasoning


def _token_roles(families: tuple[ModelFamily, ...]) -> dict[str, TokenRole]:
    literals = dict.fromkeys(t for f in families for t in f.visible_tokens)
    roles = {}
    for literal in literals:
        owners = tuple(f for f in families if literal in f.visible_tokens)
        roles[literal] = TokenRole(
            owners=owners,
            starts=tuple(f for f in owners if literal in f.reasoning_start),
            ends=tuple(f for f in owners if literal in f.reasoning_end),
            contextual=all(literal in f.contextual_tokens for f in owners),
            budget=any(literal in f.budget_end_strings for f in owners),
        )
    return roles


# --------------------------------------------------------------------------- the active table

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True, eq=False)
class FamilyTable:
    """The active rows and every index derived from them. Never mutated after a swap
    except ``derived``, the memo that ``memo`` fills (one entry per key)."""

    families: tuple[ModelFamily, ...]
    markups: tuple[tm.ToolMarkup, ...]  # the rows' tool markup, in TOOL_MARKUPS scan order
    by_name: dict[str, ModelFamily]
    by_parser: dict[str, ModelFamily]
    token_roles: dict[str, TokenRole]
    version: int
    derived: dict[str, Any] = field(default_factory=dict)

    def memo(self, key: str, build: Callable[[FamilyTable], _T]) -> _T:
        """``build(self)``, built once per table and key (rules modules' scanners and maps)."""
        found = self.derived.get(key)
        if found is None:
            found = self.derived[key] = build(self)
        return found  # type: ignore[no-any-return]


def _markups_of(families: tuple[ModelFamily, ...]) -> tuple[tm.ToolMarkup, ...]:
    """The rows' tool markup in scan order: built-in rows in ``TOOL_MARKUPS`` order, then
    new non-bare rows before the bare ones (specific syntaxes before generic)."""
    used = {m for f in families for m in f.tool_call_markup}
    known = [m for m in tm.TOOL_MARKUPS if m in used]
    new = [m for f in families for m in f.tool_call_markup if m not in tm.TOOL_MARKUPS]
    new = list(dict.fromkeys(new))
    return tuple(m for m in new if not m.bare) + tuple(known) + tuple(m for m in new if m.bare)


def _build_table(families: tuple[ModelFamily, ...], version: int) -> FamilyTable:
    by_parser: dict[str, ModelFamily] = {}
    for family in families:
        for parser in family.parser_names:
            clash = by_parser.setdefault(parser.lower(), family)
            if clash is not family:
                raise ValueError(
                    f"parser name {parser!r} of family {family.name!r} is already "
                    f"used by {clash.name!r}"
                )
    return FamilyTable(
        families=families,
        markups=_markups_of(families),
        by_name={f.name: f for f in families},
        by_parser=by_parser,
        token_roles=_token_roles(families),
        version=version,
    )


TOKEN_ROLES: dict[str, TokenRole] = _token_roles(FAMILIES)
_EXTRA: tuple[ModelFamily, ...] = ()
_EXCLUDED: frozenset[str] = frozenset()
_ACTIVE: FamilyTable = _build_table(FAMILIES, 0)


def active_table() -> FamilyTable:
    """The table the detectors use now (built-in rows plus extras, minus exclusions)."""
    return _ACTIVE


def active_families() -> tuple[ModelFamily, ...]:
    """The active rows, in table order."""
    return _ACTIVE.families


def token_roles() -> dict[str, TokenRole]:
    """``TokenRole`` per visible literal of the active rows. Do not mutate."""
    return _ACTIVE.token_roles


def active_markups() -> tuple[tm.ToolMarkup, ...]:
    """The tool markup rows the active families write, in scan order."""
    return _ACTIVE.markups


def _merged(extra: tuple[ModelFamily, ...], excluded: frozenset[str]) -> tuple[ModelFamily, ...]:
    replace = {f.name: f for f in extra}
    rows = [replace.pop(f.name, f) for f in FAMILIES]
    rows.extend(f for f in extra if f.name in replace)
    return tuple(f for f in rows if f.name not in excluded)


def _swap(extra: tuple[ModelFamily, ...], excluded: frozenset[str]) -> FamilyTable:
    global _ACTIVE, _EXTRA, _EXCLUDED
    table = _build_table(_merged(extra, excluded), _ACTIVE.version + 1)
    _EXTRA, _EXCLUDED, _ACTIVE = extra, excluded, table
    return table


def set_extra_families(rows: Iterable[ModelFamily]) -> FamilyTable:
    """Merge ``rows`` into the built-in table and make that the active table.

    A row named like a built-in row replaces it in place; other rows are appended in
    the given order. Calling it again replaces the previous extras (``()`` restores the
    built-in table). Raises ``ValueError`` (and keeps the current table) when two rows
    share a name or a parser name.
    """
    extra = tuple(rows)
    names = [f.name for f in extra]
    if len(names) != len(set(names)):
        raise ValueError(f"duplicate family names in {names}")
    return _swap(extra, _EXCLUDED)


@contextmanager
def families_excluding(names: Iterable[str]) -> Iterator[FamilyTable]:
    """Run the block with the named rows left out of the active table (and restore it).

    Unknown names raise ``UnknownFamilyError``. Tool markup used only by the left-out
    rows is left out too. Not for concurrent use from several threads.
    """
    wanted = frozenset(names)
    for name in wanted:
        get_family(name)
    before_extra, before_excluded = _EXTRA, _EXCLUDED
    table = _swap(before_extra, before_excluded | wanted)
    try:
        yield table
    finally:
        _swap(before_extra, before_excluded)


# --------------------------------------------------------------------------- rows as data

_ROW_FIELDS: tuple[str, ...] = (
    "parser_names",
    "model_patterns",
    "reasoning_start",
    "reasoning_end",
    "boundary_tokens",
    "contextual_tokens",
    "budget_end_strings",
)


def family_to_dict(row: ModelFamily) -> dict[str, object]:
    """A row as plain JSON data; ``tool_call_markup`` by ``ToolMarkup`` name."""
    out: dict[str, object] = {"name": row.name}
    for key in _ROW_FIELDS:
        out[key] = list(getattr(row, key))
    out["start_prefilled"] = row.start_prefilled
    out["tool_call_markup"] = [markup.name for markup in row.tool_call_markup]
    return out


def family_from_dict(data: dict[str, object]) -> ModelFamily:
    """The row ``family_to_dict`` wrote; ``ValueError`` naming the field when it is not one."""
    if not isinstance(data, dict):
        raise ValueError("a family row must be a JSON object")
    unknown = sorted(set(data) - {"name", "start_prefilled", "tool_call_markup", *_ROW_FIELDS})
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("name must be a non-empty string")
    fields: dict[str, tuple[str, ...]] = {}
    for key in (*_ROW_FIELDS, "tool_call_markup"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise ValueError(f"{name}: {key} must be a list of non-empty strings")
        fields[key] = tuple(value)
    prefilled = data.get("start_prefilled", False)
    if not isinstance(prefilled, bool):
        raise ValueError(f"{name}: start_prefilled must be true or false")
    markups = {markup.name: markup for markup in tm.TOOL_MARKUPS}
    missing = [m for m in fields["tool_call_markup"] if m not in markups]
    if missing:
        raise ValueError(
            f"{name}: unknown tool_call_markup {', '.join(missing)} "
            f"(known: {', '.join(sorted(markups))})"
        )
    return ModelFamily(
        name=name,
        parser_names=fields["parser_names"],
        model_patterns=fields["model_patterns"],
        reasoning_start=fields["reasoning_start"],
        reasoning_end=fields["reasoning_end"],
        start_prefilled=prefilled,
        boundary_tokens=fields["boundary_tokens"],
        contextual_tokens=fields["contextual_tokens"],
        budget_end_strings=fields["budget_end_strings"],
        tool_call_markup=tuple(markups[m] for m in fields["tool_call_markup"]),
    )
