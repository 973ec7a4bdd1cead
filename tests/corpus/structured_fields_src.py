"""Hand-written string fields of structured answers, labeled per field (reasoning or not).

The field-level benchmark of ``structured_reasoning`` (``structured_fields.py`` places these
texts into JSON answers). Two halves written at the same time, before the detector was run
on either: ``DEV`` may be looked at while tuning cues, ``HELDOUT`` is only measured. Every
text was written for this set.

Each entry is ``(kind, text)``. Leak kinds:

- ``planning``: self-talk or planning where a value or label belongs;
- ``narration``: step-by-step / "생각해보면" / "我们一步一步" narration inside an answer;
- ``echo``: a validation error from a retry-with-feedback loop copied into the JSON.

Clean kinds (long legitimate free text the schema asked for): ``description``,
``summary``, ``explanation``. ``SLOT_TEXTS`` are in-schema CoT slot contents (reasoning
by design, never a leak when the slot is designated).
"""

from __future__ import annotations

Entry = tuple[str, str]

DEV: dict[str, dict[str, list[Entry]]] = {
    "en": {
        "leak": [
            (
                "planning",
                "The user probably wants the overdue list. I should pick list_overdue_rent since the screen shows payments.",
            ),
            (
                "planning",
                "Hmm, this could be billing or shipping. I think billing is more likely because they mention an invoice.",
            ),
            (
                "planning",
                "Okay, so the request mentions last month. Let me map that to a date range first, then choose the filter.",
            ),
            (
                "planning",
                "I need to decide between search_listing and export_report. The user said 'show', so search is the better fit.",
            ),
            (
                "planning",
                "First I need to figure out which screen the user is on. It looks like the tenant page, so draft_contract might work.",
            ),
            (
                "narration",
                "Let's think step by step. The train leaves at 3 pm and takes 2 hours, so it arrives at 5 pm. The answer is 5 pm.",
            ),
            (
                "narration",
                "Step by step: first, 12 boxes times 8 items is 96. Then subtract the 6 damaged ones, which gives 90. So the answer is 90.",
            ),
            (
                "narration",
                "Let me work through this. The rectangle is 4 by 5, so the area is 20. Wait, they asked for the perimeter, which is 18.",
            ),
            (
                "narration",
                "To answer this I need to recall the capital first. I think it is Canberra, not Sydney. So the answer should be Canberra.",
            ),
            (
                "echo",
                "Previous output failed schema validation: 'confidence' is a required property. Corrected answer: the refund was approved.",
            ),
            ("echo", "confidence: Expected number, received string | citations: Required"),
            (
                "echo",
                "Fixing the validation error (Additional properties are not allowed ('notes' was unexpected)): the meeting is on Monday.",
            ),
        ],
        "clean": [
            (
                "description",
                "A two-bedroom apartment on the third floor with a south-facing balcony. The kitchen was renovated in 2024 and the building has an elevator and a bicycle room.",
            ),
            (
                "description",
                "This endpoint returns the list of invoices for one customer. Results are paginated with a cursor; pass the cursor from the previous page to get the next one. Returns 404 if the customer does not exist.",
            ),
            (
                "description",
                "Waterproof hiking boots with a Vibram sole. They run half a size small, so most buyers order one size up. Available in brown and black.",
            ),
            (
                "description",
                "First, preheat the oven to 200 °C. Then toss the vegetables with olive oil and salt, spread them on a tray and roast for 25 minutes, turning once.",
            ),
            (
                "summary",
                "The customer asked why their March invoice was higher than usual. The agent explained that the annual plan had renewed and offered to switch them to monthly billing, which they accepted.",
            ),
            (
                "summary",
                "The user reported that the mobile app crashes when uploading photos larger than 20 MB. Support reproduced the issue on Android 14 and filed a bug for the upload team.",
            ),
            (
                "summary",
                "Quarterly revenue grew 8 % year over year, driven by subscriptions in Europe. Hardware sales declined, and the company lowered its full-year margin guidance.",
            ),
            (
                "summary",
                "The paper proposes a caching scheme for grammar-constrained decoding. It precomputes token masks for context-independent tokens and overlaps mask generation with GPU work.",
            ),
            (
                "explanation",
                "The total is 96 because each of the 12 boxes holds 8 items. Six items were damaged in transit, so 90 can be shipped.",
            ),
            (
                "explanation",
                "Canberra was chosen as a compromise between Sydney and Melbourne, which both wanted to be the capital. It became the seat of parliament in 1927.",
            ),
            (
                "explanation",
                "The request failed because the token had expired. Tokens are valid for one hour; the client should refresh it and retry the call.",
            ),
            (
                "explanation",
                "We recommend the annual plan because you use the service every month; over a year it costs 20 % less than paying monthly.",
            ),
        ],
    },
    "ko": {
        "leak": [
            (
                "planning",
                "사용자가 원하는 것은 아마 미납 목록일 것이다. 현재 화면이 수납 현황이니 list_overdue_rent를 골라야겠다.",
            ),
            (
                "planning",
                "음, 배송 문의인지 환불 문의인지 애매하다. 주문 번호를 언급했으니 배송 쪽이 맞을 것 같다.",
            ),
            (
                "planning",
                "먼저 기간 표현을 해석해야 한다. '지난주'는 월요일부터 일요일까지니까 그 범위로 필터를 잡자.",
            ),
            (
                "planning",
                "질문의 핵심은 계약 갱신이다. draft_contract와 export_report 중에서 골라야 하는데 초안 작성이 더 맞겠다.",
            ),
            (
                "planning",
                "잠깐, 사용자가 말한 건 임차인이 아니라 임대인이다. 그러면 검색 대상을 바꿔야겠다.",
            ),
            (
                "narration",
                "생각해보면, 먼저 사과 3개와 배 4개를 더하면 7개다. 그중 2개를 먹었으니 남은 것은 5개다. 그러므로 답은 5개다.",
            ),
            (
                "narration",
                "단계별로 풀어 보자. 시속 60km로 2시간 달리면 120km다. 남은 거리는 30km이므로 총 거리는 150km다.",
            ),
            (
                "narration",
                "차근차근 따져 보면, 3월은 31일이고 15일부터 세면 17일이 남는다. 따라서 답은 17일이다.",
            ),
            (
                "narration",
                "우선 문제를 정리해 보자. 원금이 100만 원이고 이율이 5%이니 1년 이자는 5만 원이다. 그러니 답은 105만 원이겠다.",
            ),
            (
                "echo",
                "이전 출력이 스키마 검증에 실패했다. 오류를 반영하여 다시 작성한다: 회의는 월요일 오전 10시이다.",
            ),
            ("echo", "오류 요약: confidence: 숫자여야 합니다 | answer: 필수 항목입니다"),
            (
                "echo",
                "JSON 파싱 실패. JSON 객체만 출력해야 함. 답변: 환불은 영업일 기준 3일 안에 처리됩니다.",
            ),
        ],
        "clean": [
            (
                "description",
                "남향 발코니가 있는 3층 투룸입니다. 주방은 2024년에 리모델링했고 엘리베이터와 자전거 보관소가 있습니다. 지하철역까지 도보 7분입니다.",
            ),
            (
                "description",
                "고객 한 명의 청구서 목록을 반환한다. 결과는 커서 방식으로 페이지를 나누며, 다음 페이지를 받으려면 이전 응답의 커서를 넘겨야 한다. 고객이 없으면 404를 반환한다.",
            ),
            (
                "description",
                "방수 등산화로 비브람 밑창을 사용했습니다. 발볼이 좁게 나와 한 치수 크게 주문하시는 것을 권합니다. 색상은 갈색과 검정 두 가지입니다.",
            ),
            (
                "description",
                "먼저 오븐을 200도로 예열한다. 채소에 올리브유와 소금을 버무려 팬에 펼친 뒤 25분간 굽고, 중간에 한 번 뒤집는다.",
            ),
            (
                "summary",
                "고객은 3월 청구 금액이 평소보다 높은 이유를 문의했다. 상담원은 연간 요금제가 갱신되었다고 설명하고 월간 결제로 전환을 제안했으며 고객이 이를 수락했다.",
            ),
            (
                "summary",
                "사용자가 20MB 이상의 사진을 올리면 모바일 앱이 종료된다고 신고했다. 지원팀이 안드로이드 14에서 재현했고 업로드 팀에 버그를 등록했다.",
            ),
            (
                "summary",
                "분기 매출은 유럽 구독 사업 덕분에 전년 대비 8% 늘었다. 하드웨어 판매는 줄었고 회사는 연간 이익률 전망을 낮췄다.",
            ),
            (
                "summary",
                "임차인 김민수 님의 7월분 월세 85만 원이 미납 상태입니다. 두 차례 문자 안내를 보냈으며 8월 5일까지 납부하겠다는 답변을 받았습니다.",
            ),
            (
                "explanation",
                "상자 12개에 각각 8개씩 들어 있어 총 96개입니다. 운송 중 6개가 파손되어 출고 가능한 수량은 90개입니다.",
            ),
            (
                "explanation",
                "토큰이 만료되어 요청이 실패했습니다. 토큰은 한 시간 동안 유효하므로 클라이언트에서 갱신한 뒤 다시 호출하면 됩니다.",
            ),
            (
                "explanation",
                "매달 서비스를 이용하시므로 연간 요금제를 추천합니다. 1년 기준으로 월간 결제보다 20% 저렴합니다.",
            ),
            (
                "explanation",
                "계약 만료 30일 전까지 갱신 거절 의사를 통지해야 한다. 통지가 없으면 같은 조건으로 계약이 자동 연장된다.",
            ),
        ],
    },
    "zh": {
        "leak": [
            (
                "planning",
                "用户可能想看欠租列表。当前页面是收款情况，所以我应该选 list_overdue_rent。",
            ),
            (
                "planning",
                "嗯，这个请求可能是退款也可能是换货。用户提到了订单号，我觉得应该是退款。",
            ),
            (
                "planning",
                "首先我需要理解“上个月”指的是哪段时间。应该是七月一号到三十一号，那就用这个范围。",
            ),
            (
                "planning",
                "让我想想，search_listing 和 export_report 哪个更合适。用户说的是“看看”，所以应该选搜索。",
            ),
            ("planning", "等等，用户说的是房东不是租客。那我需要换一个查询对象。"),
            (
                "narration",
                "我们一步一步来。火车下午三点出发，行驶两个小时，所以五点到达。答案是下午五点。",
            ),
            (
                "narration",
                "让我一步步算一下：12 箱每箱 8 件，一共 96 件，减去 6 件损坏的，剩下 90 件。所以答案是 90。",
            ),
            (
                "narration",
                "首先，我需要回忆一下澳大利亚的首都。我记得是堪培拉而不是悉尼。所以答案应该是堪培拉。",
            ),
            (
                "narration",
                "仔细想想，长方形是 4 乘 5，面积是 20。不对，题目问的是周长，应该是 18。",
            ),
            (
                "echo",
                "上一次输出未通过 schema 校验：缺少必填字段 confidence。修正后的答案：退款已批准。",
            ),
            ("echo", "错误摘要：confidence 必须是数字 | citations 为必填项"),
            ("echo", "JSON 解析失败，只能输出 JSON 对象。答案：会议在周一上午十点。"),
        ],
        "clean": [
            (
                "description",
                "三楼两居室，朝南带阳台。厨房于 2024 年翻新，楼内有电梯和自行车存放间，步行七分钟可到地铁站。",
            ),
            (
                "description",
                "返回某个客户的发票列表。结果按游标分页，获取下一页时需要传入上一页返回的游标。客户不存在时返回 404。",
            ),
            (
                "description",
                "防水登山靴，采用 Vibram 鞋底。鞋码偏小半码，建议大多数买家选大一码。有棕色和黑色两种颜色。",
            ),
            (
                "description",
                "首先将烤箱预热到 200 度。然后把蔬菜和橄榄油、盐拌匀，平铺在烤盘上烤 25 分钟，中途翻面一次。",
            ),
            (
                "summary",
                "客户询问三月账单为什么比平时高。客服解释是年度套餐自动续费，并建议改为按月付费，客户表示同意。",
            ),
            (
                "summary",
                "用户反馈上传超过 20MB 的照片时移动应用会闪退。支持团队在安卓 14 上复现了问题，并给上传团队提交了缺陷。",
            ),
            (
                "summary",
                "受欧洲订阅业务带动，季度营收同比增长 8%。硬件销售下滑，公司下调了全年利润率预期。",
            ),
            (
                "summary",
                "论文提出了一种用于语法约束解码的缓存方案：预先计算与上下文无关的词元掩码，并让掩码生成与 GPU 计算重叠进行。",
            ),
            (
                "explanation",
                "每箱 8 件，共 12 箱，所以总数是 96 件。运输中损坏了 6 件，因此可发货 90 件。",
            ),
            (
                "explanation",
                "堪培拉是悉尼和墨尔本之间的折中选择，两座城市都想成为首都。1927 年议会迁到了堪培拉。",
            ),
            (
                "explanation",
                "请求失败是因为令牌已过期。令牌有效期为一小时，客户端应先刷新令牌再重试。",
            ),
            (
                "explanation",
                "因为您每个月都会使用本服务，所以推荐年度套餐，按年计算比按月付费便宜 20%。",
            ),
        ],
    },
}

HELDOUT: dict[str, dict[str, list[Entry]]] = {
    "en": {
        "leak": [
            (
                "planning",
                "The user is asking about rent that is late. Since they said 'last month', I'll go with list_overdue_rent and set the period.",
            ),
            (
                "planning",
                "Let me see. The message mentions a broken heater, so this is a maintenance request rather than a complaint.",
            ),
            (
                "planning",
                "I think the right label is 'urgent' because the tenant says water is leaking, but maybe 'normal' fits if it is minor.",
            ),
            (
                "planning",
                "Wait, the user asked for a report, not a search. So export_report is probably correct here.",
            ),
            (
                "planning",
                "We need to output one of the five actions. The phrase 'send the draft' suggests draft_contract.",
            ),
            (
                "narration",
                "Let me think step by step. There are 30 students and 40 % are absent, which is 12. So 18 are present. Answer: 18.",
            ),
            (
                "narration",
                "Thinking about it carefully: the flight departs at 22:40 and lasts 9 hours, so it lands at 07:40 the next day. That is the answer.",
            ),
            (
                "narration",
                "First, I need to convert the units. 5 miles is about 8 km. Then at 4 km/h the walk takes 2 hours. So the answer is 2 hours.",
            ),
            (
                "narration",
                "Hmm, let me double-check the math. 15 % of 80 is 12, and 80 minus 12 is 68. So the discounted price should be 68.",
            ),
            (
                "echo",
                "The last response did not pass validation ('priority' is not one of ['low', 'normal', 'high']), so here is a corrected value: high",
            ),
            (
                "echo",
                "answer: String must contain at least 1 character(s) | confidence: Number must be less than or equal to 1",
            ),
            (
                "echo",
                "Retrying after error: Invalid JSON: trailing comma at line 3. The store opens at 9 am.",
            ),
        ],
        "clean": [
            (
                "description",
                "Studio flat near the river with large windows and a shared rooftop terrace. Heating and hot water are included in the rent; the deposit is two months.",
            ),
            (
                "description",
                "Creates a draft lease for the selected tenant. The draft starts with the standard clauses and can be edited before it is sent for signature. Fails with 409 if a draft already exists.",
            ),
            (
                "description",
                "A lightweight rain jacket that packs into its own pocket. The seams are taped, and the hood can be adjusted with one hand while wearing gloves.",
            ),
            (
                "description",
                "Step 1: unplug the router. Step 2: wait thirty seconds, then plug it back in. Step 3: if the light stays red, call support with your account number.",
            ),
            (
                "summary",
                "The tenant in unit 4B asked when the broken heater would be repaired. The manager scheduled a technician for Thursday morning and offered a space heater in the meantime.",
            ),
            (
                "summary",
                "The user wants to cancel the premium plan at the end of the billing cycle. The agent confirmed the cancellation date and explained that stored files stay available for 30 days.",
            ),
            (
                "summary",
                "The city council approved a new bike lane network covering 40 km. Construction starts in spring, and the first segments should open before the end of the year.",
            ),
            (
                "summary",
                "The study followed 2,000 patients for five years and found that the new drug reduced hospital admissions by 12 %, with mild side effects in a small share of participants.",
            ),
            (
                "explanation",
                "Eighteen students are present: 40 % of 30 is 12 absent, and 30 minus 12 leaves 18.",
            ),
            (
                "explanation",
                "The discount is 15 % of 80, which is 12, so you pay 68. The coupon cannot be combined with the member price.",
            ),
            (
                "explanation",
                "We picked the export action because you asked for a file you can send to the accountant, not a list on screen.",
            ),
            (
                "explanation",
                "The build failed because the lockfile pins a version that was yanked from the registry. Updating the pin to the next patch release fixes it.",
            ),
        ],
    },
    "ko": {
        "leak": [
            (
                "planning",
                "사용자는 늦게 들어온 월세를 묻고 있다. '지난달'이라고 했으니 list_overdue_rent로 기간을 설정하면 되겠다.",
            ),
            ("planning", "흠, 보일러 고장 얘기니까 불만 접수라기보다는 수리 요청이다."),
            (
                "planning",
                "긴급으로 분류해야 할 것 같다. 누수가 있다고 했으니까. 하지만 작은 문제라면 보통일 수도 있다.",
            ),
            (
                "planning",
                "좋아, 사용자가 검색이 아니라 보고서를 원한다. 그러면 export_report가 맞겠다.",
            ),
            (
                "planning",
                "다섯 가지 액션 중 하나를 골라야 한다. '초안 보내 줘'라는 표현을 보면 draft_contract가 맞는 것 같다.",
            ),
            (
                "narration",
                "생각해 보면 학생 30명 중 40%가 결석했으니 12명이다. 그러면 출석한 학생은 18명이다. 답은 18명이다.",
            ),
            (
                "narration",
                "한 단계씩 계산해 보자. 80의 15%는 12이고 80에서 12를 빼면 68이다. 그래서 할인가는 68이다.",
            ),
            (
                "narration",
                "우선 단위를 바꿔야 한다. 5마일은 약 8km다. 시속 4km로 걸으면 2시간이 걸린다. 따라서 답은 2시간이다.",
            ),
            (
                "narration",
                "잠깐, 다시 계산해 보자. 출발이 22시 40분이고 9시간 비행이면 다음 날 7시 40분 도착이다.",
            ),
            (
                "echo",
                "직전 응답이 검증을 통과하지 못했습니다(priority는 low, normal, high 중 하나여야 함). 수정한 값: high",
            ),
            ("echo", "answer: 최소 1자 이상이어야 합니다 | confidence: 1 이하의 숫자여야 합니다"),
            (
                "echo",
                "오류 반영 후 재시도: 3번째 줄에 쉼표가 남아 JSON이 유효하지 않음. 매장은 오전 9시에 엽니다.",
            ),
        ],
        "clean": [
            (
                "description",
                "강변 근처의 원룸으로 창이 크고 공용 옥상 테라스가 있습니다. 난방비와 온수 요금이 월세에 포함되어 있으며 보증금은 두 달 치입니다.",
            ),
            (
                "description",
                "선택한 임차인의 임대차 계약서 초안을 만든다. 초안에는 표준 조항이 들어가며 서명 요청 전에 수정할 수 있다. 이미 초안이 있으면 409로 실패한다.",
            ),
            (
                "description",
                "자체 주머니에 접어 넣을 수 있는 가벼운 우비입니다. 솔기는 방수 테이프로 마감했고 장갑을 낀 채로도 한 손으로 후드를 조절할 수 있습니다.",
            ),
            (
                "description",
                "1단계: 공유기 전원을 뺍니다. 2단계: 30초 기다린 뒤 다시 꽂습니다. 3단계: 표시등이 계속 빨간색이면 계정 번호를 준비해 고객센터에 연락합니다.",
            ),
            (
                "summary",
                "4B호 임차인이 고장 난 보일러 수리 일정을 문의했다. 관리인은 목요일 오전에 기사 방문을 잡았고 그동안 쓸 전기 난로를 제공하기로 했다.",
            ),
            (
                "summary",
                "사용자가 결제 주기가 끝나면 프리미엄 요금제를 해지하고 싶다고 했다. 상담원은 해지 날짜를 확인하고 저장된 파일은 30일 동안 유지된다고 안내했다.",
            ),
            (
                "summary",
                "시의회가 총 40km 규모의 자전거 도로망 계획을 승인했다. 공사는 봄에 시작하며 첫 구간은 연말 전에 개통될 예정이다.",
            ),
            (
                "summary",
                "환자 2,000명을 5년간 추적한 연구에서 신약이 입원율을 12% 낮춘 것으로 나타났다. 일부 참가자에게서 가벼운 부작용이 보고되었다.",
            ),
            ("explanation", "30명 중 40%인 12명이 결석해서 출석 인원은 18명입니다."),
            (
                "explanation",
                "80의 15%인 12를 할인받아 68을 내시면 됩니다. 이 쿠폰은 회원가와 중복 적용되지 않습니다.",
            ),
            (
                "explanation",
                "화면 목록이 아니라 세무사에게 보낼 파일을 요청하셔서 내보내기 기능을 선택했습니다.",
            ),
            (
                "explanation",
                "잠금 파일이 저장소에서 삭제된 버전을 고정하고 있어 빌드가 실패했습니다. 다음 패치 버전으로 고정을 올리면 해결됩니다.",
            ),
        ],
    },
    "zh": {
        "leak": [
            (
                "planning",
                "用户在问上个月迟交的租金。既然提到了“上个月”，那就用 list_overdue_rent 并设置时间范围。",
            ),
            ("planning", "嗯，提到的是暖气坏了，所以这是维修请求，不是投诉。"),
            ("planning", "我觉得应该标为紧急，因为租客说漏水了。不过如果问题不大，也可能是普通。"),
            ("planning", "好的，用户要的是报表不是搜索。那应该选 export_report。"),
            (
                "planning",
                "我需要从五个动作里选一个。“把草稿发过去”这个说法说明应该是 draft_contract。",
            ),
            (
                "narration",
                "让我一步一步想。30 个学生有 40% 缺席，也就是 12 人，所以到场 18 人。答案是 18。",
            ),
            ("narration", "我们先算折扣：80 的 15% 是 12，80 减 12 等于 68。所以折后价应该是 68。"),
            (
                "narration",
                "首先要换算单位，5 英里大约是 8 公里。然后按每小时 4 公里走需要 2 小时。所以答案是 2 小时。",
            ),
            (
                "narration",
                "等等，我再算一遍。22 点 40 分起飞，飞 9 个小时，应该是第二天 7 点 40 分到。",
            ),
            (
                "echo",
                "上一条回复没有通过校验（priority 必须是 low、normal、high 之一），修正后的值：high",
            ),
            ("echo", "answer：至少需要 1 个字符 | confidence：必须小于或等于 1"),
            ("echo", "根据错误重试：第 3 行有多余的逗号，JSON 无效。商店上午九点开门。"),
        ],
        "clean": [
            (
                "description",
                "河边的一居室，窗户很大，有共用的屋顶露台。租金包含暖气和热水，押金为两个月租金。",
            ),
            (
                "description",
                "为所选租客创建租赁合同草稿。草稿包含标准条款，发送签署前可以修改。如果已有草稿则返回 409。",
            ),
            (
                "description",
                "可以收进自带口袋的轻便雨衣。接缝做了压胶处理，戴着手套也能单手调节帽子。",
            ),
            (
                "description",
                "第一步：拔掉路由器电源。第二步：等待三十秒后重新插上。第三步：如果指示灯一直是红色，请准备好账号联系客服。",
            ),
            (
                "summary",
                "4B 室的租客询问坏掉的暖气什么时候修。物业安排了周四上午上门维修，并在此期间提供一台电暖器。",
            ),
            (
                "summary",
                "用户希望在本计费周期结束时取消高级套餐。客服确认了取消日期，并说明已存储的文件会保留 30 天。",
            ),
            (
                "summary",
                "市议会批准了总长 40 公里的自行车道网络。工程将于春季开工，首批路段预计年底前开通。",
            ),
            (
                "summary",
                "一项对 2000 名患者为期五年的研究发现，新药使住院率降低了 12%，少数参与者出现了轻微副作用。",
            ),
            ("explanation", "30 人中有 40% 即 12 人缺席，所以到场 18 人。"),
            ("explanation", "80 的 15% 是 12，所以您需要支付 68。此优惠券不能与会员价同时使用。"),
            ("explanation", "您要的是可以发给会计的文件，而不是屏幕上的列表，所以选择了导出功能。"),
            (
                "explanation",
                "构建失败是因为锁文件固定了一个已从仓库撤回的版本。把版本升级到下一个补丁版本即可解决。",
            ),
        ],
    },
}

# In-schema CoT slot contents: reasoning on purpose. Never a leak in a designated slot.
SLOT_TEXTS: dict[str, dict[str, list[str]]] = {
    "dev": {
        "en": [
            "The user wants unpaid rent for last month; the screen is the payments view.",
            "Let me check: 'last month' means the whole previous calendar month.",
            "export_report creates a file, which is not what was asked.",
            "I think the request is a search because the user said 'show me'.",
        ],
        "ko": [
            "사용자는 지난달 임대료가 미납된 임차인을 확인하려 한다",
            "'지난달'은 직전 월 전체를 가리킨다. 현재 화면은 수납 현황이다.",
            "export_report는 파일을 만드는 기능이라 의도와 다르다",
            "음, 조회 요청으로 보인다. 그러니 검색이 맞겠다.",
        ],
        "zh": [
            "用户想查看上个月未交租金的租客",
            "让我想想，“上个月”指整个上一个自然月。",
            "export_report 是生成文件，不符合用户的意图",
            "用户说的是“看看”，所以应该是搜索。",
        ],
    },
    "heldout": {
        "en": [
            "Okay, so the tenant reports a leak, which needs a technician today.",
            "Goal: find the lease that expires next month.",
            "Rejected search_listing: the user named a specific tenant, not a listing.",
            "We need to pick between urgent and normal; water damage spreads, so urgent.",
        ],
        "ko": [
            "임차인이 누수를 신고했으니 오늘 기사 방문이 필요하다",
            "목표: 다음 달 만료되는 계약 찾기",
            "search_listing 기각: 매물이 아니라 특정 임차인을 지목했다",
            "긴급과 보통 중에 골라야 한다. 누수는 번지니까 긴급으로 하자.",
        ],
        "zh": [
            "租客报告漏水，今天需要安排维修人员",
            "目标：找到下个月到期的租约",
            "排除 search_listing：用户指定的是租客而不是房源",
            "嗯，要在紧急和普通之间选，漏水会扩散，所以选紧急。",
        ],
    },
}

# A third set, written after the cues were frozen and measured once (reported, not asserted):
# harder negatives (first-person agent replies and opinions in reply/message fields, polite
# Korean hedges, Chinese recommendations) and leaks in forms the halves above do not use.
FRESH: dict[str, dict[str, list[Entry]]] = {
    "en": {
        "leak": [
            (
                "planning",
                "Okay so they want to move the appointment. I'll pick reschedule since cancel is too strong.",
            ),
            (
                "planning",
                "The answer depends on the city, and the user said Boston. I should output east.",
            ),
            (
                "narration",
                "Let me reconsider: 7 times 8 is 56, not 54, so the final total should be 56.",
            ),
            (
                "narration",
                "Working it out step by step: rent is 1200, utilities 150, so 1350 in total.",
            ),
            (
                "echo",
                "Note: the previous attempt failed validation because 'date' is not of type 'string'. Fixed.",
            ),
            (
                "echo",
                "Error: Additional properties are not allowed ('comment' was unexpected). Answer: approved",
            ),
        ],
        "clean": [
            (
                "reply",
                "I think the blue model suits you best; it's probably the lighter of the two and it ships tomorrow.",
            ),
            (
                "reply",
                "I'll send the corrected invoice this afternoon. Let me know if the address needs to change.",
            ),
            (
                "reply",
                "Maybe try restarting the app first. If that doesn't help, we can reset your password.",
            ),
            (
                "message",
                "Since the user asked for a refund within 30 days, the order qualifies and the money is on its way.",
            ),
            ("answer", "The meeting is on Tuesday at 10 am in room 4B; bring the signed lease."),
            (
                "summary",
                "The model first plans its answer and then writes it, which the authors call step-by-step prompting.",
            ),
        ],
    },
    "ko": {
        "leak": [
            ("planning", "좋아, 예약 변경 요청이다. 취소는 과하니까 reschedule을 고르자."),
            ("planning", "사용자가 보스턴이라고 했으니 east를 넣어야겠다."),
            (
                "narration",
                "다시 생각해 보면 7 곱하기 8은 54가 아니라 56이다. 그러니 총합은 56이다.",
            ),
            ("narration", "차근차근 더하면 월세 120만 원에 관리비 15만 원이라 135만 원이다."),
            ("echo", "직전 응답이 스키마 검증에 실패해서 date를 문자열로 고쳤습니다."),
            ("echo", "오류 요약: comment: 허용되지 않은 속성 | answer: 필수 항목입니다"),
        ],
        "clean": [
            (
                "reply",
                "파란색 모델이 고객님께 더 잘 맞을 것 같습니다. 두 제품 중 더 가볍고 내일 발송됩니다.",
            ),
            (
                "reply",
                "수정된 청구서를 오늘 오후에 보내 드리겠습니다. 주소 변경이 필요하면 알려 주세요.",
            ),
            ("reply", "먼저 앱을 다시 시작해 보세요. 그래도 안 되면 비밀번호를 재설정해 드릴게요."),
            (
                "message",
                "사용자가 30일 이내에 환불을 요청해서 주문이 환불 대상에 해당하며 환불이 진행 중입니다.",
            ),
            ("answer", "회의는 화요일 오전 10시 4B호에서 열립니다. 서명한 계약서를 가져오세요."),
            (
                "summary",
                "모델이 먼저 답을 계획한 뒤 작성하는 방식으로, 저자들은 이를 단계별 프롬프팅이라고 부른다.",
            ),
        ],
    },
    "zh": {
        "leak": [
            ("planning", "好，他们想改预约时间。取消太重了，我应该选 reschedule。"),
            ("planning", "用户说的是波士顿，那应该填 east。"),
            ("narration", "我再算一遍：7 乘 8 是 56 不是 54，所以总数应该是 56。"),
            ("narration", "一步步算：房租 1200，水电 150，一共 1350。"),
            ("echo", "上一次回复未通过校验：date 必须是字符串，已修正。"),
            ("echo", "错误摘要：comment 不允许出现 | answer 为必填项"),
        ],
        "clean": [
            ("reply", "我觉得蓝色款更适合您，两款里它更轻，明天就能发货。"),
            ("reply", "修改后的发票今天下午发给您。如果地址需要更改，请告诉我。"),
            ("reply", "可以先重启应用试试。如果还不行，我们可以帮您重置密码。"),
            ("message", "用户在 30 天内申请退款，订单符合条件，款项正在退回。"),
            ("answer", "会议在周二上午十点，4B 会议室，请带上签好的租约。"),
            ("summary", "模型先规划答案再写出来，作者称之为逐步提示。"),
        ],
    },
}
