// Per-platform context for the prompt (in the spirit of the paper's Table 15; the wording here is our own).
import { isPlatform, type Platform } from '../types';

export interface PlatformContext {
  platform: Platform | null;
  /** Shown to the model, e.g. "Weibo (微博)". */
  name: string;
  description: string;
  /** What one candidate tag stands for on this platform. */
  tagMeaning: string;
  /** Where to look when reading this platform's posts. */
  analysisHint: string;
  /** A made-up tag in the platform's format, for documentation and hovers. */
  tagExample: string;
}

export const PLATFORM_CONTEXT: Record<Platform, PlatformContext> = {
  weibo: {
    platform: 'weibo',
    name: 'Weibo (微博)',
    description:
      'A Chinese microblogging platform for short public posts, reposts and comments on news, celebrities, ' +
      'entertainment and everyday life; trending topics move fast.',
    tagMeaning:
      'A tag is a Weibo topic written between two hash marks, like #话题#. Posting under a topic means the user ' +
      'joined the public discussion of that topic.',
    analysisHint:
      'Separate lasting interests (fandoms, followed teams, hobbies, profession) from one-off reactions to ' +
      'trending events; a reposted hot topic says less about the user than a topic they return to.',
    tagExample: '#周末去哪儿#',
  },
  xiaohongshu: {
    platform: 'xiaohongshu',
    name: 'Xiaohongshu (小红书, RED)',
    description:
      'A lifestyle sharing platform of illustrated notes: beauty, fashion, travel, food, parenting, study and ' +
      'shopping experiences, often written as recommendations or guides.',
    tagMeaning:
      'A tag is a topic label starting with one hash mark, like #话题. Authors attach several to each note to ' +
      'file it under themes and reach readers browsing those themes.',
    analysisHint:
      'Look at what the user makes, buys, visits and learns; life stage (student, new parent, new job) and ' +
      'location drive which themes come next. Broad tags recur, specific ones reveal the current project.',
    tagExample: '#通勤穿搭',
  },
  toutiao: {
    platform: 'toutiao',
    name: 'Toutiao (今日头条)',
    description:
      'A news and content feed where users publish articles, micro-posts and commentary on current affairs, ' +
      'society, finance, sports, health and local news.',
    tagMeaning:
      'A tag is a topic label starting with one hash mark, like #话题, marking the subject a post takes part in.',
    analysisHint:
      'Identify the domains the user comments on regularly (a region, an industry, a sport, investing, health) ' +
      'and their stance; news-driven one-off topics are weaker evidence than recurring beats.',
    tagExample: '#本地新闻',
  },
  zhihu: {
    platform: 'zhihu',
    name: 'Zhihu (知乎)',
    description:
      'A question-and-answer community where users write long answers and articles on science, technology, ' +
      'careers, education, society and personal experience.',
    tagMeaning:
      'A tag is the full title of a question the user answered or engaged with, e.g. 如何评价某某新书？ ' +
      'Predicting it means predicting which question the user will take up.',
    analysisHint:
      "Infer the user's expertise and recurring concerns (field of study, job, city, life decisions); questions " +
      'close to their expertise or current situation are the likely next ones.',
    tagExample: '刚入职的程序员应该如何规划第一年？',
  },
  douban: {
    platform: 'douban',
    name: 'Douban (豆瓣)',
    description:
      'A culture and taste community where users mark, rate and review films, TV series, books and music, ' +
      'and join interest groups.',
    tagMeaning:
      'A tag is an action on a work, written 动作:作品名, e.g. 看过影视:片名 (watched), 想读图书:书名 (wants to read). ' +
      'Predicting it means predicting what the user will mark next.',
    analysisHint:
      "Follow the user's taste: genres, directors, authors, series and eras, and the gap between wishes " +
      '(想看, 想读) and completions (看过, 读过); wished-for works are likely to be completed later.',
    tagExample: '想读图书:某本小说',
  },
};

/** The context for a platform; an unknown platform gets a neutral entry instead of an error. */
export function platformContext(platform: string): PlatformContext {
  if (isPlatform(platform)) return PLATFORM_CONTEXT[platform];
  const name = String(platform ?? '').trim() || 'an unknown platform';
  return {
    platform: null,
    name,
    description: `A social platform (${name}) on which users publish posts with tags.`,
    tagMeaning: 'A tag is a label attached to a post, in the format used by the candidate list.',
    analysisHint: "Separate the user's lasting interests from one-off topics, and watch for new directions.",
    tagExample: '#topic',
  };
}
