"""self_talk_cues on R1-style untagged reasoning (issue 29, item 4).

Distilled reasoning models whose template delimiters are stripped open the visible text with
their reasoning: a plan ("Here's a thinking process:", "Thinking Process:", numbered steps
about the request and the draft) or a first-person walk through the problem ("Okay, so I
need to figure out… Let me start by… Wait, …", "嗯，我现在需要…"), then the answer.

These tables were written before the rule that reads them; the look-alikes are answers that
walk the *reader* through steps, plans written for the reader, and first-person text the
user asked for.
"""

from __future__ import annotations

import pytest

from leakline.detectors import run_detectors

DETECTOR = "self_talk_cues"

R1_POSITIVES = [
    # ---------------------------------------------------------------- en: first-person walk
    pytest.param(
        "Okay, so I need to figure out how many times the letter r shows up in strawberry. "
        "Let me start by spelling it out: s-t-r-a-w-b-e-r-r-y.\n\nWait, there are two r's "
        "near the end and one after the t, so that's three.\n\nThere are **3** r's in "
        '"strawberry".',
        "en",
        id="en_strawberry",
    ),
    pytest.param(
        "Alright, so I have this problem: a train leaves at 3 pm going 60 mph and another at "
        "4 pm going 80 mph. I need to find when the second one catches up. Let me think about "
        "the head start first.\n\nThe first train is 60 miles ahead at 4 pm, and the gap "
        "closes at 20 mph, so 3 hours.\n\nThe second train catches up at **7 pm**.",
        "en",
        id="en_trains",
    ),
    pytest.param(
        "Okay, let me try to work out why the loop never ends. The counter is incremented "
        "inside the if, so when the condition is false it never changes. Hmm, that must be "
        "it.\n\nYour loop only increments `i` inside the `if`, so move `i += 1` below it.",
        "en",
        id="en_let_me_try",
    ),
    pytest.param(
        "Alright, I need to write a function that removes duplicates while keeping order. "
        "First, I should consider using a set to track what I've seen. Wait, a dict keeps "
        "insertion order too, so dict.fromkeys would be shorter.\n\n```python\ndef dedupe"
        "(items):\n    return list(dict.fromkeys(items))\n```",
        "en",
        id="en_dedupe",
    ),
    pytest.param(
        "Okay, so I've got this question about the causes of the French Revolution. I remember "
        "that debt from the American war was a big factor. Let me also recall the bread "
        "prices.\n\nThe main causes were a fiscal crisis, food shortages and resentment of "
        "noble privilege.",
        "en",
        id="en_ive_got",
    ),
    pytest.param(
        "I need to find the derivative of x^2 sin x. Let me recall the product rule: (uv)' = "
        "u'v + uv'. So that gives 2x sin x + x^2 cos x. Wait, let me double-check the sign of "
        "cos. Yes, it's positive.\n\nf'(x) = 2x·sin(x) + x²·cos(x)",
        "en",
        id="en_derivative",
    ),
    pytest.param(
        "So I have to convert 5 miles to kilometers. I know that one mile is about 1.609 km, "
        "so I multiply. Let me compute: 5 × 1.609 = 8.045.\n\n5 miles is about 8.05 km.",
        "en",
        id="en_so_i_have_to",
    ),
    pytest.param(
        "Hmm, the question is asking whether 9.11 is bigger than 9.8. I should compare the "
        "decimals digit by digit. 0.11 versus 0.80, so 9.8 is bigger.\n\n9.8 is larger than "
        "9.11.",
        "en",
        id="en_hmm_question",
    ),
    pytest.param(
        "Okay, the user wants me to summarize this article about coral reefs. Let me pick out "
        "the main points: bleaching, warming seas, and the new restoration projects.\n\n"
        "Coral reefs are bleaching as seas warm, but restoration projects show early promise.",
        "en",
        id="en_user_wants_me",
    ),
    pytest.param(
        "Let me work through this. I need to check whether 221 is prime. I'll try small "
        "factors: 13 × 17 = 221. So it isn't.\n\n221 is not prime: it equals 13 × 17.",
        "en",
        id="en_let_me_work",
    ),
    pytest.param(
        "Okay, I'm trying to figure out the best way to answer this. The question is about "
        "tipping in Japan. I think the norm is not to tip at all.\n\nTipping is not customary "
        "in Japan and can even cause confusion.",
        "en",
        id="en_im_trying",
    ),
    # ---------------------------------------------------------------- en: the plan
    pytest.param(
        "Here's a thinking process that leads to the answer:\n\n1.  **Analyze the Request:** "
        "The user wants to know the capital of Australia.\n2.  **Recall the fact:** Canberra, "
        "not Sydney.\n3.  **Draft the response:** State it plainly.\n\nThe capital of "
        "Australia is Canberra.",
        "en",
        id="en_plan_header_leads_to",
    ),
    pytest.param(
        "Thinking Process:\n\n1.  **Analyze the Request:** The user is asking for a haiku "
        "about autumn rain.\n2.  **Constraints:** 5-7-5 syllables.\n3.  **Draft:** Cold rain "
        "on red leaves…\n\nCold rain on red leaves\nthe gutter hums a low song\nthe street "
        "smells of earth",
        "en",
        id="en_thinking_process_heading",
    ),
    pytest.param(
        "Here is a thinking process to arrive at the solution:\n\n1. **Understand the Goal:** "
        "The user needs a Python function that reverses a string.\n2. **Identify the "
        "simplest approach:** slicing.\n\n```python\ndef reverse(s):\n    return s[::-1]\n```",
        "en",
        id="en_plan_arrive_at",
    ),
    pytest.param(
        "1.  **Analyze the request:** The user wants a short apology email to a client for a "
        "late delivery.\n2.  **Identify the tone:** professional, warm, brief.\n3.  **Draft:** "
        "apologise, give the new date, offer a discount.\n\nSubject: Update on your order\n\n"
        "Dear Ms. Park, I'm sorry for the delay…",
        "en",
        id="en_numbered_plan_no_header",
    ),
    pytest.param(
        "**Thinking Process:**\n\n1. **Deconstruct the prompt:** The user is asking how "
        "photosynthesis works, at a middle-school level.\n2. **Key points:** light, water, CO2, "
        "glucose, oxygen.\n\nPlants use sunlight to turn water and carbon dioxide into sugar "
        "and oxygen.",
        "en",
        id="en_bold_heading_plan",
    ),
    pytest.param(
        "Here's a thinking process:\n\n1.  **Identify the user's question:** They want to "
        "know if they can freeze cooked rice.\n2.  **Recall food safety:** cool quickly, "
        "freeze within an hour.\n\nYes, cooked rice freezes well for up to a month.",
        "en",
        id="en_plan_bare_header",
    ),
    pytest.param(
        "My thought process:\n1. The question asks for the boiling point of water at sea "
        "level.\n2. I should answer in both Celsius and Fahrenheit.\n\nWater boils at 100 °C "
        "(212 °F) at sea level.",
        "en",
        id="en_my_thought_process",
    ),
    # ---------------------------------------------------------------- zh
    pytest.param(
        "嗯，我现在需要解决这个问题：一个数的三倍加五等于二十，求这个数。首先，我应该设这个数为x，"
        "那么3x+5=20。\n\n然后两边减五，得到3x=15，所以x=5。\n\n这个数是5。",
        "zh",
        id="zh_hmm_i_now_need",
    ),
    pytest.param(
        "好的，用户让我写一首关于秋天的短诗。首先，我需要确定诗的风格，简洁一点比较好。\n\n"
        "接下来想几个意象：落叶、秋风、月亮。\n\n秋风起，落叶飞，\n一轮明月照归人。",
        "zh",
        id="zh_ok_user_lets_me",
    ),
    pytest.param(
        "首先，我得弄明白题目在问什么。题目说鸡兔同笼，一共35个头，94只脚。\n\n设鸡x只，兔y只，"
        "解得x=23，y=12。\n\n鸡有23只，兔有12只。",
        "zh",
        id="zh_first_i_must",
    ),
    pytest.param(
        "嗯，用户问的是怎么在Python里读取CSV文件。我应该推荐pandas，同时提一下标准库csv模块。\n\n"
        "可以用 pandas：`pd.read_csv('data.csv')`，也可以用标准库 `csv` 模块。",
        "zh",
        id="zh_hmm_user_asks",
    ),
    pytest.param(
        "好，我现在要解决的问题是计算1到100的和。我记得高斯的方法，首尾相加。\n\n"
        "1+100=101，一共50对，所以是5050。\n\n1到100的和是5050。",
        "zh",
        id="zh_ok_i_now_must",
    ),
    pytest.param(
        "我现在需要帮用户把这段话翻译成英文。首先看一下原文，语气比较正式，我得保留这种语气。\n\n"
        "Dear Mr. Wang, I would like to request a day of leave on Friday.",
        "zh",
        id="zh_i_now_need_to_help",
    ),
    pytest.param(
        "嗯，这个问题有点意思。用户想知道为什么天空是蓝色的。我记得是瑞利散射，短波长的光散射更强。\n\n"
        "天空呈蓝色是因为瑞利散射：波长较短的蓝光被大气散射得更多。",
        "zh",
        id="zh_interesting_question",
    ),
    pytest.param(
        "好的，我现在得仔细想想这个问题。用户问的是北京到上海坐高铁要多久。大概四个半小时到六个小时。\n\n"
        "北京到上海的高铁一般需要4.5到6小时，取决于车次。",
        "zh",
        id="zh_ok_think_carefully",
    ),
    pytest.param(
        "让我来分析一下这个问题。用户给了一段代码，报错是空指针。我需要先看变量在哪里赋值。\n\n"
        "`user` 在第 12 行之前没有初始化，所以调用 `user.name` 时报空指针。",
        "zh",
        id="zh_let_me_analyze",
    ),
    pytest.param(
        "嗯，用户让我比较一下Python和Java的区别。我得先想想从哪几个方面讲：语法、性能、用途。\n\n"
        "Python 语法简洁，适合快速开发；Java 性能更稳定，常用于大型后端系统。",
        "zh",
        id="zh_compare",
    ),
    pytest.param(
        "思考过程：\n\n1. **分析需求**：用户想知道如何煮溏心蛋。\n2. **确定要点**：水开后煮六分钟，"
        "再过冷水。\n\n水开后放入鸡蛋煮6分钟，捞出立刻过冷水，就是溏心蛋。",
        "zh",
        id="zh_thinking_process_heading",
    ),
    pytest.param(
        "嗯，我得先算一下总价。三个苹果每个五元，就是十五元，再加两瓶水六元，一共二十一元。对，没错。\n\n"
        "总价是21元。",
        "zh",
        id="zh_compute_total",
    ),
    pytest.param(
        "好的，我需要回答用户关于时差的问题。北京比伦敦快八个小时，夏令时的时候快七个小时。\n\n"
        "北京比伦敦快8小时（伦敦夏令时期间快7小时）。",
        "zh",
        id="zh_need_to_answer",
    ),
    # ---------------------------------------------------------------- ko
    pytest.param(
        "좋아, 사용자가 서울에서 부산까지 KTX 시간을 물어봤어. 먼저 소요 시간을 떠올려 보자.\n\n"
        "서울에서 부산까지 KTX로 약 2시간 30분 걸립니다.",
        "ko",
        id="ko_ok_user_asked",
    ),
    pytest.param(
        "생각 과정:\n\n1. **요청 분석:** 사용자는 라면 끓이는 법을 묻고 있다.\n2. **핵심:** 물 550ml, "
        "4분 30초.\n\n물 550ml를 끓인 뒤 면과 스프를 넣고 4분 30초 끓이세요.",
        "ko",
        id="ko_thinking_process_heading",
    ),
]

# Answers that walk the reader through steps, plans made for the reader, first-person text the
# user asked for: all clean.
R1_LOOKALIKES = [
    pytest.param(
        "Here's my plan for your trip:\n\n1. **Day 1:** Alfama and the castle.\n2. **Day 2:** "
        "Belém and the river walk.\n3. **Day 3:** A day trip to Sintra.",
        {},
        id="en_plan_for_your_trip",
    ),
    pytest.param(
        "Here's a step-by-step guide:\n\n1. **Install Python:** Download it from python.org.\n"
        "2. **Create a virtual environment:** Run `python -m venv .venv`.\n3. **Install the "
        "package:** `pip install requests`.",
        {},
        id="en_tutorial_steps",
    ),
    pytest.param(
        "1. **Preheat the oven** to 180 °C.\n2. **Mix the dry ingredients:** flour, sugar, "
        "baking powder.\n3. **Add the eggs and milk** and stir until smooth.\n\nBake for 25 "
        "minutes.",
        {},
        id="en_recipe",
    ),
    pytest.param(
        "Let me explain:\n\nA closure is a function that remembers the variables of the scope "
        "it was created in, even after that scope has finished.",
        {},
        id="en_let_me_explain",
    ),
    pytest.param(
        "Let me walk you through it:\n\n1. First, you need to open Settings.\n2. Then tap "
        "Privacy.\n3. Turn off Location Services.",
        {},
        id="en_walk_you_through",
    ),
    pytest.param(
        "To solve 3x + 5 = 20, first subtract 5 from both sides: 3x = 15. Then divide by 3.\n\n"
        "So x = 5.",
        {},
        id="en_math_to_reader",
    ),
    pytest.param(
        "Let's solve this step by step.\n\n**Step 1:** Subtract 5 from both sides: 3x = 15.\n"
        "**Step 2:** Divide by 3: x = 5.",
        {},
        id="en_lets_step_by_step",
    ),
    pytest.param(
        "We need to compute the determinant first. Expanding along the first row gives "
        "2·(4·6 − 5·5) − 3·(1·6 − 5·0).\n\nSo det(A) = −2 − 18 = −20.",
        {"prompt": "Is this 3x3 matrix invertible? [[2,3,0],[1,4,5],[0,5,6]]"},
        id="en_math_we_need_to",
    ),
    pytest.param(
        "Okay, so today was a disaster. I need to figure out how to tell my boss that the "
        "launch slipped again. Maybe I'll just say it straight.\n\nTomorrow I'll try again.",
        {"prompt": "Write a short diary entry in the first person about a bad day at work."},
        id="en_diary_asked_for",
    ),
    pytest.param(
        "I need a role where I can grow as an engineer. I have spent five years building "
        "payment systems, and I want to bring that experience to your team.\n\nSincerely, "
        "Dana",
        {"prompt": "Rewrite this in the first person for my cover letter: 5 years payments."},
        id="en_first_person_rewrite",
    ),
    pytest.param(
        "Design Thinking Process:\n\n1. **Empathize:** Understand the people you design for.\n"
        "2. **Define:** State the problem.\n3. **Ideate:** Generate ideas.\n4. **Prototype** "
        "and **Test**.",
        {"prompt": "What are the stages of the design thinking process?"},
        id="en_design_thinking_heading",
    ),
    pytest.param(
        "Here's a thinking process you can use for tough decisions:\n\n1. **Define the "
        "problem:** Write down what you are deciding.\n2. **List options:** At least three.\n"
        "3. **Sleep on it.**",
        {},
        id="en_thinking_process_for_you",
    ),
    pytest.param(
        "Sure! Here's how I'd approach it:\n\n1. Read the full error message first.\n2. Check "
        "the line it points to.\n3. Add a print before it to see the value.",
        {},
        id="en_how_id_approach",
    ),
    pytest.param(
        "Okay, so you want to center a div. Here's the shortest way:\n\n```css\n.parent "
        "{ display: grid; place-items: center; }\n```",
        {},
        id="en_okay_so_you",
    ),
    pytest.param(
        "Let me break this down for you:\n\n- **Principal:** the amount you borrow.\n- "
        "**Interest:** what the lender charges for it.",
        {},
        id="en_break_down_for_you",
    ),
    pytest.param(
        "My approach:\n\n1. **Analyze the requirements** with the product team.\n2. **Design "
        "the schema** before writing code.\n3. **Ship behind a flag.**",
        {"prompt": "How would you approach building a new billing feature? Give your approach."},
        id="en_approach_asked_for",
    ),
    pytest.param(
        "1. **Analyze the request:** read what the customer is asking for and note the order "
        "number.\n2. **Check the policy:** refunds within 30 days.\n3. **Reply:** confirm the "
        "refund and the date.",
        {"prompt": "Write a checklist for support agents handling customer refund requests."},
        id="en_checklist_about_requests",
    ),
    pytest.param(
        "Thinking process in chess:\n\n1. **Candidate moves:** checks, captures, threats.\n"
        "2. **Calculate:** each line two moves deep.\n3. **Evaluate** the resulting positions.",
        {"prompt": "How should a beginner think during a chess game?"},
        id="en_thinking_process_chess",
    ),
    pytest.param(
        "Hmm, good question! The short answer is yes: you can freeze cooked rice for up to a "
        "month.\n\nCool it quickly and freeze it within an hour.",
        {},
        id="en_hmm_good_question",
    ),
    pytest.param(
        "First, I need to say I'm not a lawyer, so please check with one.\n\nIn most US "
        "states a verbal contract can be binding.",
        {},
        id="en_disclaimer_to_reader",
    ),
    # ---------------------------------------------------------------- zh
    pytest.param(
        "以下是为您规划的行程：\n\n1. **第一天**：外滩和南京路。\n2. **第二天**：迪士尼。\n"
        "3. **第三天**：朱家角古镇。",
        {},
        id="zh_plan_for_you",
    ),
    pytest.param(
        "解题思路：\n\n1. 设鸡有x只，兔有y只。\n2. 列方程 x+y=35，2x+4y=94。\n3. 解得 x=23，y=12。\n\n"
        "答：鸡23只，兔12只。",
        {},
        id="zh_solution_outline",
    ),
    pytest.param(
        "首先，你需要安装Python。然后打开终端，运行 pip install requests。\n\n安装完成后就可以导入了。",
        {},
        id="zh_first_you_need",
    ),
    pytest.param(
        "好的，我来帮你解释一下。\n\n闭包是一个能记住其创建时作用域中变量的函数。",
        {},
        id="zh_ok_ill_help_you",
    ),
    pytest.param("嗯，这个问题很好。\n\n天空呈蓝色是因为瑞利散射。", {}, id="zh_hmm_good_question"),
    pytest.param(
        "让我们一步一步来解这道题：\n\n第一步，两边同时减5，得到3x=15。\n第二步，两边除以3，得到x=5。",
        {},
        id="zh_lets_step_by_step",
    ),
    pytest.param(
        "今天我得早起去面试。我需要先想想穿什么，还要再检查一遍简历。\n\n希望一切顺利。",
        {"prompt": "帮我写一篇第一人称的日记，关于面试前的紧张心情。"},
        id="zh_diary_asked_for",
    ),
    pytest.param(
        "具体步骤如下：\n\n1. **备份数据**：先把重要文件拷到移动硬盘。\n2. **下载系统**：从官网下载镜像。\n"
        "3. **安装**：按提示操作即可。",
        {},
        id="zh_steps_for_reader",
    ),
    pytest.param(
        "思考过程很重要：\n\n1. **明确问题**：先写下你要解决什么。\n2. **列出方案**：至少三个。\n"
        "3. **比较取舍**：看成本和收益。",
        {"prompt": "怎样培养自己的思考能力？"},
        id="zh_thinking_process_advice",
    ),
    pytest.param("我认为答案是 B。\n\n因为只有 B 同时满足两个条件。", {}, id="zh_i_think_answer"),
    pytest.param(
        "首先，我们需要明确用户画像：目标用户是25到35岁的白领。\n\n其次，确定核心功能：记账和预算提醒。",
        {"prompt": "帮我写一份记账App的产品需求文档大纲，用户是年轻白领。"},
        id="zh_prd_about_users",
    ),
    # ---------------------------------------------------------------- ko
    pytest.param(
        "여행 계획을 짜 드릴게요:\n\n1. **첫째 날:** 경복궁과 북촌.\n2. **둘째 날:** 남산과 명동.",
        {},
        id="ko_plan_for_you",
    ),
    pytest.param(
        "먼저 파이썬을 설치하세요.\n\n그다음 터미널에서 pip install requests를 실행하면 됩니다.",
        {},
        id="ko_steps_to_reader",
    ),
]


@pytest.mark.parametrize(("text", "language"), R1_POSITIVES)
def test_r1_style_reasoning_before_the_answer(detect, text, language):
    (finding,) = detect(DETECTOR, text)
    assert finding.label == "reasoning_leak"
    assert finding.details["delimited"] == "untagged"
    assert finding.details["language"] == language
    # the span covers reasoning, never the answer's last line
    assert finding.span[1] <= text.rstrip().rindex("\n")


@pytest.mark.parametrize(("text", "kwargs"), R1_LOOKALIKES)
def test_r1_lookalikes_stay_clean(make_exchange, text, kwargs):
    verdict = run_detectors(make_exchange(text, **kwargs))
    assert verdict.labels == (), [(f.detector_id, f.label) for f in verdict.findings]
