// Data banks of the OmniBehavior sample: scene names, topics, items, ads, customer-service lines, profiles, and the
// six users with their scene mix and behaviour signature.

export const SCENE_NAMES = {
  en: {
    video: 'Video Browsing',
    live: 'Live Streaming',
    ads: 'Advertisement',
    shop: 'E-commerce',
    search: 'Search Behavior',
    cs: 'Customer Service',
  },
  zh: { video: '视频浏览', live: '直播间', ads: '广告推荐', shop: '商城购物', search: '搜索行为', cs: '电商客服对话' },
};
export const TOPICS = {
  en: [
    'home cooking',
    'city travel',
    'cat videos',
    'home fitness',
    'mobile games',
    'makeup tips',
    'phone reviews',
    'guitar covers',
    'sketch comedy',
    'lake fishing',
  ],
  zh: [
    '家常菜',
    '城市旅行',
    '萌宠日常',
    '居家健身',
    '手游攻略',
    '美妆教程',
    '手机测评',
    '吉他弹唱',
    '搞笑短剧',
    '野钓',
  ],
};
export const ITEMS = {
  en: ['rice cooker', 'yoga mat', 'cat litter', 'phone case', 'lipstick', 'fishing rod', 'running shoes', 'desk lamp'],
  zh: ['电饭煲', '瑜伽垫', '猫砂', '手机壳', '口红', '钓鱼竿', '跑步鞋', '台灯'],
};
export const PRODUCTS = [
  ['Loan app', 'Finance', 'Consumer credit'],
  ['Puzzle game', 'Games', 'Casual'],
  ['Language course', 'Education', 'Online course'],
  ['Car insurance', 'Finance', 'Insurance'],
];
export const CS_LINES = {
  en: [
    ['Where is my parcel? It has not moved for three days.', 'Sorry about that, let me check the logistics for you.'],
    ['Can I change the size to M?', 'Yes, please tell me the order number.'],
    ['The lamp arrived broken.', 'We are sorry. Please send a photo and we will refund you.'],
    ['Is there a discount if I buy two?', 'Buying two gives 10% off at checkout.'],
  ],
  zh: [
    ['我的快递三天没动了，怎么回事？', '抱歉，我帮您查一下物流。'],
    ['可以换成M码吗？', '可以的，请提供一下订单号。'],
    ['台灯到货就是坏的。', '非常抱歉，请拍照给我们，我们为您退款。'],
    ['买两件有优惠吗？', '两件结算时打九折。'],
  ],
};
export const FOLLOW_UPS = {
  en: ['Order 20250412, thanks.', 'OK, photo sent.', 'How long will the refund take?', 'Great, I will order two.'],
  zh: ['订单号20250412，谢谢。', '好的，照片发了。', '退款要多久？', '好的，我买两件。'],
};
export const PROFILES = {
  en: [
    "Female, 25-30, bachelor's degree, married, one child.",
    'Male, 18-24, high school, single, no children.',
    "Female, 31-40, master's degree, married, two children.",
    'Male, 41-50, junior college, married, one child.',
  ],
  zh: ['女，18-24岁，本科在读，单身，无子女。', '男，31-40岁，大专，已婚，有一个孩子。'],
};

// Each user has a signature: a few behaviours they do often and next to nothing else. That is what tells real users
// apart (a low intra/inter-user distance ratio) while the pooled positive rates stay low.
const NONE = {
  like: 0,
  comment: 0,
  share: 0,
  collect: 0,
  follow: 0,
  complete: 0.08,
  gift: 0,
  cart: 0,
  adAct: 0,
  adSubmit: 0,
  shopCart: 0,
  pay: 0,
};
export const USERS = [
  {
    id: 'u_1001',
    lang: 'en',
    layout: 'lines',
    records: 1900,
    profile: 0,
    mix: { video: 60, live: 8, ads: 10, shop: 8, search: 10, cs: 4 },
    p: { ...NONE, like: 0.35, collect: 0.25, complete: 0.35 },
    topics: [0, 8],
  },
  {
    id: 'u_1002',
    lang: 'zh',
    layout: 'lines',
    records: 1300,
    profile: 0,
    mix: { video: 20, live: 45, ads: 8, shop: 12, search: 10, cs: 5 },
    p: { ...NONE, comment: 0.35, gift: 0.3, follow: 0.25 },
    topics: [5, 7],
  },
  {
    id: 'u_1003',
    lang: 'en',
    layout: 'lines',
    records: 700,
    profile: 1,
    mix: { video: 25, live: 10, ads: 10, shop: 35, search: 15, cs: 5 },
    p: { ...NONE, cart: 0.4, shopCart: 0.45, pay: 0.3 },
    topics: [2, 6],
  },
  {
    id: 'u_1004',
    lang: 'en',
    layout: 'pretty',
    records: 420,
    profile: 2,
    mix: { video: 30, live: 10, ads: 35, shop: 10, search: 10, cs: 5 },
    p: { ...NONE, share: 0.35, complete: 0.3, adAct: 0.3, adSubmit: 0.25 },
    topics: [1, 3],
  },
  {
    id: 'u_1005',
    lang: 'zh',
    layout: 'lines',
    records: 950,
    profile: 1,
    mix: { video: 45, live: 25, ads: 8, shop: 8, search: 10, cs: 4 },
    p: { ...NONE, complete: 0.05 },
    topics: [4, 9],
  },
  {
    id: 'u_1006',
    lang: 'en',
    layout: 'lines',
    records: 320,
    profile: 3,
    mix: { video: 35, live: 20, ads: 15, shop: 15, search: 10, cs: 5 },
    p: { ...NONE, follow: 0.3, like: 0.3, complete: 0.2 },
    topics: [9, 0],
  },
];
