#!/usr/bin/env node
// Seeded generator of a synthetic StreamProfileBench folder in the official layout: data/, one simulated model run
// (results/demo-llm/) and pi-manifest.json listing deliberately planted residual PI. Same seed + scale => same bytes.
//   node scripts/gen-sample.mjs [--out DIR] [--scale sample|paper] [--seed N] [--check]
// --check regenerates into a temp folder, requires byte equality with --out, then validates --out (invariants, planted
// PI at the manifest's lines, the run's metrics against the reference rules, sizes). Plain Node, no dependencies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_SEED = 7451;
const USAGE = 'usage: node scripts/gen-sample.mjs [--out DIR] [--scale sample|paper] [--seed N] [--check]';

const PLATFORMS = ['weibo', 'xiaohongshu', 'toutiao', 'zhihu', 'douban'];
const CODE = { weibo: 'we', xiaohongshu: 'xi', toutiao: 'to', zhihu: 'zh', douban: 'do' };
const PLATFORM_NAME = { weibo: '微博', xiaohongshu: '小红书', toutiao: '今日头条', zhihu: '知乎', douban: '豆瓣' };
const META_KEYS = ['T_keep', 'T_new', 'D_decay', 'D_cluster', 'D_viral', 'D_random'];
const METRIC_KEYS = ['Recall', 'Recall_Novelty', 'Recall_Stability', 'Error_Decay', 'Error_Peer', 'Error_Viral', 'Error_Random'];
const RUN_NAME = 'demo-llm';

// The paper's scale (spec section 7).
const PAPER_STEPS = { weibo: 1862, xiaohongshu: 6625, toutiao: 2695, zhihu: 2912, douban: 1102 };
const PAPER_USERS = 7451;
const PAPER_MULTI = 5661;
const SAMPLE_USERS = { weibo: 10, xiaohongshu: 12, toutiao: 10, zhihu: 10, douban: 8 };

// ---------------------------------------------------------------------------------------------------------------
// Seeded randomness

function digest(key) {
  return crypto.createHash('sha256').update(String(key)).digest();
}

function hexOf(key, n) {
  return digest(key).toString('hex').slice(0, n);
}

/** Seed-independent string hash: shapes the vocabulary, which is the same for every seed. */
function fnv(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

class Rng {
  constructor(key) {
    const d = digest(key);
    this.s = [d.readUInt32LE(0), d.readUInt32LE(4), d.readUInt32LE(8), d.readUInt32LE(12)];
  }
  /** sfc32 */
  next() {
    let [a, b, c, d] = this.s;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    this.s = [a, b, c, d];
    return (t >>> 0) / 4294967296;
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  float(lo, hi) {
    return lo + this.next() * (hi - lo);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(arr) {
    return arr[Math.floor(this.next() * arr.length)];
  }
  weighted(items, weights) {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i];
      if (r < 0) return items[i];
    }
    return items[items.length - 1];
  }
  shuffle(arr) {
    const a = arr.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
  /** n distinct items, each draw proportional to weightOf among those left. */
  weightedSample(items, weightOf, n) {
    const left = items.slice();
    const w = left.map(weightOf);
    let total = w.reduce((a, b) => a + b, 0);
    const out = [];
    while (out.length < n && left.length > 0) {
      let r = this.next() * total;
      let i = 0;
      for (; i < left.length - 1; i++) {
        r -= w[i];
        if (r < 0) break;
      }
      out.push(left[i]);
      total -= w[i];
      left.splice(i, 1);
      w.splice(i, 1);
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Topic banks. `suffix` gives a platform flavoured variant tag for some subjects: [xiaohongshu, weibo, toutiao].

const TOPICS = [
  {
    id: 'food', name: '美食', suffix: ['推荐', '日记', '攻略'],
    subjects: '火锅 螺蛳粉 家常菜 烘焙 手冲咖啡 奶茶 减脂餐 早餐 探店 川菜 早茶 烧烤 甜品 日料 面食 便当 空气炸锅 下午茶 夜宵 卤味',
    ask: ['有哪些关于{s}的冷知识？', '{s}有哪些常见的误区？', '如何评价{s}？'],
    lines: [
      '周末在家折腾了一下{s}，卖相一般但味道真的不错，下次还要再做一次。',
      '下班路上被{s}的香味勾住了，果然打工人的快乐就是这么简单。',
      '和朋友约了{s}，一直聊到店里打烊才走，吃饱了心情也好了。',
      '最近迷上了{s}，已经连续一周没重样了，钱包在哭泣。',
      '记录一下今天的{s}，分量足、价格也实在，人均不到五十。',
      '{s}真的是治愈一切的良药，吃完整个人都活过来了。',
    ],
  },
  {
    id: 'travel', name: '旅行', suffix: ['攻略', 'vlog', '指南'],
    subjects: '云南 大理 成都 重庆 西藏 新疆 厦门 青岛 三亚 桂林 西安 哈尔滨 日本 泰国 敦煌 川西 丽江 杭州 长沙 苏州',
    ask: ['{s}值得去吗？', '有哪些关于{s}的冷知识？', '去{s}旅行有哪些需要提前了解的？'],
    lines: [
      '终于把{s}安排上了，路上堵了一会儿，但看到风景的那一刻觉得都值了。',
      '在{s}的第二天，天气好到不真实，随手一拍都是壁纸。',
      '做了好久的{s}攻略，最后还是临时改了路线，计划永远赶不上变化。',
      '给想去{s}的朋友提个醒：旺季人真的很多，最好错峰出行。',
      '翻相册看到去年在{s}拍的照片，又开始想念那里的空气了。',
      '这次去{s}最大的收获是认识了几个有趣的人，一路上聊了很多。',
    ],
  },
  {
    id: 'tech', name: '数码科技', suffix: ['测评', '体验', '新闻'],
    subjects: '手机 华为 小米 iPhone 折叠屏 智能手表 降噪耳机 机械键盘 笔记本电脑 平板电脑 相机 显卡 人工智能 大模型 编程 Python 新能源汽车 智能家居 扫地机器人 数码',
    ask: ['如何评价{s}？', '如何看待{s}的发展前景？', '有哪些关于{s}的冷知识？'],
    lines: [
      '用了一个月的{s}，说点真实感受：优点很明显，缺点也不少。',
      '又被{s}种草了，理智告诉我不需要，手却已经点了加入购物车。',
      '关于{s}，我的建议是按需购买，参数党最容易踩坑。',
      '看完今天的发布会，{s}这一块的进步确实挺大。',
      '折腾了一晚上{s}，终于搞定了，记录一下踩过的坑。',
      '身边越来越多人在聊{s}，感觉这波浪潮是真的来了。',
    ],
  },
  {
    id: 'games', name: '游戏', suffix: ['攻略', '日常', '资讯'],
    subjects: '原神 王者荣耀 黑神话悟空 塞尔达传说 英雄联盟 和平精英 崩坏星穹铁道 独立游戏 Switch Steam 主机游戏 派对游戏 我的世界 动物森友会 桌游 剧本杀 手游 金铲铲之战 星露谷物语 单机游戏',
    ask: ['如何评价{s}？', '{s}值得入坑吗？', '有哪些关于{s}的冷知识？'],
    lines: [
      '今晚又因为{s}熬到了两点，说好的早睡又泡汤了。',
      '{s}这次的更新有点东西，玩了一下午完全停不下来。',
      '和室友一起玩{s}，从互相嫌弃到默契配合只用了一个晚上。',
      '说句公道话，{s}的美术和音乐真的是第一梯队。',
      '周末宅家计划：{s}、外卖、睡觉，完美。',
      '萌新求助，{s}卡关卡了三天，有没有大佬带带？',
    ],
  },
  {
    id: 'parenting', name: '育儿', suffix: ['经验', '日记', '知识'],
    subjects: '育儿 宝宝辅食 幼儿园 亲子阅读 绘本 早教 二胎 孕期 母婴好物 带娃日常 幼小衔接 小学作业 亲子游 儿童英语 睡眠训练 宝宝湿疹 家庭教育 新手爸妈 儿童安全 儿童营养',
    ask: ['{s}有哪些常见的误区？', '关于{s}有哪些值得分享的经验？', '如何缓解{s}带来的焦虑？'],
    lines: [
      '关于{s}，做了父母才知道有这么多学问。',
      '今天在{s}这件事上又和孩子斗智斗勇了一番，累并快乐着。',
      '分享一点{s}的小经验，不一定适合每家，但对我们家挺有用。',
      '看了很多{s}的文章，最后发现还是要根据孩子的性格来。',
      '娃睡着了才有空发条动态，{s}真的太费心力了。',
      '大家在{s}方面有什么避坑建议吗？在线等。',
    ],
  },
  {
    id: 'fitness', name: '运动健身', suffix: ['打卡', '日记', '技巧'],
    subjects: '健身 跑步 马拉松 减脂 增肌 瑜伽 普拉提 帕梅拉 跳绳 游泳 骑行 力量训练 健身房 体态矫正 居家锻炼 羽毛球 飞盘 徒步 核心训练 拉伸',
    ask: ['{s}有哪些常见的误区？', '普通人应该如何开始{s}？', '坚持{s}是一种什么样的体验？'],
    lines: [
      '坚持{s}的第四十二天，体重没怎么变，但精神状态好了很多。',
      '今天的{s}完成了，出了一身汗，整个人都通透了。',
      '坚持{s}之后最大的变化是睡眠变好了，推荐给久坐的朋友。',
      '下雨天没法出门，只能在家里凑合一下{s}。',
      '给刚开始{s}的朋友：别急，循序渐进比什么都重要。',
      '和同事约了下班后一起{s}，互相监督才不容易放弃。',
    ],
  },
  {
    id: 'finance', name: '理财', suffix: ['经验', '日记', '分析'],
    subjects: '理财 基金 股市 A股 定投 存钱 储蓄 房价 房贷 保险 黄金 记账 副业 退休规划 信用卡 年终奖 消费降级 个税 通胀 国债',
    ask: ['如何看待{s}？', '{s}有哪些常见的误区？', '普通人应该如何看待{s}？'],
    lines: [
      '今天认真盘点了一下{s}，发现自己之前踩了不少坑。',
      '关于{s}，我的原则是不懂的不碰，稳字当头。',
      '{s}又上热搜了，身边朋友的看法两极分化。',
      '记录一下本月的{s}情况，比上个月进步了一点点。',
      '和爸妈聊了一晚上{s}，两代人的观念差异真的很大。',
      '不构成任何建议，只是分享一下我对{s}的一些思考。',
    ],
  },
  {
    id: 'films', name: '影视', suffix: ['推荐', '安利', '盘点'],
    subjects: '电影 国产剧 综艺 纪录片 悬疑剧 动画电影 春节档 暑期档 网剧 武侠片 科幻片 港片 韩剧 美剧 日剧 短剧 演唱会 脱口秀 音乐节 老电影',
    ask: ['有哪些值得推荐的{s}？', '如何评价近期的{s}？', '为什么越来越多的人喜欢{s}？'],
    lines: [
      '熬夜补完了{s}，后劲太大，到现在还在回味。',
      '最近的{s}质量参差不齐，还好这周挖到一部宝藏。',
      '周末的安排就是窝在沙发上看{s}，谁也别叫我出门。',
      '关于{s}，我的评价是：节奏有点拖，但演员是真的好。',
      '和朋友争论了半天{s}，最后谁也没说服谁。',
      '求推荐{s}，最好是不烧脑、下饭的那种。',
    ],
  },
  {
    id: 'books', name: '阅读学习', suffix: ['打卡', '分享', '推荐'],
    subjects: '读书 读书笔记 书单 小说 推理小说 科幻小说 历史 心理学 诗歌 网文 考研 考公 英语学习 雅思 写作 图书馆 二手书 文学 哲学 自学',
    ask: ['关于{s}有哪些值得分享的经验？', '{s}有哪些常见的误区？', '如何看待{s}热？'],
    lines: [
      '今天在{s}上花了两个小时，效率比想象中高。',
      '整理了一份{s}相关的笔记，放在这里留个档。',
      '最近对{s}越来越感兴趣了，有没有入门的好书推荐？',
      '地铁上的四十分钟是我留给{s}的固定时间。',
      '{s}这件事贵在坚持，今天是打卡的第十五天。',
      '读到一句话很喜欢：慢慢来，比较快。{s}也是一样。',
    ],
  },
  {
    id: 'pets', name: '萌宠', suffix: ['日常', '日记', '知识'],
    subjects: '猫 狗 养猫 柯基 布偶猫 橘猫 金毛 流浪猫 宠物医院 猫粮 铲屎官 遛狗 仓鼠 宠物用品 领养代替购买 猫咪绝育 狗狗训练 异宠 柴犬 边牧',
    ask: ['关于{s}有哪些值得分享的经验？', '{s}有哪些常见的误区？', '有哪些关于{s}的冷知识？'],
    lines: [
      '今天又被家里的主子嫌弃了，{s}的世界我真的不懂。',
      '关于{s}，分享几个我踩过的坑，新手一定要看。',
      '下班回家一开门，和{s}有关的快乐就扑面而来。',
      '带毛孩子去做了体检，顺便请教了医生{s}的问题。',
      '刷到好多{s}的视频，一刷就停不下来。',
      '{s}的日常：吃饭、睡觉、拆家，周而复始。',
    ],
  },
  {
    id: 'career', name: '职场', suffix: ['经验', '日常', '观察'],
    subjects: '职场 求职 面试 裁员 加班 应届生 跳槽 打工人 实习 远程办公 简历 体制内 创业 摸鱼 周报 升职加薪 通勤 职业规划 团建 年终总结',
    ask: ['如何看待{s}？', '关于{s}有哪些值得分享的经验？', '{s}有哪些常见的误区？'],
    lines: [
      '今天的{s}又刷新了我的认知，成年人的世界没有容易二字。',
      '关于{s}，过来人的一点经验：多问、多记、少抱怨。',
      '周一早上想到{s}的心情，懂的都懂。',
      '和前同事吃饭聊到{s}，大家都不容易。',
      '把{s}这件事想明白之后，焦虑少了很多。',
      '今年的{s}比去年更卷了，但日子还是要过。',
    ],
  },
  {
    id: 'fashion', name: '穿搭美妆', suffix: ['分享', '日记', '指南'],
    subjects: '穿搭 护肤 美妆 口红 防晒 通勤穿搭 小个子穿搭 发型 香水 平价好物 美甲 敏感肌 秋冬穿搭 配饰 极简风 古着 汉服 运动风 眼妆 身材管理',
    ask: ['{s}有哪些常见的误区？', '关于{s}有哪些值得分享的经验？', '如何看待{s}的流行？'],
    lines: [
      '今日{s}分享，整体偏温柔风，适合上班也适合约会。',
      '{s}这件事真的没有标准答案，适合自己最重要。',
      '最近入手的{s}，用了两周来交作业，优缺点都写在下面。',
      '被同事问了好几次{s}的链接，干脆发出来统一回答。',
      '换季了，{s}也要跟着调整，整理了几个小技巧。',
      '不踩雷的{s}清单更新啦，都是自己回购过的。',
    ],
  },
  {
    id: 'home', name: '家居生活', suffix: ['灵感', '日记', '技巧'],
    subjects: '装修 收纳 租房改造 家居好物 绿植 极简生活 断舍离 厨房改造 软装 小户型 阳台花园 清洁技巧 家电 北欧风 原木风 二手家具 独居 整理 香薰 床品',
    ask: ['{s}有哪些常见的误区？', '关于{s}有哪些值得分享的经验？', '有哪些关于{s}的冷知识？'],
    lines: [
      '花了一个周末搞{s}，虽然腰酸背痛，但看着焕然一新的房间很满足。',
      '{s}的快乐在于一点点把生活变成自己喜欢的样子。',
      '分享几个{s}的小心得，都是实践出来的。',
      '租房党也可以好好生活，{s}不需要花很多钱。',
      '最近在研究{s}，收藏夹已经爆了。',
      '今天的{s}进度：完成了一半，剩下的下周继续。',
    ],
  },
  {
    id: 'news', name: '时事体育', suffix: ['', '', '最新消息'],
    subjects: '航天 高铁 乡村振兴 天气 教育 养老 医保 交通 环保 国际新闻 军事 科技前沿 体育 中国女排 乒乓球 足球 国足 NBA 奥运会 城市发展',
    ask: ['如何看待{s}领域的最新进展？', '如何评价{s}？', '{s}的变化对普通人有什么影响？'],
    lines: [
      '关注{s}好多年了，这次的消息确实让人振奋。',
      '看了今天关于{s}的报道，有几点想法和大家聊聊。',
      '{s}这件事，评论区的声音很多元，理性讨论挺好的。',
      '家里老人也在聊{s}，看来这个话题是真的热。',
      '{s}方面的变化，普通人的感受最直接。',
      '每天早上刷一遍{s}的新闻，已经成了习惯。',
    ],
  },
];

const TOPIC_WEIGHTS = {
  weibo: { food: 2, travel: 2, tech: 1, games: 2, parenting: 1, fitness: 1, finance: 1, films: 3, books: 1, pets: 2, career: 2, fashion: 1, home: 1, news: 2 },
  xiaohongshu: { food: 3, travel: 3, tech: 1, games: 1, parenting: 2, fitness: 2, finance: 1, films: 1, books: 1, pets: 2, career: 1, fashion: 3, home: 3, news: 0 },
  toutiao: { food: 1, travel: 1, tech: 2, games: 1, parenting: 1, fitness: 1, finance: 3, films: 1, books: 1, pets: 1, career: 2, fashion: 0, home: 1, news: 4 },
  zhihu: { food: 1, travel: 1, tech: 3, games: 2, parenting: 1, fitness: 1, finance: 2, films: 1, books: 3, pets: 1, career: 3, fashion: 1, home: 1, news: 1 },
};
const SUFFIX_INDEX = { xiaohongshu: 0, weibo: 1, toutiao: 2 };

// Douban: genres of works; a tag is `动作:作品名`.
const DOUBAN_ACTIONS = {
  影视: { done: '看过影视', want: '想看影视', doing: '在看影视' },
  图书: { done: '读过图书', want: '想读图书', doing: '在读图书' },
  音乐: { done: '听过音乐', want: '想听音乐' },
  游戏: { done: '玩过游戏', want: '想玩游戏' },
};
const DOUBAN_GENRES = [
  { id: 'scifi_film', name: '科幻电影', medium: '影视', works: '流浪地球 星际穿越 银翼杀手2049 沙丘 降临 火星救援 黑客帝国 盗梦空间 阿凡达 湮灭 机械姬 头号玩家' },
  { id: 'classic_film', name: '华语经典电影', medium: '影视', works: '霸王别姬 活着 大话西游之大圣娶亲 阳光灿烂的日子 花样年华 无间道 让子弹飞 一一 饮食男女 甜蜜蜜 卧虎藏龙 鬼子来了' },
  { id: 'animation', name: '动画', medium: '影视', works: '千与千寻 龙猫 你的名字。 哪吒之魔童降世 大鱼海棠 寻梦环游记 疯狂动物城 机器人总动员 灌篮高手 进击的巨人 间谍过家家 排球少年' },
  { id: 'cn_series', name: '国产剧', medium: '影视', series: true, works: '漫长的季节 狂飙 隐秘的角落 父母爱情 琅琊榜 武林外传 甄嬛传 觉醒年代 人世间 沉默的真相 山海情 大江大河' },
  { id: 'us_series', name: '欧美剧', medium: '影视', series: true, works: '权力的游戏 绝命毒师 老友记 神探夏洛克 黑镜 切尔诺贝利 怪奇物语 继承之战 最后生还者 王冠' },
  { id: 'documentary', name: '纪录片', medium: '影视', series: true, works: '舌尖上的中国 地球脉动 我在故宫修文物 河西走廊 人生一串 风味人间 蓝色星球 航拍中国 但是还有书籍 宇宙时空之旅' },
  { id: 'literature', name: '文学小说', medium: '图书', works: '活着 百年孤独 平凡的世界 围城 白鹿原 红楼梦 我与地坛 许三观卖血记 兄弟 文城 边城 雪国 月亮与六便士' },
  { id: 'genre_fiction', name: '推理与科幻小说', medium: '图书', works: '三体 球状闪电 基地 白夜行 嫌疑人X的献身 恶意 东方快车谋杀案 无人生还 解忧杂货店 神经漫游者 献给阿尔吉侬的花束 沙丘' },
  { id: 'nonfiction', name: '社科历史', medium: '图书', works: '人类简史 万历十五年 乡土中国 置身事内 明朝那些事儿 被讨厌的勇气 蛤蟆先生去看心理医生 天朝的崩溃 枪炮、病菌与钢铁 非暴力沟通 原则 金字塔原理' },
  { id: 'cn_pop', name: '华语流行音乐', medium: '音乐', works: '范特西 叶惠美 七里香 十一月的萧邦 U87 唱游 寓言 认了吧 后青春期的诗 神的孩子都在跳舞' },
  { id: 'indie', name: '独立民谣摇滚', medium: '音乐', works: '万能青年旅店 冀西南林路行 梵高先生 安和桥北 无法长大 龙虎人丹 丑奴儿 如也 生命因你而火热' },
  { id: 'western_music', name: '欧美音乐', medium: '音乐', works: 'Abbey Road|OK Computer|Thriller|21|folklore|Random Access Memories|The Dark Side of the Moon|Nevermind|1989|Lover' },
  { id: 'games', name: '游戏', medium: '游戏', works: '艾尔登法环 双人成行 星露谷物语 空洞骑士 哈迪斯 荒野大镖客2 巫师3 塞尔达传说王国之泪 黑神话悟空 仙剑奇侠传 戴森球计划 文明6' },
];
const DOUBAN_REVIEWS = {
  影视: {
    done: ['看完《{w}》，{c}', '二刷《{w}》，{c}', '周末补了《{w}》，{c}'],
    want: ['被朋友安利了《{w}》，先标记。', '《{w}》已加入想看清单，等一个空闲的周末。'],
    doing: ['《{w}》追到一半，越看越上头。', '每晚睡前看一集《{w}》，快乐源泉。'],
    comments: ['节奏紧凑，配乐加分。', '后劲很大，久久不能平静。', '比预期好，但结尾有点仓促。', '剧本扎实，演员都在线。', '细节很多，值得反复看。', '个别情节有点拖沓，整体还是推荐。'],
  },
  图书: {
    done: ['读完《{w}》，{c}', '终于啃完了《{w}》，{c}'],
    want: ['书单里又多了一本《{w}》。', '在书店翻了几页《{w}》，决定下次买回家。'],
    doing: ['《{w}》读到一半，每天睡前读二十页。', '通勤路上在读《{w}》，慢慢来。'],
    comments: ['文字克制但很有力量。', '前半本有点慢，后面越读越快。', '划了很多线，值得反复读。', '读完之后很久说不出话。', '观点不一定都认同，但很有启发。'],
  },
  音乐: {
    done: ['循环了一整天《{w}》，{c}', '重温《{w}》，{c}'],
    want: ['听说《{w}》很好，先标记，周末慢慢听。'],
    comments: ['每一首都很耐听。', '歌词写得太好了。', '适合一个人走夜路的时候听。', '编曲很有层次感。'],
  },
  游戏: {
    done: ['通关《{w}》，{c}', '《{w}》玩了快一百小时，{c}'],
    want: ['《{w}》打折了，心动。', '看了好几个《{w}》的实况，想亲自玩一玩。'],
    comments: ['关卡设计太精妙了。', '剧情和玩法都很惊艳。', '难度不低，但成就感满满。', '美术风格独一份。'],
  },
};

// Platform-wide trending tags (D_viral is drawn from these, per target day).
const VIRAL = {
  weibo: '高考作文题 淄博烧烤 春晚 跨年 神舟十六号发射成功 杭州亚运会 中秋节 国庆假期 双十一 多巴胺穿搭 特种兵式旅游 哈尔滨冰雪大世界 酱香拿铁 显眼包 村超 五一假期 毕业季 考研成绩 世界读书日 520',
  xiaohongshu: '多巴胺穿搭 美拉德穿搭 citywalk 特种兵旅游 淄博烧烤 尔滨 松弛感 情绪价值 围炉煮茶 贵州村超 秋天的第一杯奶茶 年度总结 新年flag 春日限定 公园20分钟效应 一人食 早C晚A 搭子文化',
  toutiao: '神舟十七号 杭州亚运会 台风杜苏芮 高考 中国空间站 国产大飞机C919 新能源汽车下乡 延迟退休 个人养老金 乡村振兴战略 春运 全国两会 华为Mate60 房地产新政 养老金上调 北方暴雨 世界杯预选赛 淄博烧烤',
  zhihu: [
    '如何评价2023年高考全国卷作文题？', '如何看待淄博烧烤突然爆火？', '如何评价华为Mate60系列？', '如何看待今年的就业形势？',
    '如何评价电影《满江红》？', '如何评价游戏黑神话悟空的首发表现？', '如何看待年轻人开始攒钱？', '如何评价杭州亚运会开幕式？',
    '如何看待ChatGPT对程序员的影响？', '为什么今年考研人数下降了？', '如何看待哈尔滨冰雪旅游爆火？', '如何评价电视剧《繁花》？',
    '如何看待特种兵式旅游？', '如何评价苹果Vision Pro？', '如何看待延迟退休政策？', '如何评价电影《封神第一部》？',
  ],
  douban: [
    '看过影视:封神第一部', '看过影视:孤注一掷', '看过影视:满江红', '看过影视:流浪地球2', '想看影视:奥本海默', '看过影视:芭比',
    '在看影视:繁花', '想看影视:热辣滚烫', '看过影视:第二十条', '想读图书:我在北京送快递', '看过影视:坚如磐石', '看过影视:消失的她',
    '想看影视:周处除三害', '在看影视:我的阿勒泰', '读过图书:额尔古纳河右岸', '想读图书:长安的荔枝',
  ],
};

const CITIES = '北京 上海 广州 深圳 杭州 成都 武汉 西安 南京 重庆 长沙 厦门 苏州 天津 青岛 昆明'.split(' ');
const TRAITS = '90后 00后 打工人 宝妈 奶爸 程序员 设计师 在读研究生 自由职业者 小学老师 产品经理 退休教师 医学生 销售 公务员 大学生'.split(' ');
const WEIBO_TAILS = ['[哈哈]', '[doge]', '[允悲]', '[心]', '[笑cry]', '[二哈]', '', '', '', ''];
const WEIBO_REPOST = ['说得太对了', '同款经历', '哈哈哈哈哈哈', '码住', '+1', '转发微博'];
const XHS_HOOKS = ['真心推荐', '新手必看', '踩坑总结', '一周记录', '私藏清单', '超详细攻略', '亲测有效', '宝藏发现'];
const XHS_EMOJI = ['✨', '🌿', '📍', '💡', '🍀', '☀️', '🥹', '👀'];
const XHS_CLOSERS = ['有问题评论区问我～', '码住慢慢看！', '姐妹们冲！', '你们还有什么推荐吗？', ''];
const TOUTIAO_TITLES = ['{s}迎来新变化，这几点值得关注', '关于{s}，很多人都想错了', '{s}最新动态：专家这样解读', '聊聊{s}：普通人该怎么看', '{s}火了，背后的原因不简单', '一文看懂{s}'];
const TOUTIAO_CLOSERS = ['你怎么看？欢迎在评论区留言。', '大家有什么看法？', '关注我，了解更多。', ''];
const ZHIHU_OPENERS = ['谢邀。', '说几点个人看法。', '利益相关：资深爱好者。', '泻药，人在{city}，刚下班。', '这个问题我有发言权。', '不请自来。'];
const ZHIHU_MIDDLE = ['总的来说因人而异，适合自己最重要。', '我的建议是先想清楚自己的需求，再做决定。', '很多问题其实没有标准答案。', '这些都是亲身经历，不一定对，但都是真话。'];
const ZHIHU_CLOSERS = ['以上，仅供参考。', '码字不易，觉得有用可以点个赞。', '欢迎在评论区交流。', ''];
const PLATFORM_STYLE = {
  weibo: '发帖以短句和表情为主，常转发评论',
  xiaohongshu: '笔记偏分享种草，标题醒目',
  toutiao: '偏好资讯类内容，喜欢评论时事',
  zhihu: '回答篇幅较长，喜欢结合个人经验',
  douban: '经常标记作品并写短评',
};

// Placeholder sentences (the release's masking). Every category must occur somewhere in the sample.
const PH_POST = {
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
const PH_BIO = { SELF: '我是<SELF>｜', CONTACT: 'vx：<CONTACT>｜', EMAIL: '商务合作：<EMAIL>｜' };
const PH_CATEGORIES = Object.keys(PH_POST);

// ---------------------------------------------------------------------------------------------------------------
// Planted residual PI: what slipped through the release's masking, for the audit to find. Checked at startup.

const ID_NUMBER = '110105198805122136';
const BANK_NUMBER = '6222 0202 0012 3456 788';

function idChecksumOk(id) {
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  // ISO 7064 MOD 11-2
  let s = 0;
  for (let i = 0; i < 17; i++) s = ((s + Number(id[i])) * 2) % 11;
  return (12 - s) % 11 === (id[17] === 'X' ? 10 : Number(id[17]));
}

function luhnOk(number) {
  const digits = number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

const PLANTS = [
  { category: 'PHONE', platform: 'weibo', user: 3, step: 2, text: '13800138000', sentence: '二手自行车低价转让，九成新，有意的直接打我电话13800138000。' },
  { category: 'EMAIL', platform: 'xiaohongshu', user: 5, step: 0, text: 'huamao.studio@example.com', bio: '独立插画师｜约稿请发邮件 huamao.studio@example.com' },
  { category: 'ID', platform: 'toutiao', user: 4, step: 1, text: ID_NUMBER, sentence: `帮家里老人办社保卡，窗口说身份证号${ID_NUMBER}录错了一位，又跑了一趟。` },
  { category: 'BANK', platform: 'weibo', user: 6, step: 1, text: BANK_NUMBER, sentence: `小区流浪猫的绝育费用还差一点，愿意帮忙的可以转到我的银行卡号 ${BANK_NUMBER}，谢谢大家！` },
  { category: 'IP', platform: 'zhihu', user: 1, step: 2, text: '203.0.113.57', sentence: '家里的NAS终于能外网访问了，服务器地址203.0.113.57，默认端口已经改掉。' },
  { category: 'PLATE', platform: 'douban', user: 2, step: 1, text: '京A·3M7Q2', sentence: '看完电影出来发现车被别住了，京A·3M7Q2的车主能不能挪一下。' },
  { category: 'PLATE', platform: 'xiaohongshu', user: 7, step: 1, text: '沪AD12345', sentence: '提车啦！新车牌沪AD12345，绿牌就是香。' },
];

function assertPlants() {
  const fail = (m) => { throw new Error(`planted PI self-check failed: ${m}`); };
  if (!idChecksumOk(ID_NUMBER)) fail(`ID ${ID_NUMBER} has a wrong checksum`);
  if (idChecksumOk('110105198805122137')) fail('ID checksum accepts a wrong check digit');
  if (!luhnOk(BANK_NUMBER)) fail(`bank card ${BANK_NUMBER} fails Luhn`);
  if (luhnOk('6222 0202 0012 3456 787')) fail('Luhn accepts a wrong check digit');
  for (const p of PLANTS) if (!(p.sentence ?? p.bio).includes(p.text)) fail(`${p.category} text not in its sentence`);
}

// ---------------------------------------------------------------------------------------------------------------
// Vocabulary per platform

function formatTag(platform, word) {
  if (platform === 'weibo') return `#${word}#`;
  if (platform === 'xiaohongshu' || platform === 'toutiao') return `#${word}`;
  return word;
}

function buildVocab(platform) {
  const info = new Map(); // tag -> { topic, subject, medium?, kind?, viral? }
  const byTopic = new Map();
  const topics = [];
  const add = (tag, meta) => {
    if (info.has(tag)) return;
    info.set(tag, meta);
    byTopic.get(meta.topic).push(tag);
  };
  if (platform === 'douban') {
    for (const g of DOUBAN_GENRES) {
      topics.push({ id: g.id, name: g.name, weight: 1 });
      byTopic.set(g.id, []);
      const acts = DOUBAN_ACTIONS[g.medium];
      for (const work of g.works.split(g.works.includes('|') ? '|' : ' ')) {
        add(`${acts.done}:${work}`, { topic: g.id, subject: work, medium: g.medium, kind: 'done' });
        const other = g.series && fnv(work) % 2 === 0 ? 'doing' : 'want';
        add(`${acts[other]}:${work}`, { topic: g.id, subject: work, medium: g.medium, kind: other });
      }
    }
  } else {
    for (const t of TOPICS) {
      topics.push({ id: t.id, name: t.name, weight: TOPIC_WEIGHTS[platform][t.id] });
      byTopic.set(t.id, []);
      for (const s of t.subjects.split(' ')) {
        if (platform === 'zhihu') {
          const first = fnv(`zhihu|${s}`) % t.ask.length;
          add(t.ask[first].replace('{s}', s), { topic: t.id, subject: s });
          if (fnv(`zhihu2|${s}`) % 2 === 0) add(t.ask[(first + 1) % t.ask.length].replace('{s}', s), { topic: t.id, subject: s });
        } else {
          add(formatTag(platform, s), { topic: t.id, subject: s });
          const sfx = t.suffix[SUFFIX_INDEX[platform]];
          if (sfx && fnv(`${platform}|${s}`) % 2 === 0) add(formatTag(platform, s + sfx), { topic: t.id, subject: s });
        }
      }
    }
  }
  const rawViral = Array.isArray(VIRAL[platform]) ? VIRAL[platform] : VIRAL[platform].split(' ').map((w) => formatTag(platform, w));
  const viral = rawViral.filter((t) => !info.has(t));
  for (const t of viral) info.set(t, { topic: 'viral', subject: t, viral: true });
  const topicName = new Map(topics.map((t) => [t.id, t.name]));
  topicName.set('viral', '热点话题');
  return { platform, info, byTopic, topics, topicName, viral, viralSet: new Set(viral), all: [...info.keys()] };
}

// ---------------------------------------------------------------------------------------------------------------
// Plans: how many users, how many steps each, and the forced edge cases

function newSpec(scored) {
  return { scored, unscoredAt: 0, total: scored, events: new Map(), placeholders: [], plants: [] };
}

function setEvents(spec, events) {
  for (const [step, kinds] of Object.entries(events)) spec.events.set(Number(step), kinds);
}

function attachPlants(users, forcedPlaceholders) {
  for (const p of PLANTS) users[p.platform][p.user]?.plants.push(p);
  for (const ph of forcedPlaceholders) users[ph.platform][ph.user]?.placeholders.push(ph);
}

function planSample(seed) {
  const rng = new Rng(`${seed}|plan`);
  const users = {};
  for (const p of PLATFORMS) {
    users[p] = Array.from({ length: SAMPLE_USERS[p] }, () => newSpec(rng.weighted([1, 2, 3, 4, 5, 6, 7], [3, 3, 3, 2, 2, 1, 1])));
  }
  // Forced so that every edge case occurs in the small sample, whatever the seed.
  const force = (p, u, scored, unscoredAt, events) => {
    const s = (users[p][u] = newSpec(scored));
    s.unscoredAt = unscoredAt;
    s.total = scored + (unscoredAt ? 1 : 0);
    setEvents(s, events);
  };
  force('weibo', 0, 1, 0, {});
  force('weibo', 2, 4, 0, { 2: ['allKeep'], 3: ['dup'] });
  force('weibo', 3, 3, 0, {});
  force('xiaohongshu', 1, 7, 0, { 3: ['allNew'], 5: ['oop'], 6: ['error'] });
  force('toutiao', 0, 3, 0, { 1: ['more'], 2: ['allKeep'] });
  force('zhihu', 1, 3, 0, {});
  force('zhihu', 4, 4, 3, { 2: ['fewer'], 4: ['allNew'] });
  force('douban', 1, 5, 0, { 2: ['allNew'], 3: ['allKeep'], 4: ['oop'] });
  attachPlants(users, [
    { cat: 'SELF', platform: 'weibo', user: 1, step: 0 },
    { cat: 'CONTACT', platform: 'xiaohongshu', user: 0, step: 0 },
    { cat: 'EMAIL', platform: 'toutiao', user: 2, step: 0 },
    { cat: 'PHONE', platform: 'xiaohongshu', user: 4, step: 1 },
    { cat: 'ID', platform: 'toutiao', user: 1, step: 1 },
    { cat: 'BANK', platform: 'weibo', user: 4, step: 1 },
    { cat: 'PLATE', platform: 'weibo', user: 5, step: 1 },
    { cat: 'IP', platform: 'zhihu', user: 2, step: 1 },
    { cat: 'GEO', platform: 'xiaohongshu', user: 6, step: 1 },
    { cat: 'DEVICE', platform: 'zhihu', user: 3, step: 1 },
  ]);
  const rates = { posts: [2, 5], allKeep: 0.06, allNew: 0.06, phPost: 0.02, phBio: 0.05, dup: 0, oop: 0, more: 0, fewer: 0, error: 0 };
  return { users, rates };
}

/** Largest-remainder split of `total` in proportion to `weights`. */
function apportion(total, weights) {
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (total * w) / sum);
  const out = raw.map(Math.floor);
  const order = raw.map((r, i) => [r - Math.floor(r), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const missing = total - out.reduce((a, b) => a + b, 0);
  for (let k = 0; k < missing; k++) out[order[k][1]]++;
  return out;
}

function planPaper(seed) {
  const rng = new Rng(`${seed}|plan`);
  const stepWeights = PLATFORMS.map((p) => PAPER_STEPS[p]);
  const userCounts = apportion(PAPER_USERS, stepWeights);
  const singleCounts = apportion(PAPER_USERS - PAPER_MULTI, userCounts);
  const users = {};
  PLATFORMS.forEach((p, pi) => {
    const n = userCounts[pi];
    const singles = singleCounts[pi];
    const counts = Array.from({ length: n }, (_, i) => (i < singles ? 1 : 2));
    let extra = PAPER_STEPS[p] - singles - 2 * (n - singles);
    while (extra > 0) {
      const i = rng.int(singles, n - 1);
      if (counts[i] < 7) {
        counts[i]++;
        extra--;
      }
    }
    users[p] = rng.shuffle(counts).map((scored) => {
      const s = newSpec(scored);
      if (scored >= 2 && rng.chance(0.004)) {
        s.unscoredAt = rng.int(1, scored + 1);
        s.total = scored + 1;
      }
      return s;
    });
  });
  attachPlants(users, []);
  const rates = { posts: [4, 12], allKeep: 0.06, allNew: 0.06, phPost: 0.004, phBio: 0.01, dup: 0.01, oop: 0.015, more: 0.01, fewer: 0.01, error: 0.003 };
  return { users, rates };
}

// ---------------------------------------------------------------------------------------------------------------
// One user: interest trajectory -> windows of posts -> steps with pools

const DAY = 86400000;
const START = Date.UTC(2023, 0, 1);
const fmtDate = (ms) => new Date(ms).toISOString().slice(0, 10);

function makeBio(rng, profile, topicNames) {
  const r = rng.next();
  if (r < 0.12) return undefined; // field missing
  if (r < 0.26) return '';
  const [a, b] = topicNames;
  return rng.pick([
    `${profile.trait}｜${profile.city}｜${a}爱好者`,
    `在${profile.city}生活的${profile.trait}，记录${a}和${b ?? '日常'}。`,
    `${profile.trait}一枚，喜欢${a}，偶尔聊聊${b ?? '生活'}。`,
    `${profile.city} · ${profile.trait} · 慢慢来，比较快`,
    `一个普通的${profile.trait}，分享${a}日常。`,
  ]);
}

/** Chooses the anchors (ground-truth tags) of window j, plus an occasional extra tag that is used but not an anchor. */
function chooseWindowTags(rng, V, hist, active, fav, emerging, mode) {
  if (mode === 'none') return { anchors: [], extras: [] };
  let K = rng.weighted([1, 2, 3, 4, 5, 6, 7], [0.3, 3, 4, 4, 3, 2, 1]);
  const activeSet = new Set(active);
  let keepCand = [...hist.keys()].filter((t) => activeSet.has(V.info.get(t).topic));
  if (keepCand.length === 0 && mode === 'allKeep') keepCand = [...hist.keys()];
  let nKeep = mode === 'first' || mode === 'allNew' ? 0 : mode === 'allKeep' ? K : Math.round(K * rng.float(0.25, 0.75));
  nKeep = Math.min(nKeep, keepCand.length);
  if (mode === 'allKeep') K = nKeep;
  const keep = rng.weightedSample(keepCand, (t) => hist.get(t) + (fav.has(t) ? 3 : 0), nKeep);
  const fresh = active.flatMap((tp) => V.byTopic.get(tp)).filter((t) => !hist.has(t));
  const freshWeight = (t) => (fav.has(t) ? 4 : 0) + (V.info.get(t).topic === emerging ? 2 : 1);
  const news = rng.weightedSample(fresh, freshWeight, K - keep.length);
  const anchors = rng.shuffle([...keep, ...news]);
  const extras = [];
  if (mode !== 'first' && rng.chance(0.2)) {
    const cand = [...keepCand, ...fresh].filter((t) => !anchors.includes(t));
    if (cand.length) extras.push(rng.pick(cand));
  }
  return { anchors, extras };
}

function buildPool(rng, ctx, V, anchors, hist, recent, windowSet, dateTarget) {
  const meta = { T_keep: [], T_new: [], D_decay: [], D_cluster: [], D_viral: [], D_random: [] };
  for (const t of anchors) (hist.has(t) ? meta.T_keep : meta.T_new).push(t);
  const K = anchors.length;
  if (K === 0) return { meta, pool: [] };
  const used = new Set(windowSet);
  const take = (cands, n) => {
    const out = [];
    for (const t of rng.shuffle(cands)) {
      if (out.length >= n) break;
      if (used.has(t)) continue;
      used.add(t);
      out.push(t);
    }
    return out;
  };
  const nNeg = 3 * K;
  meta.D_decay = take([...recent].filter((t) => !windowSet.has(t)), Math.round(K * rng.float(0.4, 1.2)));
  const posTopics = new Set(anchors.map((t) => V.info.get(t).topic));
  const clusterCand = [...posTopics].flatMap((tp) => V.byTopic.get(tp) ?? []).filter((t) => !hist.has(t));
  meta.D_cluster = take(clusterCand, Math.min(nNeg - meta.D_decay.length, Math.round(K * rng.float(0.5, 1.1))));
  const viralCand = ctx.viralOn(V, dateTarget).filter((t) => !hist.has(t));
  const left = nNeg - meta.D_decay.length - meta.D_cluster.length;
  meta.D_viral = take(viralCand, Math.min(left, Math.round(K * rng.float(0.2, 0.8))));
  let need = left - meta.D_viral.length;
  for (let guard = 0; need > 0 && guard < 10000; guard++) {
    const t = rng.pick(V.all);
    if (used.has(t) || hist.has(t)) continue;
    used.add(t);
    meta.D_random.push(t);
    need--;
  }
  const pool = rng.shuffle(META_KEYS.flatMap((k) => meta[k]));
  return { meta, pool };
}

const fill = (tpl, vars) => tpl.replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? '');

function renderPost(rng, V, n, tags, fallback, extra, profile) {
  const platform = V.platform;
  const main = tags.length ? V.info.get(tags[0]) : fallback;
  const topic = TOPICS.find((t) => t.id === main.topic);
  const lines = [];
  const sentence = () => fill(rng.pick(topic.lines), { s: main.subject });
  const add = (label, value) => lines.push(`${label}: ${value}`);
  const addExtra = (s) => (extra ? `${s}${extra}` : s);
  if (platform === 'weibo') {
    if (rng.chance(0.15)) {
      add('Content', addExtra(rng.pick(WEIBO_REPOST)));
      add('Quote', sentence());
    } else {
      add('Content', addExtra(sentence() + rng.pick(WEIBO_TAILS)));
    }
  } else if (platform === 'xiaohongshu') {
    add('Title', `${main.subject}｜${rng.pick(XHS_HOOKS)}`);
    add('Content', addExtra(`${rng.pick(XHS_EMOJI)}${sentence()}${rng.pick(XHS_CLOSERS)}`));
  } else if (platform === 'toutiao') {
    add('Title', fill(rng.pick(TOUTIAO_TITLES), { s: main.subject }));
    add('Content', addExtra(sentence() + rng.pick(TOUTIAO_CLOSERS)));
  } else if (platform === 'zhihu') {
    if (tags.length) add('Title', tags[0]);
    const opener = fill(rng.pick(ZHIHU_OPENERS), { city: profile.city });
    add('Content', addExtra(opener + sentence() + rng.pick(ZHIHU_MIDDLE) + rng.pick(ZHIHU_CLOSERS)));
  } else {
    const bank = DOUBAN_REVIEWS[main.medium];
    const kind = main.kind === 'doing' && !bank.doing ? 'want' : main.kind;
    add('Title', `《${main.subject}》`);
    if (kind === 'done') add('Rating', '★'.repeat(rng.int(3, 5)).padEnd(5, '☆'));
    add('Content', addExtra(fill(rng.pick(bank[kind]), { w: main.subject, c: rng.pick(bank.comments) })));
  }
  if (tags.length) add('Tags', tags.join(platform === 'zhihu' || platform === 'douban' ? ', ' : ' '));
  lines[0] = `[${n}] ${lines[0]}`;
  return lines.join('\n');
}

/** Posts of one window. Every window tag is used at least once; tags the user uses often show up more often.
 * A Zhihu answer belongs to one question and a Douban post marks one work, so there each post carries one tag. */
function genPosts(rng, V, ctx, tags, hist, active, profile, inject) {
  const single = V.platform === 'zhihu' || V.platform === 'douban';
  const topicOf = (t) => V.info.get(t).topic;
  let P = rng.int(ctx.rates.posts[0], ctx.rates.posts[1]);
  if (single) P = Math.max(P, tags.length);
  // Sorted by topic and cut into contiguous chunks, so a post's tags mostly share a topic.
  const sorted = rng.shuffle(tags).sort((a, b) => (topicOf(a) < topicOf(b) ? -1 : topicOf(a) > topicOf(b) ? 1 : 0));
  let postTags = Array.from({ length: P }, () => []);
  sorted.forEach((t, i) => postTags[Math.floor((i * Math.min(P, sorted.length)) / sorted.length)].push(t));
  for (const pt of postTags) {
    if (tags.length && pt.length === 0) pt.push(rng.weightedSample(tags, (t) => (hist.get(t) ?? 0) + 1, 1)[0]);
    if (!single && pt.length < 3 && rng.chance(0.3)) {
      const more = rng.pick(tags.filter((t) => topicOf(t) === topicOf(pt[0]) && !pt.includes(t)).concat(tags.filter((t) => !pt.includes(t))).slice(0, 3));
      if (more) pt.push(more);
    }
  }
  postTags = rng.shuffle(postTags);
  const extras = Array.from({ length: P }, () => []);
  for (const s of inject) extras[rng.int(0, P - 1)].push(s);
  for (let i = 0; i < P; i++) if (rng.chance(ctx.rates.phPost)) extras[i].push(rng.pick(PH_POST[rng.pick(PH_CATEGORIES)]));
  const texts = [];
  const used = [];
  for (let i = 0; i < P; i++) {
    const fallback = V.info.get(rng.pick(V.byTopic.get(rng.pick(active))));
    texts.push(renderPost(rng, V, i + 1, postTags[i], fallback, extras[i].join(''), profile));
    used.push(...postTags[i]);
  }
  return { text: texts.join('\n\n'), count: P, tags: used };
}

function genUser(ctx, platform, idx, spec) {
  const V = ctx.vocab[platform];
  const rng = new Rng(`${ctx.seed}|user|${platform}|${idx}`);
  const userId = ctx.uniqueId(`${CODE[platform]}_`, `${ctx.seed}|uid|${platform}|${idx}`);
  const username = `U_${hexOf(`${ctx.seed}|uname|${platform}|${idx}`, 8)}`;
  const total = spec.total;
  const profile = { city: rng.pick(CITIES), trait: rng.pick(TRAITS) };

  // Interest trajectory: core topics persist, one may fade out, one may emerge later.
  const candidates = V.topics.filter((t) => t.weight > 0);
  const core = rng.weightedSample(candidates, (t) => t.weight, rng.int(2, 3)).map((t) => t.id);
  const others = candidates.filter((t) => !core.includes(t.id));
  const emerging = rng.chance(0.6) ? { topic: rng.weightedSample(others, (t) => t.weight, 1)[0].id, from: rng.int(2, total + 1) } : null;
  const fading = rng.chance(0.5) ? { topic: core[core.length - 1], until: rng.int(1, total) } : null;
  const activeAt = (j) => {
    const a = core.filter((t) => !(fading && t === fading.topic && j > fading.until));
    if (emerging && j >= emerging.from) a.push(emerging.topic);
    return a;
  };
  const fav = new Set();
  for (const tp of [...core, ...(emerging ? [emerging.topic] : [])]) {
    for (const t of rng.shuffle(V.byTopic.get(tp)).slice(0, rng.int(2, 4))) fav.add(t);
  }

  let bio = makeBio(rng, profile, core.map((t) => V.topicName.get(t)));
  const withPrefix = (prefix) => (bio ? prefix + bio : prefix.replace(/｜$/, ''));
  for (const ph of spec.placeholders.filter((x) => x.step === 0)) bio = withPrefix(PH_BIO[ph.cat]);
  if (bio !== undefined && rng.chance(ctx.rates.phBio)) bio = withPrefix(rng.pick(Object.values(PH_BIO)));
  const planted = [];
  for (const pl of spec.plants.filter((x) => x.step === 0)) {
    bio = pl.bio;
    planted.push({ category: pl.category, text: pl.text, stepId: null, field: 'bio' });
  }

  const injectFor = (step) => {
    const out = [];
    for (const ph of spec.placeholders) if (ph.step > 0 && Math.min(ph.step, total) === step) out.push(rng.pick(PH_POST[ph.cat]));
    for (const pl of spec.plants) {
      if (pl.step > 0 && Math.min(pl.step, total) === step) {
        out.push(pl.sentence);
        planted.push({ category: pl.category, text: pl.text, stepId: step, field: 'posts_text' });
      }
    }
    return out;
  };

  const hist = new Map();
  const winTags = [null];
  const dates = [null];
  const batches = [null]; // batches[n] = { text, count, tags }
  const tasks = [];
  const pools = [];
  let date = START + rng.int(0, 600) * DAY;
  for (let j = 1; j <= total + 1; j++) {
    dates[j] = fmtDate(date);
    date += rng.int(3, 21) * DAY;
    const step = j - 1;
    let mode = 'first';
    if (step >= 1) {
      const ev = spec.events.get(step) ?? [];
      if (step === spec.unscoredAt) mode = 'none';
      else if (ev.includes('allKeep')) mode = 'allKeep';
      else if (ev.includes('allNew')) mode = 'allNew';
      else mode = rng.chance(ctx.rates.allKeep) ? 'allKeep' : rng.chance(ctx.rates.allNew) ? 'allNew' : 'normal';
    }
    const active = activeAt(j);
    const { anchors, extras } = chooseWindowTags(rng, V, hist, active, fav, emerging?.topic, mode);
    const windowSet = new Set([...anchors, ...extras]);
    winTags[j] = windowSet;
    if (step >= 1) {
      const recent = new Set([...(winTags[step] ?? []), ...(winTags[step - 1] ?? [])]);
      const { meta, pool } = buildPool(rng, ctx, V, anchors, hist, recent, windowSet, dates[j]);
      pools.push({ meta, pool });
      tasks.push({
        step_id: step,
        total_steps: total,
        date_input: dates[step],
        date_target: dates[j],
        posts_text: batches[step].text,
        candidate_pool: pool,
        ground_truth: { all_tags: anchors.slice(), new_tags: meta.T_new.slice(), keep_tags: meta.T_keep.slice() },
        meta,
      });
    }
    if (j <= total) {
      const batch = genPosts(rng, V, ctx, [...windowSet], hist, active, profile, injectFor(j));
      batches[j] = batch;
      for (const t of batch.tags) hist.set(t, (hist.get(t) ?? 0) + 1);
    }
  }

  const record = { user_id: userId, platform, username };
  if (bio !== undefined) record.bio = bio;
  record.total_steps = total;
  record.prediction_tasks = tasks;
  const result = simulateModel(ctx, V, idx, spec, { userId, username, bio, profile }, tasks, batches);
  return {
    userId,
    line: JSON.stringify(record),
    resultLine: pyDumps(result),
    planted,
    steps: total,
    scored: tasks.filter((t) => t.meta.T_keep.length + t.meta.T_new.length > 0).length,
    posts: batches.reduce((s, b) => s + (b ? b.count : 0), 0),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The simulated model run (spec sections 2, 4, 5)

/** Python's round(): half to even. */
function roundHalfEven(x) {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}
const kForPool = (size) => Math.max(1, roundHalfEven(0.25 * size));

/** The seven metrics as the reference computes them; null when T_new and T_keep are both empty. */
function scoreStep(meta, prediction) {
  const G = [...meta.T_new, ...meta.T_keep];
  if (G.length === 0) return null;
  const picks = new Set(prediction.filter((p) => typeof p === 'string'));
  const rate = (tags) => {
    const set = new Set(tags);
    if (set.size === 0) return NaN;
    let hit = 0;
    for (const t of set) if (picks.has(t)) hit++;
    return hit / set.size;
  };
  return {
    Recall: rate(G),
    Recall_Novelty: rate(meta.T_new),
    Recall_Stability: rate(meta.T_keep),
    Error_Decay: rate(meta.D_decay),
    Error_Peer: rate(meta.D_cluster),
    Error_Viral: rate(meta.D_viral),
    Error_Random: rate(meta.D_random),
  };
}

/** A near-miss the model might return instead of a pool tag: a dropped `#`, a half-width `?`, a full-width colon. */
function mutateTag(platform, tag) {
  if (platform === 'weibo') return tag.replace(/#$/, '');
  if (platform === 'xiaohongshu' || platform === 'toutiao') return tag.replace(/^#/, '');
  if (platform === 'zhihu') return tag.replace(/？$/, '?');
  return tag.replace(':', '：');
}

const CLASS_WEIGHT = { T_keep: 0.9, T_new: 0.5, D_decay: 0.8, D_cluster: 0.4, D_viral: 0.3, D_random: 0.15 };
const ERRORS = [
  "Error: Expecting ',' delimiter: line 4 column 5 (char 187)",
  'Error: Request timed out.',
  'Error: Unterminated string starting at: line 3 column 18 (char 96)',
];

function joinTags(tags) {
  return tags.length > 3 ? `${tags.slice(0, 3).join('、')}等` : tags.join('、');
}

function simulateModel(ctx, V, idx, spec, user, tasks, batches) {
  const platform = V.platform;
  const rng = new Rng(`${ctx.seed}|model|${platform}|${idx}`);
  const rates = ctx.rates;
  const seen = new Map(); // tag -> uses in the batches the model has read
  const topicSteps = new Map(); // topic -> steps in which it appeared
  let prevLong = [];
  let persona = '';
  const identity = user.bio ? `自述为${user.profile.trait}` : '没有填写个人简介';
  const steps = [];
  for (const task of tasks) {
    const n = task.step_id;
    const batch = batches[n];
    const batchTopicCount = new Map();
    for (const t of batch.tags) {
      seen.set(t, (seen.get(t) ?? 0) + 1);
      const tp = V.info.get(t).topic;
      batchTopicCount.set(tp, (batchTopicCount.get(tp) ?? 0) + 1);
    }
    const batchTopics = [...batchTopicCount.entries()].sort((a, b) => b[1] - a[1]).map(([tp]) => tp);
    const newTopics = n > 1 ? batchTopics.filter((tp) => !topicSteps.has(tp) && tp !== 'viral') : [];
    for (const tp of batchTopics) topicSteps.set(tp, (topicSteps.get(tp) ?? 0) + 1);
    const long = [...topicSteps.entries()].filter(([tp, c]) => c >= 2 && tp !== 'viral').sort((a, b) => b[1] - a[1]).slice(0, 3).map(([tp]) => tp);
    const fading = prevLong.filter((tp) => !batchTopicCount.has(tp));
    prevLong = long;
    const name = (tps) => tps.map((tp) => V.topicName.get(tp)).join('、');
    const favTags = [...seen.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([t]) => t);
    const focus = long[0] ?? batchTopics[0];

    const ev = spec.events.get(n) ?? [];
    const k = kForPool(task.candidate_pool.length);
    const out = { step_id: n, prediction: [], ground_truth: [...task.ground_truth.new_tags, ...task.ground_truth.keep_tags], metrics: null, reasoning: '', persona_summary: '' };
    if (ev.includes('error') || rng.chance(rates.error)) {
      out.reasoning = rng.pick(ERRORS);
    } else {
      const viralChaser = rng.chance(0.12);
      const clsOf = new Map();
      for (const key of META_KEYS) for (const t of task.meta[key]) clsOf.set(t, key);
      const ranked = task.candidate_pool
        .map((t) => {
          const cls = clsOf.get(t);
          const w = cls === 'D_viral' && viralChaser ? 1.1 : CLASS_WEIGHT[cls];
          return { t, s: w * (0.15 + 0.85 * rng.next()) + (rng.chance(0.04) ? 0.6 : 0) }; // now and then a salient-looking tag wins anyway
        })
        .sort((a, b) => b.s - a.s)
        .map((x) => x.t);
      let picks = ranked.slice(0, k);
      const fail = (kind) => ev.includes(kind) || rng.chance(rates[kind]);
      if (picks.length > 0) {
        if (fail('dup')) picks[picks.length - 1] = picks[0];
        if (fail('oop')) {
          const i = rng.int(0, picks.length - 1);
          picks[i] = mutateTag(platform, picks[i]);
        }
        if (fail('more') && ranked.length > k) picks.push(ranked[k]);
        else if (fail('fewer')) picks = picks.length > 1 ? picks.slice(0, -1) : ranked.slice(0, k + 1);
      }
      out.prediction = picks;
      const fromHistory = picks.filter((t) => seen.has(t));
      const viral = picks.filter((t) => V.viralSet.has(t));
      const fresh = picks.filter((t) => !seen.has(t) && !V.viralSet.has(t));
      const why = [`本批次共${batch.count}条内容，主要涉及${name(batchTopics.filter((tp) => tp !== 'viral')) || '日常生活'}。`];
      if (task.candidate_pool.length === 0) why.push('候选池为空，没有可选的标签，本步不给出预测。');
      if (fromHistory.length) why.push(`${joinTags(fromHistory)}在已观察到的帖子中反复出现，判断会延续；`);
      if (fresh.length) why.push(`${joinTags(fresh)}属于${name([...new Set(fresh.map((t) => V.info.get(t)?.topic).filter((tp) => tp && tp !== 'viral'))]) || '相关'}方向，与画像相符，可能成为新的关注点；`);
      if (viral.length) why.push(`${joinTags(viral)}是平台近期的热点，用户可能参与讨论；`);
      if (picks.length) why.push(`综合以上判断选出${picks.length}个标签。`);
      out.reasoning = why.join('');
      const parts = [];
      if (!persona) {
        parts.push(`首次观察：${PLATFORM_NAME[platform]}用户${user.username}，${identity}。`);
        parts.push(`本批次内容集中在${name(batchTopics) || '日常生活'}，常用标签有${joinTags(favTags) || '（暂无）'}。`);
        parts.push(`${PLATFORM_STYLE[platform]}。暂无历史可比较，预计短期内仍会围绕${V.topicName.get(focus) ?? '日常生活'}发帖。`);
      } else {
        parts.push(`${PLATFORM_NAME[platform]}用户${user.username}，${identity}。`);
        parts.push(`长期兴趣：${name(long) || name(batchTopics) || '暂不明确'}。`);
        parts.push(newTopics.length ? `近期新出现对${name(newTopics)}的关注。` : '本阶段没有明显的新兴趣。');
        if (fading.length) parts.push(`对${name(fading)}的讨论明显减少。`);
        parts.push(`高频标签：${joinTags(favTags) || '（暂无）'}。${PLATFORM_STYLE[platform]}。`);
        parts.push(`预计下一阶段仍以${V.topicName.get(focus) ?? '日常生活'}为主${newTopics.length ? `，${V.topicName.get(newTopics[0])}可能继续升温` : ''}。`);
      }
      persona = parts.join('');
      out.persona_summary = persona;
    }
    out.metrics = scoreStep(task.meta, out.prediction);
    steps.push(out);
  }
  return { user_id: user.userId, platform, username: user.username, steps };
}

/** Python's repr() of a float, as json.dumps writes it (NaN and Infinity as bare tokens). */
function pyFloat(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  if (x !== 0 && Math.abs(x) < 1e-4) return x.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(x);
}

/** json.dumps(obj, ensure_ascii=False): ", " and ": " separators; numbers under `metrics` are floats. */
function pyDumps(v, floats = false) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return floats ? pyFloat(v) : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map((x) => pyDumps(x, floats)).join(', ')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${pyDumps(x, floats || k === 'metrics')}`).join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

// Users finish out of order: each result line waits in a small buffer of "in flight" requests and leaves at random.
const COMPLETION_WINDOW = 16;

function generate(opts) {
  assertPlants();
  const t0 = performance.now();
  const plan = opts.scale === 'paper' ? planPaper(opts.seed) : planSample(opts.seed);
  const vocab = Object.fromEntries(PLATFORMS.map((p) => [p, buildVocab(p)]));
  const viralCache = new Map();
  const ids = new Set();
  const ctx = {
    seed: opts.seed,
    rates: plan.rates,
    vocab,
    viralOn(V, date) {
      const key = `${V.platform}|${date}`;
      if (!viralCache.has(key)) viralCache.set(key, new Rng(`${opts.seed}|viral|${key}`).shuffle(V.viral).slice(0, 10));
      return viralCache.get(key);
    },
    uniqueId(prefix, key) {
      for (let i = 0; ; i++) {
        const id = prefix + hexOf(i ? `${key}#${i}` : key, 10);
        if (!ids.has(id)) {
          ids.add(id);
          return id;
        }
      }
    },
  };
  const dataDir = path.join(opts.out, 'data');
  const runDir = path.join(opts.out, 'results', RUN_NAME);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.mkdirSync(runDir, { recursive: true });
  const totals = { users: 0, steps: 0, scored: 0, posts: 0, bytes: 0 };
  const planted = [];
  const writeLine = (fd, line) => {
    const buf = Buffer.from(line + '\n', 'utf8');
    fs.writeSync(fd, buf);
    totals.bytes += buf.length;
  };
  for (const p of PLATFORMS) {
    const file = `data/${p}_inference_tasks.jsonl`;
    const dataFd = fs.openSync(path.join(opts.out, file), 'w');
    const runFd = fs.openSync(path.join(runDir, `inference_results_${p}.jsonl`), 'w');
    const orderRng = new Rng(`${opts.seed}|order|${p}`);
    const pending = [];
    const flushOne = () => {
      const i = orderRng.int(0, pending.length - 1);
      writeLine(runFd, pending[i]);
      pending[i] = pending[pending.length - 1];
      pending.pop();
    };
    plan.users[p].forEach((spec, idx) => {
      const u = genUser(ctx, p, idx, spec);
      writeLine(dataFd, u.line);
      for (const pl of u.planted) {
        planted.push({ category: pl.category, text: pl.text, file, line: idx + 1, userId: u.userId, stepId: pl.stepId, field: pl.field });
      }
      pending.push(u.resultLine);
      if (pending.length >= COMPLETION_WINDOW) flushOne();
      totals.users++;
      totals.steps += u.steps;
      totals.scored += u.scored;
      totals.posts += u.posts;
    });
    while (pending.length) flushOne();
    fs.closeSync(dataFd);
    fs.closeSync(runFd);
  }
  const manifest = JSON.stringify({ planted }, null, 2) + '\n';
  fs.writeFileSync(path.join(opts.out, 'pi-manifest.json'), manifest);
  totals.bytes += Buffer.byteLength(manifest);
  totals.seconds = (performance.now() - t0) / 1000;
  return totals;
}

function generatedFiles() {
  return [
    ...PLATFORMS.map((p) => `data/${p}_inference_tasks.jsonl`),
    ...PLATFORMS.map((p) => `results/${RUN_NAME}/inference_results_${p}.jsonl`),
    'pi-manifest.json',
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// --check

const TAG_FORM = {
  weibo: /^#[^#\s]+#$/,
  xiaohongshu: /^#[^#\s]+$/,
  toutiao: /^#[^#\s]+$/,
  zhihu: /^[^#,，;；|\n]+？$/,
  douban: /^(看过影视|想看影视|在看影视|读过图书|想读图书|在读图书|听过音乐|想听音乐|玩过游戏|想玩游戏):[^:：,，\n]+$/,
};
const splitTagLine = (platform, v) => (platform === 'weibo' ? v.match(/#[^#]+#/g) ?? [] : v.split(platform === 'zhihu' || platform === 'douban' ? ', ' : ' '));

const PI_PATTERNS = {
  PHONE: /(?<!\d)1[3-9]\d{9}(?!\d)/g,
  EMAIL: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g,
  ID: /(?<!\d)\d{17}[\dXx](?![\dA-Za-z])/g,
  BANK: /(?<!\d)\d{4}(?:[ -]?\d{4}){3}(?:[ -]?\d{1,3})?(?!\d)/g,
  IP: /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])/g,
  PLATE: /[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-HJ-NP-Z]·?[A-HJ-NP-Z0-9]{5,6}/g,
};

function parsePyJson(line) {
  return JSON.parse(line.replace(/: (NaN|-?Infinity)(?=[,}])/g, ': "$1"'), (_, v) => (v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v));
}

function sameMetric(a, b) {
  return (Number.isNaN(a) && Number.isNaN(b)) || a === b;
}

function verify(out, scale) {
  const errors = [];
  const err = (m) => errors.push(m);
  const c = { users: 0, multiUsers: 0, steps: 0, scored: 0, unscored: 0, posts: 0, newEmpty: 0, keepEmpty: 0, decayEmpty: 0, randomEmpty: 0, poolMin: Infinity, poolMax: 0 };
  const perPlatformScored = {};
  const manifest = JSON.parse(fs.readFileSync(path.join(out, 'pi-manifest.json'), 'utf8')).planted;
  const found = new Set();
  const placeholderHits = Object.fromEntries(PH_CATEGORIES.map((k) => [k, 0]));
  const metasByUser = new Map();

  for (const p of PLATFORMS) {
    const file = `data/${p}_inference_tasks.jsonl`;
    const lines = fs.readFileSync(path.join(out, file), 'utf8').split('\n');
    if (lines.pop() !== '') err(`${file}: no trailing newline`);
    perPlatformScored[p] = 0;
    lines.forEach((text, i) => {
      const line = i + 1;
      const at = `${file}:${line}`;
      if (/\\u[0-9a-fA-F]{4}/.test(text)) err(`${at}: \\u escape in the JSON`);
      const u = JSON.parse(text);
      const keys = Object.keys(u).join(',');
      if (keys !== 'user_id,platform,username,bio,total_steps,prediction_tasks' && keys !== 'user_id,platform,username,total_steps,prediction_tasks') err(`${at}: fields ${keys}`);
      if (!new RegExp(`^${CODE[p]}_[0-9a-f]{10}$`).test(u.user_id)) err(`${at}: user_id ${u.user_id}`);
      if (!/^U_[0-9a-f]{8}$/.test(u.username)) err(`${at}: username ${u.username}`);
      if (u.platform !== p) err(`${at}: platform ${u.platform}`);
      if (u.total_steps !== u.prediction_tasks.length) err(`${at}: total_steps ${u.total_steps} vs ${u.prediction_tasks.length}`);
      c.users++;
      const piScan = (s, field, stepId) => {
        for (const ph of PH_CATEGORIES) placeholderHits[ph] += s.split(`<${ph}>`).length - 1;
        for (const [cat, re] of Object.entries(PI_PATTERNS)) {
          for (const m of s.matchAll(re)) {
            if (cat === 'BANK' && !luhnOk(m[0])) continue;
            const hit = manifest.findIndex((x) => x.file === file && x.line === line && x.field === field && x.stepId === stepId && x.text.replace(/\s/g, '').includes(m[0].replace(/\s/g, '')));
            if (hit < 0) err(`${at}: unplanted ${cat}-like string ${m[0]} in ${field}`);
            else if (manifest[hit].text === m[0] || manifest[hit].category === cat) found.add(hit);
          }
        }
        manifest.forEach((x, mi) => {
          if (x.file === file && x.line === line && x.field === field && x.stepId === stepId && s.includes(x.text)) found.add(mi);
        });
      };
      if (u.bio !== undefined) piScan(u.bio, 'bio', null);
      const hist = new Set();
      const batchTags = [];
      let scoredHere = 0;
      const metas = [];
      u.prediction_tasks.forEach((t, si) => {
        const sat = `${at} step ${t.step_id}`;
        const tkeys = Object.keys(t).join(',');
        if (tkeys !== 'step_id,total_steps,date_input,date_target,posts_text,candidate_pool,ground_truth,meta') err(`${sat}: fields ${tkeys}`);
        if (t.step_id !== si + 1 || t.total_steps !== u.total_steps) err(`${sat}: step_id/total_steps`);
        if (!(t.date_input < t.date_target) || !/^\d{4}-\d{2}-\d{2}$/.test(t.date_target)) err(`${sat}: dates`);
        if (si > 0 && u.prediction_tasks[si - 1].date_target !== t.date_input) err(`${sat}: date chain`);
        // posts
        const blocks = t.posts_text.split('\n\n');
        const tagsHere = new Set();
        blocks.forEach((b, bi) => {
          if (!b.startsWith(`[${bi + 1}] `)) err(`${sat}: post ${bi + 1} does not start with [${bi + 1}]`);
          if (!/(^|\n)(\[\d+\] )?Content: ./.test(b)) err(`${sat}: post ${bi + 1} has no Content`);
          for (const l of b.split('\n')) {
            const m = /^(?:\[\d+\] )?Tags: (.*)$/.exec(l);
            if (!m) continue;
            for (const tag of splitTagLine(p, m[1])) {
              if (!TAG_FORM[p].test(tag)) err(`${sat}: tag form ${tag}`);
              tagsHere.add(tag);
            }
          }
        });
        c.posts += blocks.length;
        piScan(t.posts_text, 'posts_text', t.step_id);
        for (const tag of tagsHere) hist.add(tag);
        batchTags.push(tagsHere);
        // pool
        const m = t.meta;
        if (Object.keys(m).join(',') !== META_KEYS.join(',')) err(`${sat}: meta keys`);
        const all = META_KEYS.flatMap((k) => m[k]);
        const pool = new Set(t.candidate_pool);
        if (pool.size !== t.candidate_pool.length) err(`${sat}: duplicate in pool`);
        if (new Set(all).size !== all.length) err(`${sat}: meta lists not disjoint`);
        if (all.length !== pool.size || !all.every((x) => pool.has(x))) err(`${sat}: meta union != pool`);
        const pos = m.T_keep.length + m.T_new.length;
        if (pos * 4 !== pool.size) err(`${sat}: |C+| ${pos} is not 25% of |C| ${pool.size}`);
        for (const tag of t.candidate_pool) if (!TAG_FORM[p].test(tag)) err(`${sat}: pool tag form ${tag}`);
        const gt = t.ground_truth;
        if (gt.new_tags.join('|') !== m.T_new.join('|') || gt.keep_tags.join('|') !== m.T_keep.join('|')) err(`${sat}: ground_truth != meta`);
        if (new Set(gt.all_tags).size !== pos || !gt.all_tags.every((x) => m.T_new.includes(x) || m.T_keep.includes(x))) err(`${sat}: all_tags`);
        // trajectory semantics: keep = used before, new = never used, decay = recent, the rest unused
        if (!m.T_keep.every((x) => hist.has(x))) err(`${sat}: T_keep tag never used before`);
        if (m.T_new.some((x) => hist.has(x))) err(`${sat}: T_new tag used before`);
        const recent = new Set([...batchTags[si], ...(batchTags[si - 1] ?? [])]);
        if (!m.D_decay.every((x) => recent.has(x))) err(`${sat}: D_decay tag not in the recent batches`);
        for (const k of ['D_cluster', 'D_viral', 'D_random']) if (m[k].some((x) => hist.has(x))) err(`${sat}: ${k} tag used before`);
        c.steps++;
        if (pos === 0) c.unscored++;
        else {
          c.scored++;
          scoredHere++;
          if (m.T_new.length === 0) c.newEmpty++;
          if (m.T_keep.length === 0) c.keepEmpty++;
          if (m.D_decay.length === 0) c.decayEmpty++;
          if (m.D_random.length === 0) c.randomEmpty++;
          c.poolMin = Math.min(c.poolMin, pool.size);
          c.poolMax = Math.max(c.poolMax, pool.size);
        }
        metas.push({ meta: m, gt, pool: t.candidate_pool });
      });
      // positives of step n are tags of batch n+1
      u.prediction_tasks.forEach((t, si) => {
        if (si + 1 < batchTags.length && ![...t.meta.T_keep, ...t.meta.T_new].every((x) => batchTags[si + 1].has(x))) err(`${at} step ${t.step_id}: positive not used in the next batch`);
      });
      perPlatformScored[p] += scoredHere;
      if (scoredHere >= 2) c.multiUsers++;
      metasByUser.set(u.user_id, { p, metas, line });
    });
  }
  manifest.forEach((x, i) => {
    if (!found.has(i)) err(`manifest entry ${x.category} ${x.text} not found at ${x.file}:${x.line}`);
    if (x.category === 'ID' && !idChecksumOk(x.text)) err(`manifest ID ${x.text} has a wrong checksum`);
    if (x.category === 'BANK' && !luhnOk(x.text)) err(`manifest bank card ${x.text} fails Luhn`);
  });
  for (const cat of ['PHONE', 'EMAIL', 'ID', 'BANK', 'IP', 'PLATE']) {
    const n = manifest.filter((x) => x.category === cat).length;
    if (n < 1 || n > 2) err(`manifest has ${n} ${cat} entries (want 1 or 2)`);
  }
  for (const [ph, n] of Object.entries(placeholderHits)) if (n === 0) err(`placeholder <${ph}> never occurs`);
  if (c.newEmpty === 0 || c.keepEmpty === 0 || c.unscored === 0) err(`edge cases missing: T_new empty ${c.newEmpty}, T_keep empty ${c.keepEmpty}, unscored ${c.unscored}`);

  // the run
  const r = { lines: 0, nanTokens: 0, nullMetrics: 0, errors: 0, dup: 0, oop: 0, wrongCount: 0 };
  for (const p of PLATFORMS) {
    const file = `results/${RUN_NAME}/inference_results_${p}.jsonl`;
    const text = fs.readFileSync(path.join(out, file), 'utf8');
    r.nanTokens += (text.match(/: NaN[,}]/g) ?? []).length;
    const lines = text.split('\n');
    lines.pop();
    const order = [];
    lines.forEach((l, i) => {
      const at = `${file}:${i + 1}`;
      const res = parsePyJson(l);
      r.lines++;
      const user = metasByUser.get(res.user_id);
      if (!user || user.p !== p) return err(`${at}: unknown user ${res.user_id}`);
      order.push(user.line);
      if (res.steps.length !== user.metas.length) err(`${at}: ${res.steps.length} steps, data has ${user.metas.length}`);
      res.steps.forEach((s, si) => {
        const sat = `${at} step ${s.step_id}`;
        const { meta, gt, pool } = user.metas[si];
        if (Object.keys(s).join(',') !== 'step_id,prediction,ground_truth,metrics,reasoning,persona_summary') err(`${sat}: fields`);
        if (s.step_id !== si + 1) err(`${sat}: step_id`);
        if (s.ground_truth.join('|') !== [...gt.new_tags, ...gt.keep_tags].join('|')) err(`${sat}: ground_truth`);
        const want = scoreStep(meta, s.prediction);
        if (want === null) {
          r.nullMetrics++;
          if (s.metrics !== null) err(`${sat}: metrics should be null`);
        } else if (!s.metrics || !METRIC_KEYS.every((k) => sameMetric(s.metrics[k], want[k]))) err(`${sat}: metrics differ from the reference rules`);
        if (s.reasoning.startsWith('Error: ')) {
          r.errors++;
          if (s.prediction.length || s.persona_summary !== '') err(`${sat}: error record shape`);
          return;
        }
        if (!/[\u4e00-\u9fff]/.test(s.persona_summary) || !/[\u4e00-\u9fff]/.test(s.reasoning)) err(`${sat}: persona/reasoning not Chinese`);
        if (new Set(s.prediction).size !== s.prediction.length) r.dup++;
        if (s.prediction.some((x) => !pool.includes(x))) r.oop++;
        if (s.prediction.length !== kForPool(pool.length)) r.wrongCount++;
      });
    });
    if (order.length > 2 && order.every((x, i) => i === 0 || x > order[i - 1])) err(`${file}: results are in input order`);
  }
  if (r.lines !== c.users) err(`run has ${r.lines} lines for ${c.users} users`);
  if (!r.nanTokens || !r.nullMetrics || !r.errors || !r.dup || !r.oop || !r.wrongCount) err(`run edge cases missing: ${JSON.stringify(r)}`);

  const sizes = Object.fromEntries(generatedFiles().map((f) => [f, fs.statSync(path.join(out, f)).size]));
  const bytes = Object.values(sizes).reduce((a, b) => a + b, 0);
  if (scale === 'sample' && bytes >= 1024 * 1024) err(`sample is ${bytes} bytes (want < 1 MiB)`);
  if (scale === 'paper') {
    if (c.users !== PAPER_USERS) err(`users ${c.users} != ${PAPER_USERS}`);
    if (c.multiUsers !== PAPER_MULTI) err(`users with >=2 scored steps ${c.multiUsers} != ${PAPER_MULTI}`);
    for (const p of PLATFORMS) if (perPlatformScored[p] !== PAPER_STEPS[p]) err(`${p}: ${perPlatformScored[p]} scored steps != ${PAPER_STEPS[p]}`);
  }
  return { errors, counts: c, run: r, perPlatformScored, bytes, sizes, placeholderHits };
}

function check(opts) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gen-sample-'));
  try {
    generate({ ...opts, out: tmp });
    const stale = generatedFiles().filter((f) => {
      const a = path.join(opts.out, f);
      return !fs.existsSync(a) || !fs.readFileSync(a).equals(fs.readFileSync(path.join(tmp, f)));
    });
    if (stale.length) console.error(`not what --seed ${opts.seed} --scale ${opts.scale} generates: ${stale.join(', ')}`);
    const v = verify(opts.out, opts.scale);
    for (const e of v.errors.slice(0, 40)) console.error(`  ${e}`);
    if (v.errors.length > 40) console.error(`  ... and ${v.errors.length - 40} more`);
    console.log(JSON.stringify({ counts: v.counts, perPlatformScored: v.perPlatformScored, run: v.run, placeholders: v.placeholderHits, bytes: v.bytes, sizes: v.sizes }));
    const ok = stale.length === 0 && v.errors.length === 0;
    console.log(ok ? 'check: OK' : `check: FAILED (${v.errors.length} problems${stale.length ? ', output stale' : ''})`);
    return ok;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const o = { scale: 'sample', seed: DEFAULT_SEED, out: null, check: false };
  const fail = (m) => {
    console.error(`${m}\n${USAGE}`);
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === '--out') o.out = value();
    else if (flag === '--scale') o.scale = value();
    else if (flag === '--seed') o.seed = Number(value());
    else if (flag === '--check') o.check = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else fail(`unknown argument ${argv[i]}`);
  }
  if (o.scale !== 'sample' && o.scale !== 'paper') fail(`--scale must be sample or paper`);
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) fail('--seed must be a non-negative integer');
  o.out = path.resolve(o.out ?? path.join(ROOT, o.scale === 'paper' ? 'sample-paper' : 'sample'));
  return o;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.check) {
  process.exit(check(opts) ? 0 : 1);
} else {
  const t = generate(opts);
  const rel = path.relative(process.cwd(), opts.out) || '.';
  console.log(
    `gen-sample: scale=${opts.scale} seed=${opts.seed} users=${t.users} steps=${t.steps} (scored ${t.scored}) posts=${t.posts} ` +
      `bytes=${t.bytes} -> ${rel} in ${t.seconds.toFixed(2)}s`,
  );
}
