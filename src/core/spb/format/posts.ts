// Splits the release's pre-rendered `posts_text` into posts with labelled lines. Keeps the raw text as a fallback.

export interface PostField {
  label: string;
  value: string;
}

export interface Post {
  /** The number in `[n]`. */
  index: number;
  fields: PostField[];
  /** `Content:` value (joined when repeated), '' when absent. */
  content: string;
  /** Tags from `Tags:` lines. */
  tags: string[];
}

export interface ParsedPosts {
  posts: Post[];
  raw: string;
  /** false when the text did not have the expected `[n]` shape; show `raw` then. */
  ok: boolean;
}

const POST_START = /^\s*\[(\d+)\]\s?(.*)$/;
const LABELLED = /^\s*([A-Za-z][A-Za-z _-]{0,30}|[\u4e00-\u9fff]{1,8})\s*[:：]\s?(.*)$/;

/**
 * Tags in a `Tags:` value: `#话题#` (Weibo), `#话题` (Xiaohongshu, Toutiao), or values separated by ASCII `,` `;` `|`.
 * Chinese punctuation is not a separator: Zhihu tags are whole question titles.
 */
export function splitTags(value: string): string[] {
  const out: string[] = [];
  for (const part of value.split(/\s*[,;|]\s*/)) {
    const p = part.trim();
    if (p === '') continue;
    if (/^(#[^#]+#\s*)+$/.test(p)) out.push(...(p.match(/#[^#]+#/g) ?? []));
    else if (p.startsWith('#')) out.push(...p.split(/\s+(?=#)/));
    else out.push(p);
  }
  return out;
}

export function parsePosts(text: string): ParsedPosts {
  const posts: Post[] = [];
  let current: Post | null = null;
  let lastField: PostField | null = null;
  for (const line of text.split(/\r?\n/)) {
    const start = POST_START.exec(line);
    if (start) {
      current = { index: Number(start[1]), fields: [], content: '', tags: [] };
      posts.push(current);
      lastField = null;
      const rest = start[2];
      if (rest.trim() !== '') lastField = addLine(current, rest, null);
      continue;
    }
    if (!current) {
      if (line.trim() === '') continue;
      return { posts: [], raw: text, ok: false };
    }
    if (line.trim() === '') continue;
    lastField = addLine(current, line, lastField);
  }
  for (const p of posts) {
    p.content = p.fields
      .filter((f) => /^content$/i.test(f.label))
      .map((f) => f.value)
      .join('\n');
    p.tags = p.fields.filter((f) => /^tags?$/i.test(f.label)).flatMap((f) => splitTags(f.value));
  }
  return { posts, raw: text, ok: posts.length > 0 };
}

function addLine(post: Post, line: string, lastField: PostField | null): PostField {
  const m = LABELLED.exec(line);
  if (m) {
    const field = { label: m[1].trim(), value: m[2] };
    post.fields.push(field);
    return field;
  }
  // A continuation of a multi-line value (or text before any label).
  if (lastField) {
    lastField.value += '\n' + line;
    return lastField;
  }
  const field = { label: 'Content', value: line.trim() };
  post.fields.push(field);
  return field;
}
