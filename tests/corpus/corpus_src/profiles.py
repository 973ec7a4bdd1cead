"""Who produced a response: one row per serving setup used in the corpus.

A profile fixes the model family, model name, engine, engine parsers and chat
template. Several profiles can share a family (same model served with a
different parser pair, or by another engine); that is how the corpus expresses
"parser family mismatch" and "tool parser without reasoning parser" setups.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Profile:
    key: str
    family: str
    model: str
    engine: str
    engine_version: str | None
    reasoning_parser: str | None
    tool_parser: str | None
    template: str | None
    revision: str | None = None
    gateway: tuple[str, str] | None = None

    def template_hash(self) -> str | None:
        if self.template is None:
            return None
        digest = hashlib.sha256(f"{self.model}|{self.template}".encode()).hexdigest()
        return f"sha256:{digest[:16]}"


def _p(key, family, model, engine, version, rp, tp, template, revision=None, gateway=None):
    return Profile(key, family, model, engine, version, rp, tp, template, revision, gateway)


LITELLM = ("litellm", "1.78.5")
ENVOY = ("envoy-ai-gateway", "0.4.0")

_ROWS = [
    # Qwen3 hybrid thinking models, properly configured
    _p(
        "qwen3",
        "qwen3",
        "Qwen/Qwen3-32B",
        "vllm",
        "0.31.0",
        "qwen3",
        "hermes",
        "qwen3",
        "9216f5f",
        LITELLM,
    ),
    _p(
        "qwen3_30b",
        "qwen3",
        "Qwen/Qwen3-30B-A3B",
        "vllm",
        "0.30.2",
        "qwen3",
        "hermes",
        "qwen3",
        "ad44e77",
    ),
    _p(
        "qwen3_sglang",
        "qwen3",
        "Qwen/Qwen3-14B",
        "sglang",
        "0.5.4",
        "qwen3",
        "qwen25",
        "qwen3",
        None,
        ENVOY,
    ),
    _p(
        "qwen3_thinking",
        "qwen3",
        "Qwen/Qwen3-235B-A22B-Thinking-2507",
        "vllm",
        "0.31.0",
        "qwen3",
        "hermes",
        "qwen3-thinking-2507",
    ),
    # Qwen3 served with no reasoning parser (tags stay in content)
    _p(
        "qwen3_noparser",
        "qwen3",
        "Qwen/Qwen3-8B",
        "vllm",
        "0.30.2",
        None,
        "hermes",
        "qwen3",
        None,
        LITELLM,
    ),
    # Qwen3 served with the DeepSeek-R1 parser: with thinking off the answer lands in reasoning
    _p(
        "qwen3_r1parser",
        "qwen3",
        "Qwen/Qwen3-32B",
        "vllm",
        "0.30.2",
        "deepseek_r1",
        "hermes",
        "qwen3",
    ),
    _p("qwq", "qwq", "Qwen/QwQ-32B", "vllm", "0.31.0", "deepseek_r1", "hermes", "qwq"),
    _p("qwq_noparser", "qwq", "Qwen/QwQ-32B", "sglang", "0.5.4", None, None, "qwq"),
    # Qwen3-Coder: XML tool calls; with only the tool parser the reasoning boundary is lost
    _p(
        "qwen3_coder",
        "qwen3_coder",
        "Qwen/Qwen3-Coder-30B-A3B-Instruct",
        "vllm",
        "0.31.0",
        "qwen3",
        "qwen3_xml",
        "qwen3-coder",
    ),
    _p(
        "qwen3_coder_toolonly",
        "qwen3_coder",
        "Qwen/Qwen3-Coder-30B-A3B-Instruct",
        "vllm",
        "0.31.0",
        None,
        "qwen3_xml",
        "qwen3-coder",
    ),
    _p(
        "qwen3_coder_hermes",
        "qwen3_coder",
        "Qwen/Qwen3-Coder-480B-A35B-Instruct",
        "vllm",
        "0.30.2",
        None,
        "hermes",
        "qwen3-coder",
    ),
    # DeepSeek
    _p(
        "deepseek_r1",
        "deepseek_r1",
        "deepseek-ai/DeepSeek-R1",
        "vllm",
        "0.30.2",
        "deepseek_r1",
        None,
        "deepseek-r1",
    ),
    _p(
        "deepseek_r1_noparser",
        "deepseek_r1",
        "deepseek-ai/DeepSeek-R1",
        "vllm",
        "0.30.2",
        None,
        None,
        "deepseek-r1",
        None,
        LITELLM,
    ),
    _p(
        "deepseek_r1_sglang",
        "deepseek_r1",
        "deepseek-ai/DeepSeek-R1",
        "sglang",
        "0.5.4",
        "deepseek-r1",
        None,
        "deepseek-r1",
    ),
    _p(
        "deepseek_r1_0528",
        "deepseek_r1",
        "deepseek-ai/DeepSeek-R1-0528",
        "vllm",
        "0.31.0",
        "deepseek_r1",
        "deepseek_v3",
        "deepseek-r1-0528",
    ),
    _p(
        "deepseek_r1_distill",
        "deepseek_r1",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B",
        "vllm",
        "0.30.2",
        "deepseek_r1",
        None,
        "deepseek-r1-distill",
    ),
    _p(
        "deepseek_v3",
        "deepseek_v3",
        "deepseek-ai/DeepSeek-V3.1",
        "vllm",
        "0.31.0",
        "deepseek_v3",
        "deepseek_v31",
        "deepseek-v3.1",
    ),
    _p(
        "deepseek_v3_sglang",
        "deepseek_v3",
        "deepseek-ai/DeepSeek-V3.1",
        "sglang",
        "0.5.4",
        "deepseek-v3",
        "deepseekv31",
        "deepseek-v3.1",
        None,
        ENVOY,
    ),
    _p(
        "deepseek_v3_noparser",
        "deepseek_v3",
        "deepseek-ai/DeepSeek-V3.1",
        "sglang",
        "0.5.4",
        None,
        None,
        "deepseek-v3.1",
    ),
    _p(
        "deepseek_v3_r1parser",
        "deepseek_v3",
        "deepseek-ai/DeepSeek-V3.1",
        "vllm",
        "0.30.2",
        "deepseek_r1",
        "deepseek_v31",
        "deepseek-v3.1",
    ),
    # Gemma 4
    _p("gemma4", "gemma4", "google/gemma-4-26B-A4B-it", "vllm", "0.31.0", "gemma4", None, "gemma4"),
    _p(
        "gemma4_old",
        "gemma4",
        "google/gemma-4-26B-A4B-it",
        "vllm",
        "0.26.1",
        "gemma4",
        None,
        "gemma4",
    ),
    _p(
        "gemma4_noparser", "gemma4", "google/gemma-4-31B-it", "vllm", "0.31.0", None, None, "gemma4"
    ),
    # GLM-4.5
    _p("glm45", "glm45", "zai-org/GLM-4.5-Air", "vllm", "0.31.0", "glm45", "glm45", "glm45"),
    _p(
        "glm45_noparser",
        "glm45",
        "zai-org/GLM-4.5-Air",
        "vllm",
        "0.30.2",
        None,
        "glm45",
        "glm45",
        None,
        LITELLM,
    ),
    _p(
        "glm45_sglang",
        "glm45",
        "zai-org/GLM-4.5",
        "sglang",
        "0.5.4",
        "glm45",
        "glm45",
        "glm45",
        None,
        LITELLM,
    ),
    # MiniMax
    _p(
        "minimax_m2",
        "minimax_m2",
        "MiniMaxAI/MiniMax-M2",
        "vllm",
        "0.31.0",
        "minimax_m2",
        "minimax_m2",
        "minimax-m2",
    ),
    # minimax_m2_append_think keeps <think>...</think> inside content on purpose
    _p(
        "minimax_m2_append",
        "minimax_m2",
        "MiniMaxAI/MiniMax-M2",
        "vllm",
        "0.31.0",
        "minimax_m2_append_think",
        "minimax_m2",
        "minimax-m2",
    ),
    # MiniMax-M2.5 served with the parser written for M2: <think> leaks into content
    _p(
        "minimax_m25_m2parser",
        "minimax_m2",
        "MiniMaxAI/MiniMax-M2.5",
        "vllm",
        "0.30.2",
        "minimax_m2",
        "minimax_m2",
        "minimax-m2.5",
    ),
    # Kimi K2
    _p(
        "kimi_k2",
        "kimi_k2",
        "moonshotai/Kimi-K2-Thinking",
        "vllm",
        "0.31.0",
        "kimi_k2",
        "kimi_k2",
        "kimi-k2-thinking",
    ),
    _p(
        "kimi_k2_sglang",
        "kimi_k2",
        "moonshotai/Kimi-K2-Thinking",
        "sglang",
        "0.5.4",
        "kimi_k2",
        "kimi_k2",
        "kimi-k2-thinking",
        None,
        ENVOY,
    ),
    _p(
        "kimi_k2_noparser",
        "kimi_k2",
        "moonshotai/Kimi-K2-Thinking",
        "sglang",
        "0.5.4",
        None,
        None,
        "kimi-k2-thinking",
    ),
    # gpt-oss (harmony)
    _p(
        "gpt_oss",
        "gpt_oss",
        "openai/gpt-oss-120b",
        "vllm",
        "0.31.0",
        "openai_gptoss",
        "openai",
        "harmony",
    ),
    _p(
        "gpt_oss_20b",
        "gpt_oss",
        "openai/gpt-oss-20b",
        "vllm",
        "0.30.2",
        "openai_gptoss",
        "openai",
        "harmony",
        None,
        LITELLM,
    ),
    _p("gpt_oss_raw", "gpt_oss", "openai/gpt-oss-20b", "sglang", "0.5.4", None, None, "harmony"),
    # Others
    _p(
        "granite",
        "granite",
        "ibm-granite/granite-3.2-8b-instruct",
        "vllm",
        "0.30.2",
        "granite",
        "granite",
        "granite-3.2",
    ),
    _p(
        "granite_noparser",
        "granite",
        "ibm-granite/granite-3.2-8b-instruct",
        "vllm",
        "0.30.2",
        None,
        "granite",
        "granite-3.2",
    ),
    _p(
        "hunyuan",
        "hunyuan",
        "tencent/Hunyuan-A13B-Instruct",
        "vllm",
        "0.31.0",
        "hunyuan_a13b",
        "hunyuan_a13b",
        "hunyuan-a13b",
    ),
    _p(
        "hunyuan_noparser",
        "hunyuan",
        "tencent/Hunyuan-A13B-Instruct",
        "vllm",
        "0.30.2",
        None,
        "hunyuan_a13b",
        "hunyuan-a13b",
    ),
    _p(
        "ernie",
        "ernie",
        "baidu/ERNIE-4.5-21B-A3B-Thinking",
        "vllm",
        "0.31.0",
        "ernie45",
        "ernie45",
        "ernie-4.5-thinking",
    ),
    _p(
        "ernie_noparser",
        "ernie",
        "baidu/ERNIE-4.5-21B-A3B-Thinking",
        "vllm",
        "0.30.2",
        None,
        "ernie45",
        "ernie-4.5-thinking",
    ),
    _p(
        "seed_oss",
        "seed_oss",
        "ByteDance-Seed/Seed-OSS-36B-Instruct",
        "vllm",
        "0.31.0",
        "seed_oss",
        "seed_oss",
        "seed-oss",
    ),
    _p(
        "seed_oss_noparser",
        "seed_oss",
        "ByteDance-Seed/Seed-OSS-36B-Instruct",
        "vllm",
        "0.30.2",
        None,
        "seed_oss",
        "seed-oss",
    ),
    _p(
        "magistral",
        "magistral",
        "mistralai/Magistral-Small-2509",
        "vllm",
        "0.31.0",
        "mistral",
        "mistral",
        "magistral",
    ),
    _p(
        "magistral_noparser",
        "magistral",
        "mistralai/Magistral-Small-2509",
        "vllm",
        "0.30.2",
        None,
        "mistral",
        "magistral",
    ),
    _p(
        "mistral",
        "mistral",
        "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
        "vllm",
        "0.31.0",
        None,
        "mistral",
        "mistral-small-3.2",
    ),
    _p(
        "mistral_notool",
        "mistral",
        "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
        "vllm",
        "0.30.2",
        None,
        None,
        "mistral-small-3.2",
        None,
        LITELLM,
    ),
    _p(
        "llama3",
        "llama3",
        "meta-llama/Llama-3.3-70B-Instruct",
        "vllm",
        "0.31.0",
        None,
        "llama3_json",
        "llama3.3-json",
    ),
    _p(
        "llama3_notool",
        "llama3",
        "meta-llama/Llama-3.1-8B-Instruct",
        "sglang",
        "0.5.4",
        None,
        None,
        "llama3.1",
        None,
        ENVOY,
    ),
    _p(
        "hermes",
        "hermes",
        "NousResearch/Hermes-3-Llama-3.1-8B",
        "vllm",
        "0.30.2",
        None,
        "hermes",
        "hermes-3",
    ),
    _p(
        "hermes_notool",
        "hermes",
        "NousResearch/Hermes-3-Llama-3.1-8B",
        "sglang",
        "0.5.4",
        None,
        None,
        "hermes-3",
    ),
    # Managed APIs
    _p("claude", "claude", "claude-sonnet-4-5", "anthropic", None, None, None, None, None, LITELLM),
    _p("claude_opus", "claude", "claude-opus-4-5", "anthropic", None, None, None, None),
    _p("gpt5", "gpt5", "gpt-5.4", "openai", None, None, None, None, None, LITELLM),
    _p("gpt5_mini", "gpt5", "gpt-5.4-mini", "openai", None, None, None, None),
]

PROFILES: dict[str, Profile] = {row.key: row for row in _ROWS}
if len(PROFILES) != len(_ROWS):
    raise ValueError("duplicate profile key")


def get_profile(key: str) -> Profile:
    try:
        return PROFILES[key]
    except KeyError:
        raise KeyError(f"unknown profile {key!r}; known: {', '.join(sorted(PROFILES))}") from None
