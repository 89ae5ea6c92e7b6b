// Text banks: trending tags, profile words, each platform's post phrasing, and the placeholder sentences.

// Platform-wide trending tags (D_viral is drawn from these, per target day).
export const VIRAL = {
  weibo:
    '高考作文题 淄博烧烤 春晚 跨年 神舟十六号发射成功 杭州亚运会 中秋节 国庆假期 双十一 多巴胺穿搭 特种兵式旅游 哈尔滨冰雪大世界 酱香拿铁 显眼包 村超 五一假期 毕业季 考研成绩 世界读书日 520',
  xiaohongshu:
    '多巴胺穿搭 美拉德穿搭 citywalk 特种兵旅游 淄博烧烤 尔滨 松弛感 情绪价值 围炉煮茶 贵州村超 秋天的第一杯奶茶 年度总结 新年flag 春日限定 公园20分钟效应 一人食 早C晚A 搭子文化',
  toutiao:
    '神舟十七号 杭州亚运会 台风杜苏芮 高考 中国空间站 国产大飞机C919 新能源汽车下乡 延迟退休 个人养老金 乡村振兴战略 春运 全国两会 华为Mate60 房地产新政 养老金上调 北方暴雨 世界杯预选赛 淄博烧烤',
  zhihu: [
    '如何评价2023年高考全国卷作文题？',
    '如何看待淄博烧烤突然爆火？',
    '如何评价华为Mate60系列？',
    '如何看待今年的就业形势？',
    '如何评价电影《满江红》？',
    '如何评价游戏黑神话悟空的首发表现？',
    '如何看待年轻人开始攒钱？',
    '如何评价杭州亚运会开幕式？',
    '如何看待ChatGPT对程序员的影响？',
    '为什么今年考研人数下降了？',
    '如何看待哈尔滨冰雪旅游爆火？',
    '如何评价电视剧《繁花》？',
    '如何看待特种兵式旅游？',
    '如何评价苹果Vision Pro？',
    '如何看待延迟退休政策？',
    '如何评价电影《封神第一部》？',
  ],
  douban: [
    '看过影视:封神第一部',
    '看过影视:孤注一掷',
    '看过影视:满江红',
    '看过影视:流浪地球2',
    '想看影视:奥本海默',
    '看过影视:芭比',
    '在看影视:繁花',
    '想看影视:热辣滚烫',
    '看过影视:第二十条',
    '想读图书:我在北京送快递',
    '看过影视:坚如磐石',
    '看过影视:消失的她',
    '想看影视:周处除三害',
    '在看影视:我的阿勒泰',
    '读过图书:额尔古纳河右岸',
    '想读图书:长安的荔枝',
  ],
};

export const CITIES = '北京 上海 广州 深圳 杭州 成都 武汉 西安 南京 重庆 长沙 厦门 苏州 天津 青岛 昆明'.split(' ');
export const TRAITS =
  '90后 00后 打工人 宝妈 奶爸 程序员 设计师 在读研究生 自由职业者 小学老师 产品经理 退休教师 医学生 销售 公务员 大学生'.split(
    ' ',
  );
export const WEIBO_TAILS = ['[哈哈]', '[doge]', '[允悲]', '[心]', '[笑cry]', '[二哈]', '', '', '', ''];
export const WEIBO_REPOST = ['说得太对了', '同款经历', '哈哈哈哈哈哈', '码住', '+1', '转发微博'];
export const XHS_HOOKS = [
  '真心推荐',
  '新手必看',
  '踩坑总结',
  '一周记录',
  '私藏清单',
  '超详细攻略',
  '亲测有效',
  '宝藏发现',
];
export const XHS_EMOJI = ['✨', '🌿', '📍', '💡', '🍀', '☀️', '🥹', '👀'];
export const XHS_CLOSERS = ['有问题评论区问我～', '码住慢慢看！', '姐妹们冲！', '你们还有什么推荐吗？', ''];
export const TOUTIAO_TITLES = [
  '{s}迎来新变化，这几点值得关注',
  '关于{s}，很多人都想错了',
  '{s}最新动态：专家这样解读',
  '聊聊{s}：普通人该怎么看',
  '{s}火了，背后的原因不简单',
  '一文看懂{s}',
];
export const TOUTIAO_CLOSERS = ['你怎么看？欢迎在评论区留言。', '大家有什么看法？', '关注我，了解更多。', ''];
export const ZHIHU_OPENERS = [
  '谢邀。',
  '说几点个人看法。',
  '利益相关：资深爱好者。',
  '泻药，人在{city}，刚下班。',
  '这个问题我有发言权。',
  '不请自来。',
];
export const ZHIHU_MIDDLE = [
  '总的来说因人而异，适合自己最重要。',
  '我的建议是先想清楚自己的需求，再做决定。',
  '很多问题其实没有标准答案。',
  '这些都是亲身经历，不一定对，但都是真话。',
];
export const ZHIHU_CLOSERS = ['以上，仅供参考。', '码字不易，觉得有用可以点个赞。', '欢迎在评论区交流。', ''];
export const PLATFORM_STYLE = {
  weibo: '发帖以短句和表情为主，常转发评论',
  xiaohongshu: '笔记偏分享种草，标题醒目',
  toutiao: '偏好资讯类内容，喜欢评论时事',
  zhihu: '回答篇幅较长，喜欢结合个人经验',
  douban: '经常标记作品并写短评',
};

// Placeholder sentences (the release's masking). Every category must occur somewhere in the sample.
export const PH_POST = {
  PHONE: ['闲置转让，同城自提，有意联系<PHONE>。', '快递员打<PHONE>找不到人，原来是我填错了号码。'],
  ID: ['办居住证要填身份证号<ID>，表格改了三遍。'],
  BANK: ['工资卡<BANK>今天终于到账了，开心。'],
  EMAIL: ['需要资料的朋友可以发邮件到<EMAIL>。'],
  CONTACT: ['想一起组队的加我vx：<CONTACT>。', '有兴趣的朋友可以加QQ<CONTACT>交流。'],
  PLATE: ['小区门口那辆<PLATE>又占了消防通道。'],
  IP: ['服务器<IP>又被扫端口了，头疼。'],
  GEO: ['今天徒步的终点坐标<GEO>，风景绝了。'],
  DEVICE: ['旧手机丢了，IMEI号<DEVICE>，捡到的好心人麻烦联系我。'],
  SELF: ['大家好，我是<SELF>，以后请多关照。'],
};
export const PH_BIO = { SELF: '我是<SELF>｜', CONTACT: 'vx：<CONTACT>｜', EMAIL: '商务合作：<EMAIL>｜' };
export const PH_CATEGORIES = Object.keys(PH_POST);
