import { describe, expect, it } from 'vitest';
import { parsePosts, splitTags } from '../../src/core/spb/format/posts';

describe('parsePosts', () => {
  it('splits numbered posts with labelled lines and multi-line values', () => {
    const text =
      '[1] Content: 今天去了西湖\n风景很好\nTags: #杭州旅行# #西湖#\n[2] Title: 周末\nContent: 在家做饭\nTags: #家常菜, #周末';
    const parsed = parsePosts(text);
    expect(parsed.ok).toBe(true);
    expect(parsed.posts.map((p) => p.index)).toEqual([1, 2]);
    expect(parsed.posts[0].content).toBe('今天去了西湖\n风景很好');
    expect(parsed.posts[0].tags).toEqual(['#杭州旅行#', '#西湖#']);
    expect(parsed.posts[1].fields.map((f) => f.label)).toEqual(['Title', 'Content', 'Tags']);
    expect(parsed.posts[1].tags).toEqual(['#家常菜', '#周末']);
  });
  it('keeps the raw text when the shape is unexpected', () => {
    const parsed = parsePosts('just some text without numbering');
    expect(parsed.ok).toBe(false);
    expect(parsed.raw).toBe('just some text without numbering');
    expect(parsed.posts).toEqual([]);
  });
  it('splits the platform tag forms', () => {
    expect(splitTags('#a# #b#')).toEqual(['#a#', '#b#']);
    expect(splitTags('#a #b')).toEqual(['#a', '#b']);
    expect(splitTags('看过影视:霸王别姬, 想读图书:活着')).toEqual(['看过影视:霸王别姬', '想读图书:活着']);
    expect(splitTags('')).toEqual([]);
  });
});
