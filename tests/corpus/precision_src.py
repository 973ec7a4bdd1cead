#!/usr/bin/env python3
"""The clean-traffic precision set: ordinary short answers that must get no label.

Real traffic is mostly short clean answers: greetings, one-line answers, yes/no,
confirmations, lists, code, a short answer with a closing offer after a blank line. They
often end (or start) with stray whitespace. This module holds small banks of such answers
in English, Korean and Chinese, written for leakline, and expands them into
``precision_clean.jsonl``: every answer as written, with a blank line after it and with two
more whitespace variants around it, spread over four API shapes. ``quality.py`` runs the full
detector stack (rules, heuristics, shipped classifier) over it and reports the
false-positive rate; ``test_quality.py`` keeps it at or below 0.5 %.

No line is a preamble: nothing here announces a lookup before an answer. Texts that open
like one but stop there ("Sure.", "Hello! How can I help?") are the point of the set.

python tests/corpus/precision_src.py           # rewrite precision_clean.jsonl
python tests/corpus/precision_src.py --check   # exit 1 when the file is stale
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

OUT = Path(__file__).resolve().parent / "precision_clean.jsonl"

# kind -> lang -> answers
BANKS: dict[str, dict[str, list[str]]] = {
    "greeting": {
        "en": [
            "Hello there.",
            "Hi!",
            "Hello! How can I help?",
            "Hi there! What can I do for you today?",
            "Good morning! How can I help you?",
            "Hey! Nice to hear from you.",
            "Hello. What would you like to know?",
            "Hi, I'm here. What do you need?",
            "You're welcome!",
            "Goodbye, and have a great weekend!",
        ],
        "ko": [
            "안녕하세요.",
            "안녕하세요! 무엇을 도와드릴까요?",
            "반갑습니다. 어떤 점이 궁금하신가요?",
            "좋은 아침이에요! 오늘은 무엇을 도와드릴까요?",
            "네, 안녕하세요. 편하게 물어보세요.",
            "천만에요!",
            "감사합니다. 좋은 하루 보내세요!",
            "안녕히 가세요.",
        ],
        "zh": [
            "你好。",
            "你好！有什么可以帮你的？",
            "您好，请问有什么需要？",
            "早上好！今天想聊点什么？",
            "嗨，很高兴见到你。",
            "不客气！",
            "谢谢，祝你周末愉快！",
            "再见。",
        ],
    },
    "one_line": {
        "en": [
            "The capital of Australia is Canberra.",
            "It boils at 100 °C at sea level.",
            "42.",
            "About 3.2 kilometres.",
            "Use `git stash` to shelve your changes.",
            "Paris is one hour ahead of London.",
            "The meeting moved to Thursday at 3 p.m.",
            "That function returns a list, not a tuple.",
            "Water freezes at 0 °C.",
            "Python 3.12 was released in October 2023.",
        ],
        "ko": [
            "호주의 수도는 캔버라입니다.",
            "해수면에서 물은 100도에서 끓어요.",
            "약 3.2킬로미터입니다.",
            "정답은 42입니다.",
            "회의는 목요일 오후 3시로 옮겨졌어요.",
            "그 함수는 튜플이 아니라 리스트를 반환합니다.",
            "서울에서 부산까지 KTX로 약 2시간 30분 걸립니다.",
            "이 메서드는 3.10 버전부터 지원됩니다.",
        ],
        "zh": [
            "澳大利亚的首都是堪培拉。",
            "海平面上水在100摄氏度沸腾。",
            "大约3.2公里。",
            "答案是42。",
            "会议改到周四下午三点了。",
            "这个函数返回的是列表，不是元组。",
            "北京到上海的高铁大约四个半小时。",
            "这个参数从3.10版本开始支持。",
        ],
    },
    "yes_no": {
        "en": [
            "Yes.",
            "No.",
            "Yes, that's correct.",
            "No, that option was removed in version 2.",
            "Yes! Both phones support it.",
            "Nope, it's not required.",
            "Correct.",
            "Not quite: the limit is 50, not 100.",
        ],
        "ko": [
            "네.",
            "아니요.",
            "네, 맞습니다.",
            "아니요, 그 옵션은 2 버전에서 삭제됐어요.",
            "네! 두 기종 모두 지원합니다.",
            "아니요, 꼭 필요하지는 않습니다.",
            "맞아요.",
            "정확히는 아니에요. 한도는 100이 아니라 50입니다.",
        ],
        "zh": [
            "是的。",
            "不是。",
            "对，没错。",
            "不行，这个选项在第2版里删掉了。",
            "可以！两款手机都支持。",
            "不需要。",
            "正确。",
            "不完全对，上限是50，不是100。",
        ],
    },
    "confirmation": {
        "en": [
            "Sure.",
            "Done.",
            "Got it.",
            "Okay, noted.",
            "Sure thing!",
            "Understood. I'll keep answers short from now on.",
            "Of course! Here you go.",
            "No problem.",
            "Thanks, that works for me.",
            "All set.",
        ],
        "ko": [
            "알겠습니다.",
            "네, 알겠습니다.",
            "완료했습니다.",
            "좋아요!",
            "물론이죠.",
            "확인했습니다. 앞으로 짧게 답할게요.",
            "네, 여기 있습니다.",
            "문제없습니다.",
        ],
        "zh": [
            "好的。",
            "好的，知道了。",
            "完成了。",
            "没问题。",
            "当然可以。",
            "收到，以后我会回答得简短一些。",
            "好的，给你。",
            "明白了。",
        ],
    },
    "list": {
        "en": [
            "- apples\n- pears\n- plums",
            "1. Open Settings.\n2. Tap Wi-Fi.\n3. Pick your network.",
            "Here are three options:\n\n1. Train\n2. Bus\n3. Car",
            "Sure! You'll need:\n- flour\n- eggs\n- milk",
            "* Monday: gym\n* Tuesday: rest\n* Wednesday: run",
            "Pros:\n- cheap\n- light\n\nCons:\n- slow",
            "The main steps:\n1. Back up your data.\n2. Install the update.\n3. Restart.",
        ],
        "ko": [
            "- 사과\n- 배\n- 자두",
            "1. 설정을 엽니다.\n2. Wi-Fi를 누릅니다.\n3. 네트워크를 고릅니다.",
            "방법은 세 가지입니다:\n\n1. 기차\n2. 버스\n3. 자동차",
            "네! 준비물은 다음과 같아요:\n- 밀가루\n- 달걀\n- 우유",
            "장점:\n- 저렴함\n- 가벼움\n\n단점:\n- 느림",
            "순서는 이렇습니다.\n1. 데이터를 백업합니다.\n2. 업데이트를 설치합니다.\n3. 재시작합니다.",
        ],
        "zh": [
            "- 苹果\n- 梨\n- 李子",
            "1. 打开设置。\n2. 点击Wi-Fi。\n3. 选择你的网络。",
            "有三种方式：\n\n1. 火车\n2. 大巴\n3. 自驾",
            "好的！需要准备：\n- 面粉\n- 鸡蛋\n- 牛奶",
            "优点：\n- 便宜\n- 轻便\n\n缺点：\n- 慢",
            "步骤如下：\n1. 备份数据。\n2. 安装更新。\n3. 重启。",
        ],
    },
    "code": {
        "en": [
            "```python\nprint(sum(range(10)))\n```",
            "```bash\npip install requests\n```",
            "`ls -la`",
            "```sql\nSELECT count(*) FROM orders WHERE status = 'open';\n```",
            "```js\nconst total = items.reduce((a, b) => a + b, 0);\n```",
            "```\ngit checkout -b feature/login\n```",
        ],
        "ko": [
            "```python\n# 합계 구하기\nprint(sum([1, 2, 3]))\n```",
            "```bash\n# 패키지 설치\npip install requests\n```",
            "`df -h`로 확인할 수 있어요.",
            "```sql\n-- 미처리 주문 수\nSELECT count(*) FROM orders WHERE status = 'open';\n```",
        ],
        "zh": [
            "```python\n# 求和\nprint(sum([1, 2, 3]))\n```",
            "```bash\n# 安装依赖\npip install requests\n```",
            "用`df -h`就能看到。",
            "```sql\n-- 未处理订单数\nSELECT count(*) FROM orders WHERE status = 'open';\n```",
        ],
    },
    # short answers of two or three sentences: greeting or acknowledgement plus the answer
    "short_answer": {
        "en": [
            "Sure. The file lives in /etc/hosts.",
            "Hi! The store opens at 9 a.m.",
            "Good question. It depends on the plan you have.",
            "Yes. Restart the app after changing it.",
            "Okay! The total comes to $48.",
            "Thanks for asking. The train takes about two hours.",
            "Of course. Python lists are mutable; tuples are not.",
            "Absolutely. Just keep the receipt.",
        ],
        "ko": [
            "네. 파일은 /etc/hosts에 있습니다.",
            "안녕하세요! 매장은 오전 9시에 엽니다.",
            "좋은 질문이에요. 요금제에 따라 다릅니다.",
            "네, 설정을 바꾼 뒤 앱을 다시 시작하세요.",
            "알겠습니다. 총액은 4만 8천 원입니다.",
            "물론이죠. 영수증만 챙겨 두세요.",
        ],
        "zh": [
            "好的。文件在/etc/hosts里。",
            "你好！门店早上九点开门。",
            "好问题。要看你用的是哪个套餐。",
            "可以，改完设置后重启应用就行。",
            "好的，总共是48元。",
            "当然。保留好小票就可以。",
        ],
    },
    # a short answer, a blank line, then a closing offer
    "with_closer": {
        "en": [
            "It opens at 9 a.m.\n\nLet me know if you have other questions.",
            "Yes.\n\nFeel free to ask if anything is unclear.",
            "The limit is 50 MB.\n\nHope this helps!",
            "Sure! Restart the router first.\n\nHappy to help further.",
            "That's correct.\n\nLet me know if you want the details.",
            "Use UTF-8.\n\nAnything else I can help with?",
            "You're all set.\n\nLet me know if something breaks.",
            "Done.\n\nTell me if you need another change.",
        ],
        "ko": [
            "오전 9시에 엽니다.\n\n다른 궁금한 점이 있으면 언제든 물어보세요.",
            "네, 맞습니다.\n\n도움이 되셨길 바랍니다.",
            "한도는 50MB입니다.\n\n더 필요한 게 있으면 알려 주세요.",
            "완료했습니다.\n\n추가로 바꿀 부분이 있으면 말씀해 주세요.",
            "UTF-8을 쓰시면 됩니다.\n\n또 도와드릴 일이 있을까요?",
            "먼저 공유기를 재시작해 보세요.\n\n그래도 안 되면 다시 알려 주세요.",
        ],
        "zh": [
            "早上九点开门。\n\n有其他问题可以随时问我。",
            "对，没错。\n\n希望能帮到你！",
            "上限是50MB。\n\n还需要什么尽管说。",
            "已经改好了。\n\n如果还要调整请告诉我。",
            "用UTF-8就行。\n\n还有别的需要帮忙吗？",
            "先重启一下路由器。\n\n如果还不行再告诉我。",
        ],
    },
}

# whitespace around an answer: (id, before, after)
WHITESPACE: tuple[tuple[str, str, str], ...] = (
    ("none", "", ""),
    ("nl", "", "\n"),
    ("nl2", "", "\n\n"),
    ("space", "", " "),
    ("nl3", "", "\n\n\n"),
    ("crlf", "", "\r\n"),
    ("mixed", "", " \n\t\n"),
    ("around", "\n", "\n\n"),
    ("lead", "\n\n", ""),
)
APIS = ("chat", "chat_stream", "responses", "messages")
# variants per answer: "none", "nl2" and two more that rotate through the rest
_ALWAYS = ("none", "nl2")


def _pick(index: int) -> list[tuple[str, str, str]]:
    rest = [w for w in WHITESPACE if w[0] not in _ALWAYS]
    chosen = [w for w in WHITESPACE if w[0] in _ALWAYS]
    chosen += [rest[(2 * index) % len(rest)], rest[(2 * index + 1) % len(rest)]]
    return chosen


def items() -> Iterator[dict[str, str]]:
    """Every line of the set, in a fixed order."""
    index = 0
    for kind, by_lang in BANKS.items():
        for lang, answers in by_lang.items():
            for answer in answers:
                for ws, before, after in _pick(index):
                    digest = hashlib.sha256(f"{kind}:{lang}:{answer}".encode()).hexdigest()[:8]
                    yield {
                        "id": f"clean-{kind}-{lang}-{digest}-{ws}",
                        "kind": kind,
                        "lang": lang,
                        "whitespace": ws,
                        "api": APIS[index % len(APIS)],
                        "text": before + answer + after,
                    }
                index += 1


def render() -> str:
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT.name} is stale: run python {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"{OUT.name}: {text.count(chr(10))} answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
