"""Stream x stop variant groups: one request sent four ways to the same vLLM deployment.

Each group sends the SAME messages non-streamed and streamed, each with and without a `stop`
list. Only the streamed request with `stop` leaks: vLLM's stop-string check holds back
`delta_text` while the reasoning parser already sees the token ids, so the end of the reasoning
and the end delimiter arrive as content (the streaming + stop boundary bug). The three other
variants are clean. All four carry the same ``group`` field so tests can compare them.
"""

from __future__ import annotations

from .shapes import C, Cs, Rs, Theme

T = Theme("stop_variants")
B, L = "boundary_token", "reasoning_leak"


def stop_group(
    group: str,
    profile: str,
    lang: str,
    *,
    user: str,
    reasoning: tuple[str, str],
    answer: str,
    stop: list[str],
    end_pieces: tuple[str, ...] = ("\n</th", "ink>\n\n"),
    tail_leaks: bool = True,
    rkey: str = "reasoning",
    system: str | None = None,
    tkw: dict | None = None,
) -> None:
    """Four cases. ``reasoning`` is (head, tail): in the leaking stream the head still arrives as
    reasoning, while the tail (when ``tail_leaks``) and the end delimiter arrive as content."""
    head, tail = reasoning
    full = head + tail
    common = {"user": user, "rkey": rkey, "system": system, "tkw": tkw, "group": group}
    T.chat(
        [],
        profile,
        lang,
        "Clean: non-streamed, no stop; reasoning parsed into the reasoning field "
        f"(stream x stop group {group}).",
        reasoning=full,
        content=answer,
        **common,
    )
    T.chat(
        [],
        profile,
        lang,
        "Clean: non-streamed with stop; the stop buffer does not matter without streaming "
        f"(group {group}).",
        reasoning=full,
        content=answer,
        stop=stop,
        **common,
    )
    T.chat_stream(
        [],
        profile,
        lang,
        f"Clean: streamed without stop; reasoning deltas and content deltas are separate (group {group}).",
        deltas=[Rs(full), Cs(answer)],
        **common,
    )
    if tail_leaks:
        deltas = [Rs(head), Cs(tail + end_pieces[0]), *[C(p) for p in end_pieces[1:]], Cs(answer)]
        labels = [B, L]
        how = "the tail of the reasoning and the end delimiter (split across chunks) arrive as content"
    else:
        deltas = [Rs(full), *[C(p) for p in end_pieces], Cs(answer)]
        labels = [B]
        how = "only the end delimiter arrives as content, nothing before it"
    T.chat_stream(
        labels,
        profile,
        lang,
        f"Streamed with stop (the only leaking variant of group {group}): {how}.",
        deltas=deltas,
        stop=stop,
        **common,
    )


stop_group(
    "stopbug-qwen3-01",
    "qwen3",
    "en",
    user="My sourdough starter smells like nail polish remover. Is it ruined?",
    reasoning=(
        "Acetone smell means the yeast and bacteria are hungry: they ran out of food and produce ethyl "
        "acetate. Not ruined. Fix: discard most, feed at a higher ratio like 1:5:5, ",
        "maybe twice a day for a couple of days, keep it warm. Only mould or pink/orange streaks mean toss it.",
    ),
    answer=(
        "It isn't ruined — that sharp, solvent-like smell means the starter is hungry. Discard all but a "
        "spoonful, feed it at a bigger ratio (for example 1 part starter to 5 parts flour and 5 parts "
        "water) twice a day for two or three days, and the smell will go. Throw it out only if you see "
        "fuzzy mould or pink or orange streaks."
    ),
    stop=["\n\nUser:"],
)

stop_group(
    "stopbug-qwen3-02",
    "qwen3_30b",
    "ko",
    user="전기차 충전할 때 80%까지만 하라는 이유가 뭐예요?",
    reasoning=(
        "리튬이온 배터리는 높은 충전 상태에서 오래 머물면 열화가 빨라진다. 또 80% 이후는 충전 속도가 "
        "느려지는 정전압 구간이라 급속충전 효율도 떨어진다. ",
        "장거리 운행 전에는 100%도 괜찮다고 덧붙이자.",
    ),
    answer=(
        "두 가지 이유가 있습니다. 배터리는 완충에 가까운 상태로 오래 있을수록 수명이 조금씩 더 빨리 "
        "줄어들고, 80%를 넘으면 충전 속도도 크게 느려집니다. 그래서 일상 주행은 80% 정도로 두고, 장거리 "
        "운행 직전에만 100%까지 채우는 것을 권장합니다. LFP 배터리 차량은 제조사가 주기적인 완충을 "
        "권하기도 하니 설명서를 확인하세요."
    ),
    stop=["<|im_end|>", "\n\n사용자:"],
    end_pieces=("</thi", "nk>\n\n"),
    tail_leaks=False,
)

stop_group(
    "stopbug-deepseek_r1-01",
    "deepseek_r1_0528",
    "zh",
    user="租房合同没到期，我想提前搬走，押金能要回来吗？",
    reasoning=(
        "提前解约属于承租人违约，押金能否退要看合同约定。通常合同会约定提前退租押金不退或者支付一个月租金"
        "作为违约金。如果合同没约定，房东的实际损失要合理，",
        "可以协商找人转租来减少损失。建议先看合同条款，再和房东协商。",
    ),
    answer=(
        "要看合同怎么约定：\n\n"
        "1. 如果合同写明“提前退租押金不退”或约定了违约金，一般按约定执行，但违约金明显过高时可以请求调整。\n"
        "2. 如果合同没有约定，房东只能就实际损失（比如空置期的租金）要求赔偿，押金多出的部分应当退还。\n\n"
        "比较实际的做法是提前通知房东，并主动帮忙找下一位租客转租，这样通常能要回大部分押金。"
    ),
    stop=["\n\n用户："],
)

stop_group(
    "stopbug-nemotron-01",
    "nemotron",
    "en",
    user="What's the difference between a Roth 401(k) and a Roth IRA?",
    reasoning=(
        "Both are after-tax. Roth 401(k) is employer plan, higher contribution limit, no income limit, "
        "can get match (match goes pre-tax traditionally). Roth IRA opened individually, income limits, ",
        "more investment choice, contributions withdrawable anytime. Keep it short.",
    ),
    answer=(
        "Both take after-tax money and let qualified withdrawals come out tax-free. The differences:\n\n"
        "- **Where it lives:** a Roth 401(k) is part of your employer's plan; a Roth IRA is an account you "
        "open yourself.\n"
        "- **Limits:** the 401(k) allows much larger yearly contributions and has no income cap; the IRA "
        "has a lower limit and phases out at higher incomes.\n"
        "- **Flexibility:** an IRA offers any investment your broker sells, and you can take your "
        "contributions (not earnings) back out at any time."
    ),
    stop=["<|im_end|>"],
)

stop_group(
    "stopbug-glm45-01",
    "glm45",
    "zh",
    user="家里的WiFi晚上特别慢，白天还好，是什么原因？",
    reasoning=(
        "晚上慢白天正常，典型是高峰期带宽拥堵：小区宽带共享出口、邻居WiFi信道干扰、家里多设备同时用。"
        "排查：网线直连测速，",
        "对比WiFi测速；换5GHz频段或改信道；重启路由器；找运营商。",
    ),
    answer=(
        "晚上变慢通常是高峰期拥堵造成的，可以这样排查：\n\n"
        "1. 晚上用网线直连光猫测速。如果直连也慢，是运营商出口拥堵，可以打客服报修或升级套餐。\n"
        "2. 如果直连正常、WiFi慢，多半是邻居的WiFi信道干扰，试试切换到5GHz频段，或在路由器里换一个信道。\n"
        "3. 看看家里是否有设备在晚上自动备份或下载更新，占满了上行带宽。"
    ),
    stop=["\n\n用户："],
)

stop_group(
    "stopbug-olmo3-01",
    "olmo3",
    "ko",
    user="아침에 공복 유산소가 지방 연소에 더 좋다는 게 사실인가요?",
    reasoning=(
        "공복 유산소는 운동 중 지방 산화 비율은 높지만 하루 전체 지방 감소량은 식후 운동과 차이가 크지 "
        "않다는 연구가 많다. 결국 총 에너지 소비와 식단이 중요. ",
        "저혈당 어지러움 주의, 본인에게 편한 시간대를 고르라고 하자.",
    ),
    answer=(
        "운동하는 동안 지방을 태우는 비율은 공복일 때 조금 더 높지만, 하루나 몇 주 단위로 보면 식후에 "
        "운동한 경우와 체지방 감소량 차이는 크지 않다는 연구가 많습니다. 결국 중요한 건 꾸준히 할 수 있는 "
        "시간대와 전체 식단입니다. 공복에 어지럽거나 힘이 빠진다면 바나나 반 개 정도 먹고 운동해도 "
        "충분합니다."
    ),
    stop=["\n\n사용자:"],
)

stop_group(
    "stopbug-holo2-01",
    "holo2",
    "en",
    user="In Google Sheets, how do I freeze the first row so it stays visible when I scroll?",
    reasoning=(
        "Menu path: View > Freeze > 1 row. Alternative: drag the thick grey bar below the column headers. "
        "On mobile app: select row, ",
        "tap the row number, then Freeze. Answer briefly.",
    ),
    answer=(
        "Open **View → Freeze → 1 row**. The first row will stay in place while you scroll. You can also "
        "drag the thick grey bar at the top-left corner of the grid down below row 1. To undo it, choose "
        "**View → Freeze → No rows**."
    ),
    stop=["<|im_end|>", "\n\nHuman:"],
    end_pieces=("</", "think>\n\n"),
)

stop_group(
    "stopbug-deepseek_v3-01",
    "deepseek_v3",
    "ja",
    user="確定申告で医療費控除を受けるには、医療費がいくら以上必要ですか？",
    reasoning=(
        "医療費控除は支払った医療費から保険金などの補填額を引き、10万円（総所得200万円未満なら所得の5%）を"
        "超えた部分が対象。上限200万円。セルフメディケーション税制との選択も触れる。",
        "領収書は提出不要だが5年保存。",
    ),
    answer=(
        "1年間に支払った医療費（保険金などで補填された分を除く）が **10万円** を超えると、超えた部分が控除の"
        "対象になります。総所得金額等が200万円未満の方は、10万円ではなく所得の5%を超えた部分が対象です。"
        "控除額の上限は200万円で、領収書は提出不要ですが5年間の保存が必要です。"
    ),
    stop=["\n\nユーザー："],
    tkw={"thinking": True},
)
