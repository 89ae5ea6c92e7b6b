// Names and sizes shared by the generator and --check.

export const PLATFORMS = ['weibo', 'xiaohongshu', 'toutiao', 'zhihu', 'douban'];
export const CODE = { weibo: 'we', xiaohongshu: 'xi', toutiao: 'to', zhihu: 'zh', douban: 'do' };
export const PLATFORM_NAME = {
  weibo: '微博',
  xiaohongshu: '小红书',
  toutiao: '今日头条',
  zhihu: '知乎',
  douban: '豆瓣',
};
export const META_KEYS = ['T_keep', 'T_new', 'D_decay', 'D_cluster', 'D_viral', 'D_random'];
export const METRIC_KEYS = [
  'Recall',
  'Recall_Novelty',
  'Recall_Stability',
  'Error_Decay',
  'Error_Peer',
  'Error_Viral',
  'Error_Random',
];
export const RUN_NAME = 'demo-llm';

// The paper's scale (spec section 7).
export const PAPER_STEPS = { weibo: 1862, xiaohongshu: 6625, toutiao: 2695, zhihu: 2912, douban: 1102 };
export const PAPER_USERS = 7451;
export const PAPER_MULTI = 5661;
export const SAMPLE_USERS = { weibo: 10, xiaohongshu: 12, toutiao: 10, zhihu: 10, douban: 8 };
