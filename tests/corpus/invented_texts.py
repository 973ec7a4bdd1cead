"""Texts for the invented-shape generator (``invented_shapes.py``), written for it.

``TOPICS[lang]`` holds (question, reasoning steps, answer) triples in English, Korean and
Chinese. The reasoning steps read as reasoning (planning, hedging, self-correction, the
requester in the third person), so they can be framed by invented delimiters, or left
untagged as a walk or a numbered plan; the answer is what a user should have seen.
"""

from __future__ import annotations

from typing import NamedTuple


class Topic(NamedTuple):
    user: str
    steps: tuple[str, ...]
    answer: str


TOPICS: dict[str, tuple[Topic, ...]] = {
    "en": (
        Topic(
            "How long should I boil an egg for a runny yolk?",
            (
                "They want a soft yolk, so hard-boiled timings are out.",
                "Six minutes is the usual figure, but that assumes the egg goes in cold from the fridge... actually most guides assume boiling water and a fridge-cold egg.",
                "I should mention the ice bath too, otherwise it keeps cooking.",
            ),
            "Lower a fridge-cold egg into boiling water for 6 to 6½ minutes, then move it to iced water for a minute. The white will be set and the yolk runny.",
        ),
        Topic(
            "What's 15% of 240?",
            (
                "15% is 0.15, so 0.15 × 240.",
                "10% of 240 is 24 and 5% is 12, which gives 36. Let me double-check: 0.15 × 240 = 36, yes.",
            ),
            "15% of 240 is 36.",
        ),
        Topic(
            "Can I plant tulip bulbs in spring?",
            (
                "Tulips need a cold period, so autumn planting is the normal advice.",
                "But the question is about spring. Pre-chilled bulbs exist, so it is not a flat no.",
                "Hmm, I should say they may not flower the first year.",
            ),
            "You can, but tulips normally need 12–16 weeks of cold. Buy pre-chilled bulbs for spring planting, or expect few flowers in the first year and a normal display the year after.",
        ),
        Topic(
            "Why does my bread come out dense?",
            (
                "Dense bread usually means weak rise or too much flour.",
                "Could also be old yeast. Wait, they didn't say which bread, so I'll cover the common causes for a yeasted loaf.",
                "Keep it to three causes, most likely first.",
            ),
            "The usual causes are under-proofing (give it until it has nearly doubled), too much flour (weigh it rather than using cups), and tired yeast (test it in warm water with a pinch of sugar; it should foam within 10 minutes).",
        ),
        Topic(
            "How many days are there between March 3 and April 17?",
            (
                "March has 31 days, so from March 3 to March 31 is 28 days.",
                "Then 17 more in April, giving 45. Hmm, am I counting inclusively? No, between the dates means 45.",
            ),
            "There are 45 days between March 3 and April 17.",
        ),
        Topic(
            "Is it safe to charge my phone overnight?",
            (
                "Modern phones stop charging at full, so the risk is small.",
                "The real concern is battery wear from sitting at 100%. Some phones have optimised charging; I should mention that rather than scare them.",
            ),
            "Yes. Phones stop drawing current when full, so overnight charging is safe. To reduce battery wear, turn on your phone's optimised or adaptive charging, which holds the battery at about 80% until shortly before you wake up.",
        ),
        Topic(
            "What's the difference between 'affect' and 'effect'?",
            (
                "Standard rule: affect is usually a verb and effect usually a noun.",
                "There are exceptions, like 'to effect change', but maybe that is too much... no, it's worth one line since people trip on it.",
            ),
            "'Affect' is usually a verb (the rain affected the match) and 'effect' a noun (the rain had an effect). The exception: 'effect' as a verb means to bring about, as in 'to effect change'.",
        ),
        Topic(
            "How do I remove a red wine stain from a carpet?",
            (
                "Blot, don't rub — that's the key point.",
                "Salt or baking soda, or dish soap with hydrogen peroxide. Peroxide can bleach coloured carpets, so I need a caution there.",
            ),
            "Blot up as much as you can with a dry cloth, then dab on a mix of one tablespoon of dish soap and two cups of cold water. Rinse with cold water and blot dry. Test any hydrogen peroxide on a hidden spot first, since it can lighten coloured carpet.",
        ),
        Topic(
            "Which is bigger, 3/8 or 2/5?",
            (
                "Common denominator 40: 3/8 = 15/40 and 2/5 = 16/40.",
                "So 2/5 is bigger. Decimals confirm it: 0.375 against 0.4.",
            ),
            "2/5 is bigger: 2/5 = 0.4 and 3/8 = 0.375.",
        ),
        Topic(
            "How often should I water a snake plant?",
            (
                "Snake plants are succulent-like, so overwatering is the main risk.",
                "Every 2–3 weeks in summer, less in winter. Maybe I should give the soil test instead of a fixed schedule, since homes differ.",
            ),
            "Water a snake plant only when the soil has dried out completely: roughly every two to three weeks in summer and once a month or less in winter. Root rot from overwatering is the usual way they die.",
        ),
        Topic(
            "What time is it in Tokyo when it's 9 am in London?",
            (
                "Tokyo is UTC+9 with no daylight saving.",
                "London is UTC+0 in winter but UTC+1 in summer, so the gap is 9 or 8 hours. Their question doesn't say the season, so both.",
            ),
            "When it is 9 am in London it is 6 pm in Tokyo in winter (GMT) and 5 pm in summer (BST), because Japan does not use daylight saving time.",
        ),
        Topic(
            "Should I use a comma before 'which'?",
            (
                "It depends on restrictive versus non-restrictive clauses.",
                "In American usage 'which' is usually non-restrictive and takes a comma. British usage is looser. I shouldn't overcomplicate it though.",
            ),
            "Use a comma when the 'which' clause adds extra information that could be removed (my car, which is red, is in the shop). Without the comma it reads as defining which one you mean, where American style prefers 'that'.",
        ),
        Topic(
            "How much water should I drink during a 10 km run?",
            (
                "A 10 km run lasts maybe 45–70 minutes.",
                "Most people don't need to drink during it unless it's hot. Hmm, but I should not give medical certainty; say 'usually' and mention heat.",
            ),
            "For most people a 10 km run doesn't need water on the way if you start well hydrated. In hot weather, or if you take longer than an hour, sip about 150–250 ml every 20 minutes.",
        ),
        Topic(
            "What's a good substitute for buttermilk?",
            (
                "Standard trick is milk plus acid.",
                "One tablespoon of lemon juice or vinegar per cup, let it sit. Yogurt thinned with milk also works. I'll give the ratio in both cups and ml to be safe.",
            ),
            "Stir 1 tablespoon of lemon juice or white vinegar into 1 cup (240 ml) of milk and let it stand for 5–10 minutes. Plain yogurt thinned with a little milk works too.",
        ),
        Topic(
            "Is 1 kg of feathers lighter than 1 kg of steel?",
            (
                "It's the classic trick question: both weigh 1 kg.",
                "Should I bring up buoyancy in air? Strictly the feathers displace more air so a scale shows slightly less... that's a nice detail but keep it short.",
            ),
            "No, both have a mass of 1 kg. The only difference is on a scale in air: the bulky feathers get a little more buoyancy, so they read a tiny bit lighter.",
        ),
    ),
    "ko": (
        Topic(
            "전세 계약할 때 확정일자는 왜 받아야 해요?",
            (
                "질문자는 확정일자의 목적을 묻고 있다.",
                "대항력은 전입신고로 생기고, 우선변제권은 확정일자가 있어야 한다. 아, 둘을 같이 갖춰야 한다는 점도 말해야겠다.",
            ),
            "확정일자를 받아 두면 집이 경매에 넘어가도 그 날짜 기준으로 보증금을 먼저 돌려받을 권리(우선변제권)가 생깁니다. 전입신고와 함께 해 두셔야 효력이 온전히 생깁니다.",
        ),
        Topic(
            "김치찌개에 설탕을 넣어도 되나요?",
            (
                "신김치가 너무 시면 설탕을 조금 넣는 게 일반적이다.",
                "양은 반 작은술 정도? 너무 많이 넣으면 달아지니까 조금씩이라고 해야겠다.",
            ),
            "네, 김치가 많이 시어졌을 때 설탕을 반 작은술 정도 넣으면 신맛이 부드러워집니다. 맛을 보면서 조금씩 넣으세요.",
        ),
        Topic(
            "연차가 15일인데 입사 첫해에도 다 쓸 수 있나요?",
            (
                "근로기준법상 1년 미만이면 매달 개근 시 1일씩 생긴다.",
                "15일은 1년 이상 근무하고 80% 이상 출근했을 때다. 헷갈리지 않게 둘을 나눠서 설명해야겠다.",
            ),
            "입사 첫해에는 한 달 개근할 때마다 1일씩, 최대 11일이 생깁니다. 15일은 1년을 채우고 80% 이상 출근했을 때부터 받습니다.",
        ),
        Topic(
            "자전거 타이어 공기압은 얼마나 넣어야 해요?",
            (
                "자전거 종류에 따라 다르다. 로드, 하이브리드, 산악자전거.",
                "타이어 옆면에 적힌 범위를 보라고 하는 게 제일 정확하겠다. 대략적인 숫자도 주자.",
            ),
            "타이어 옆면에 적힌 권장 범위를 따르시면 됩니다. 대략 로드는 80~110psi, 하이브리드는 50~70psi, 산악자전거는 25~35psi 정도입니다.",
        ),
        Topic(
            "3시간 45분은 몇 분이에요?",
            (
                "3시간은 180분이고 45분을 더하면 225분.",
                "다시 확인하면 60×3=180, 180+45=225. 맞다.",
            ),
            "3시간 45분은 225분입니다.",
        ),
        Topic(
            "고양이가 갑자기 밥을 안 먹어요. 괜찮을까요?",
            (
                "하루 정도는 괜찮을 수 있지만 고양이는 굶으면 지방간 위험이 있다.",
                "24시간 넘으면 병원에 가라고 해야겠다. 너무 겁주지 않게 말해야 한다.",
            ),
            "하루 정도 입맛이 없는 건 흔하지만, 24시간 넘게 전혀 먹지 않으면 동물병원에 데려가세요. 고양이는 오래 굶으면 간에 무리가 올 수 있습니다.",
        ),
        Topic(
            "'되'와 '돼'는 어떻게 구분해요?",
            (
                "'돼'는 '되어'의 준말이다.",
                "'하'와 '해'를 넣어 보는 방법이 제일 쉽다. 예시를 하나 들어야 이해하기 쉽겠다.",
            ),
            "'돼'는 '되어'의 준말입니다. 그 자리에 '해'가 어울리면 '돼', '하'가 어울리면 '되'를 쓰세요. 예: 안 돼요(안 해요), 되고 싶다(하고 싶다).",
        ),
        Topic(
            "겨울에 보일러 외출 모드로 두는 게 나아요?",
            (
                "짧은 외출이면 외출 모드나 낮은 온도 유지가 낫다.",
                "길게 비우면 동파 방지가 중요하다. 아, 가스비 얘기도 해야겠다.",
            ),
            "하루 이내의 외출이라면 보일러를 끄기보다 외출 모드나 낮은 온도로 두는 편이 다시 데우는 데 드는 가스를 아낍니다. 며칠 비울 때도 동파를 막기 위해 외출 모드는 켜 두세요.",
        ),
        Topic(
            "커피를 마시면 탈수가 되나요?",
            (
                "카페인에 이뇨 작용이 있긴 하다.",
                "하지만 연구로는 보통 양에서는 수분 섭취로 계산된다. 과하게 마시는 경우만 예외로 두자.",
            ),
            "하루 서너 잔 정도는 탈수를 일으키지 않습니다. 커피에 든 물이 이뇨 작용보다 많아서, 보통은 수분 섭취로 봐도 됩니다.",
        ),
        Topic(
            "원룸 곰팡이는 어떻게 없애요?",
            (
                "환기와 습도가 핵심이다.",
                "락스 희석액이 효과적이지만 환기하면서 써야 한다. 벽지 뒤까지 번졌으면 교체 얘기도 해야겠다.",
            ),
            "락스를 물에 10배 정도 희석해 닦아 내고, 작업 중에는 창문을 열어 두세요. 이후에는 하루 두 번 환기하고 제습기로 습도를 60% 아래로 유지하면 재발이 줄어듭니다.",
        ),
        Topic(
            "12와 18의 최소공배수가 뭐예요?",
            (
                "12 = 2²×3, 18 = 2×3².",
                "최소공배수는 2²×3² = 36. 36÷12=3, 36÷18=2, 확인됐다.",
            ),
            "12와 18의 최소공배수는 36입니다.",
        ),
        Topic(
            "운동 후에 단백질은 언제 먹어야 해요?",
            (
                "예전에는 30분 골든타임이라고 했는데 요즘은 덜 엄격하다.",
                "하루 총량이 더 중요하다고 해야겠다. 그래도 두 시간 안쪽이면 좋다고 하자.",
            ),
            "운동 후 두 시간 안에 20~30g 정도 드시면 충분합니다. 타이밍보다 하루 전체 단백질 섭취량을 채우는 것이 더 중요합니다.",
        ),
        Topic(
            "여권 재발급은 얼마나 걸려요?",
            (
                "보통 일반 여권은 영업일 기준 일주일 안팎.",
                "성수기에는 더 걸릴 수 있다. 긴급여권도 있다는 걸 덧붙여야겠다.",
            ),
            "일반 여권은 신청 후 보통 영업일 기준 5~8일 걸리고, 방학 같은 성수기에는 더 걸릴 수 있습니다. 급하면 당일 발급되는 긴급여권을 신청할 수 있습니다.",
        ),
        Topic(
            "식빵은 냉장 보관하는 게 좋아요?",
            (
                "냉장하면 전분 노화로 오히려 빨리 딱딱해진다.",
                "오래 둘 거면 냉동이 낫다. 실온은 2~3일 정도라고 해야겠다.",
            ),
            "냉장 보관하면 빵이 더 빨리 딱딱해집니다. 2~3일 안에 먹을 양은 실온에 두고, 나머지는 한 장씩 나눠 냉동했다가 바로 구워 드세요.",
        ),
        Topic(
            "화분 흙에 하얀 게 생겼어요. 뭐예요?",
            (
                "하얀 솜 같은 거면 곰팡이, 딱딱한 결정이면 비료나 물의 염분이다.",
                "어느 쪽인지 모르니 둘 다 설명해야겠다.",
            ),
            "솜처럼 보송한 것이면 곰팡이라 겉흙을 걷어 내고 물을 줄이시면 되고, 하얗게 굳은 결정이면 수돗물이나 비료의 염분이라 겉흙을 갈아 주시면 됩니다.",
        ),
    ),
    "zh": (
        Topic(
            "煮米饭水和米的比例是多少？",
            (
                "一般白米是1比1.2左右。",
                "不过新米水要少一点，糙米要多一点。嗯，用电饭煲的话按刻度就行，也要提一下。",
            ),
            "白米一般按米和水1:1.2的比例，新米可以少放一点水，糙米要加到1:1.5左右。用电饭煲的话按内胆刻度加水就行。",
        ),
        Topic(
            "高铁上可以带充电宝吗？",
            (
                "高铁对充电宝的限制比飞机宽松。",
                "但是额定能量超过100Wh的可能有问题。等一下，铁路的规定是不超过100Wh，我应该说清楚。",
            ),
            "可以。高铁允许携带额定能量不超过100Wh的充电宝，常见的10000mAh或20000mAh都在范围内。",
        ),
        Topic(
            "7的平方加上8的平方等于多少？",
            (
                "7的平方是49，8的平方是64。",
                "49加64等于113。再算一遍，没错。",
            ),
            "7² + 8² = 49 + 64 = 113。",
        ),
        Topic(
            "绿萝叶子发黄是怎么回事？",
            (
                "最常见的是浇水太多。",
                "也可能是光照不足或者老叶自然脱落。用户没说是哪片叶子，所以几种情况都要说。",
            ),
            "最常见的原因是浇水过多导致烂根，等表土干了再浇。如果只是底部的老叶黄，是正常的新陈代谢；整株发黄发白则可能是光线太弱。",
        ),
        Topic(
            "跑步前需要拉伸吗？",
            (
                "静态拉伸跑前做可能降低表现。",
                "应该推荐动态热身。不过我不想说得太绝对，说一般建议就好。",
            ),
            "一般建议跑前做5到10分钟的动态热身，比如高抬腿、弓步走和摆腿；静态拉伸留到跑完以后做效果更好。",
        ),
        Topic(
            "发票抬头写错了还能报销吗？",
            (
                "抬头错误一般不能报销，需要重开。",
                "电子发票可以联系开票方红冲后重开。要提醒一下时间限制。",
            ),
            "抬头写错的发票通常不能报销。请联系开票方先红冲作废，再按正确的单位名称和税号重新开具，越早处理越好。",
        ),
        Topic(
            "隔夜茶能喝吗？",
            (
                "隔夜茶本身不会有毒。",
                "但是放久了容易滋生细菌，特别是夏天。说法上说一般不建议就行。",
            ),
            "盖好放在冰箱里的隔夜茶一般可以喝，但常温放了一整夜、尤其是夏天，容易滋生细菌，建议倒掉。",
        ),
        Topic(
            "一年有多少个星期？",
            (
                "365除以7等于52余1。",
                "闰年是52余2。所以是52周多一两天。",
            ),
            "一年有52个星期多一天，闰年是52个星期多两天。",
        ),
        Topic(
            "孩子发烧38度需要去医院吗？",
            (
                "38度属于低热。",
                "要看年龄，三个月以下的婴儿要马上就医。精神状态也很重要，我应该提到。",
            ),
            "38℃属于低热，如果孩子精神好、能吃能喝，可以先在家观察并多补水。三个月以下的婴儿发烧、持续超过三天或出现嗜睡抽搐，请马上就医。",
        ),
        Topic(
            "怎么去除衣服上的油渍？",
            (
                "洗洁精能分解油脂，这是最常用的办法。",
                "要先别用热水烘干，否则会定型。嗯，要提醒这一点。",
            ),
            "在油渍上挤一点洗洁精，轻轻揉搓后静置十分钟，再正常清洗。确认油渍洗净前不要烘干，否则污渍会固定下来。",
        ),
        Topic(
            "北京到上海高铁要多久？",
            (
                "最快的复兴号大约4小时18分。",
                "普通的停站多的要5到6小时。用户可能只关心最快的，但都说一下比较好。",
            ),
            "北京南到上海虹桥的高铁最快约4小时20分钟，停站较多的车次需要5到6小时。",
        ),
        Topic(
            "手机屏幕进水了怎么办？",
            (
                "第一步是关机。",
                "大米吸水其实效果不大，我应该纠正这个常见说法。",
            ),
            "立即关机，擦干表面，把手机竖放在通风处晾至少24小时再开机。放进大米里作用不大，如果还有问题请送去维修。",
        ),
        Topic(
            "面膜每天敷可以吗？",
            (
                "补水面膜频繁敷可能导致皮肤屏障受损。",
                "一周两三次比较合适。清洁类的更要少用。",
            ),
            "不建议每天敷。补水面膜一周两三次就够了，清洁类面膜一周一次，敷太频繁反而可能伤害皮肤屏障。",
        ),
        Topic(
            "1公斤等于多少磅？",
            (
                "1磅约0.4536公斤。",
                "所以1公斤是1除以0.4536，约等于2.2046。保留两位小数就行。",
            ),
            "1公斤约等于2.20磅。",
        ),
        Topic(
            "猫能吃牛奶吗？",
            (
                "很多成年猫乳糖不耐受。",
                "喝了可能腹泻。可以说宠物专用奶。",
            ),
            "不建议给成年猫喝普通牛奶，多数猫乳糖不耐受，喝了容易拉肚子。如果想给，可以选宠物专用的无乳糖奶。",
        ),
    ),
}
