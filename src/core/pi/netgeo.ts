// IP addresses, MAC / MEID / advertising ids, and coordinate pairs.
import { classifyIpv4, classifyIpv6, parseIpv6 } from './checks';
import {
  DEVICE_WORDS,
  GEO_WORDS,
  IP_WORDS,
  VERSION_WORDS,
  distanceBefore,
  distanceTo,
  looksLikePrice,
} from './context';
import { collect, type Emit } from './emit';
import type { Candidate, Confidence } from './types';

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4_RE = new RegExp(`(?<![\\d.])(?:${OCTET}\\.){3}${OCTET}(?!\\d|\\.\\d)`, 'g');
// Runs of hex digits, colons and dots with at least two colons; trimmed and validated by parseIpv6.
const IPV6_RUN_RE = /[0-9A-Fa-f:.]+/g;

/**
 * The address inside a run: a label glued in front ("IPv6:2408:…", "IP:2001:…", where a full-width colon became ':')
 * is cut off at its colon; a sentence's trailing dot or colon is dropped. null when the run touches a word.
 */
function ipv6Span(text: string, start: number, raw: string): { start: number; raw: string } | null {
  let s = start;
  let r = raw;
  if (/[G-Zg-z_]/.test(text[s + r.length] ?? '')) return null;
  if (/[0-9A-Za-z_]/.test(text[s - 1] ?? '') || (r.startsWith(':') && !r.startsWith('::'))) {
    const cut = r.indexOf(':') + 1;
    if (r.startsWith('::', cut - 1) && cut > 1) return null;
    s += cut;
    r = r.slice(cut);
  }
  r = r.replace(/\.+$/, '');
  if (r.endsWith(':') && !r.endsWith('::')) r = r.slice(0, -1);
  return r.includes(':') ? { start: s, raw: r } : null;
}

function ips(text: string, lower: string, emit: Emit): void {
  for (const m of text.matchAll(IPV4_RE)) {
    const start = m.index;
    const end = start + m[0].length;
    if (/[vV]$/.test(text.slice(0, start))) continue; // v1.2.3.4
    const cls = classifyIpv4(m[0]);
    if (cls === 'none') continue;
    const ctx = distanceTo(lower, start, end, IP_WORDS, 12, 4);
    if (distanceBefore(lower, start, VERSION_WORDS, 16) < ctx) continue;
    const octets = m[0].split('.').map(Number);
    if (ctx === Infinity && octets.every((o) => o < 10)) continue; // 1.2.3.4: a section or version number
    if (cls === 'private') emit('IP', 'low', start, end, 'private (LAN) IPv4 address');
    else if (ctx === Infinity && octets[0] < 10) emit('IP', 'low', start, end, 'IPv4 address shape, no network word');
    else emit('IP', ctx < Infinity ? 'high' : 'medium', start, end, 'public IPv4 address');
  }
  for (const m of text.matchAll(IPV6_RUN_RE)) {
    if (m[0].indexOf(':') === m[0].lastIndexOf(':')) continue;
    const span = ipv6Span(text, m.index, m[0]);
    if (!span) continue;
    const { raw, start } = span;
    const groups = parseIpv6(raw);
    if (!groups) continue;
    const written = raw.split(/::?/).filter((g) => /^[0-9A-Fa-f]+$/.test(g));
    if (!raw.includes('.') && (written.length < 3 || !written.some((g) => g.length >= 3))) continue;
    const cls = classifyIpv6(groups);
    if (cls === 'none') continue;
    const end = start + raw.length;
    const ctx = distanceTo(lower, start, end, IP_WORDS, 12, 4);
    if (cls === 'private') emit('IP', 'low', start, end, 'link-local / unique-local IPv6 address');
    else emit('IP', ctx < Infinity ? 'high' : 'medium', start, end, 'IPv6 address');
  }
}

// Not the tail of a longer colon run, but "MAC:AC:DE:…" (a label glued by a full-width colon) is fine.
const MAC_RE =
  /(?<![0-9A-Za-z])(?<!(?<![0-9A-Za-z])[0-9A-Fa-f]{2}[:-])[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}(?![0-9A-Za-z]|[:-][0-9A-Fa-f])/g;
const CISCO_MAC_RE = /(?<![0-9A-Za-z.])[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}(?![0-9A-Za-z.])/g;
const MEID_RE = /(?<![0-9A-Za-z])[0-9A-Fa-f]{14}(?![0-9A-Za-z])/g;
const UUID_RE =
  /(?<![0-9A-Za-z-])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Za-z-])/g;
const AD_ID_WORDS = [
  'idfa',
  'oaid',
  'gaid',
  '设备id',
  'device id',
  'deviceid',
  '广告标识',
  'android id',
  'advertising id',
];

function devices(text: string, lower: string, emit: Emit): void {
  for (const m of text.matchAll(MAC_RE)) {
    const hex = m[0].replace(/[:-]/g, '').toLowerCase();
    if (hex === '000000000000' || hex === 'ffffffffffff') continue;
    const end = m.index + m[0].length;
    const ctx = distanceTo(lower, m.index, end, DEVICE_WORDS, 14, 4);
    if (ctx === Infinity && /^\d+$/.test(hex)) continue; // 20-24-01-05-12-30 is a timestamp more often than a MAC
    emit('DEVICE', ctx < Infinity ? 'high' : 'medium', m.index, end, 'MAC address');
  }
  for (const m of text.matchAll(CISCO_MAC_RE)) {
    const end = m.index + m[0].length;
    const ctx = distanceTo(lower, m.index, end, DEVICE_WORDS, 14, 4);
    if (ctx === Infinity && !/[A-Fa-f]/.test(m[0])) continue;
    emit('DEVICE', ctx < Infinity ? 'high' : 'medium', m.index, end, 'MAC address (dotted)');
  }
  for (const m of text.matchAll(MEID_RE)) {
    if (distanceBefore(lower, m.index, ['meid'], 8) < Infinity)
      emit('DEVICE', 'high', m.index, m.index + 14, 'MEID after "MEID"');
  }
  for (const m of text.matchAll(UUID_RE)) {
    const end = m.index + m[0].length;
    if (distanceTo(lower, m.index, end, AD_ID_WORDS, 14, 2) < Infinity) {
      emit('DEVICE', 'medium', m.index, end, 'advertising / device id next to IDFA / OAID / 设备ID');
    }
  }
}

// A coordinate: optional hemisphere or axis word, a number with decimals or degrees-minutes(-seconds), optional ° and
// hemisphere letter.
const ATOM_RE = new RegExp(
  '(?<![A-Za-z0-9.])(?:(北纬|南纬|东经|西经|(?<!经)纬度|经度|[Ll]at(?:itude)?|[Ll]ng|[Ll]on(?:g(?:itude)?)?|LAT|LNG|LON|[NSEW]) ?[:=]? ?)?' +
    "(-?\\d{1,3})(?:(\\.\\d+)|° ?(\\d{1,2})['′] ?(?:(\\d{1,2}(?:\\.\\d+)?)(?:[\"″]|'') ?)?)(°)? ?([NSEW](?![A-Za-z0-9]))?",
  'g',
);

interface Atom {
  start: number;
  end: number;
  value: number;
  decimals: number;
  axis: 'lat' | 'lon' | '';
  marked: boolean;
}

function axisOf(word: string | undefined): Atom['axis'] {
  if (!word) return '';
  return /^(?:北纬|南纬|纬度|[Ll]at|LAT|N|S)/.test(word) ? 'lat' : 'lon';
}

function atoms(text: string): Atom[] {
  const out: Atom[] = [];
  for (const m of text.matchAll(ATOM_RE)) {
    const [, pre, deg, frac, min, sec, degSign, post] = m;
    let value = Number(deg) + (frac ? Number(frac) : 0) * (deg.startsWith('-') ? -1 : 1);
    if (min !== undefined) value = Math.abs(Number(deg)) + Number(min) / 60 + (sec ? Number(sec) / 3600 : 0);
    if (/^(?:南纬|西经|S|W)$/.test(pre ?? '') || /^[SW]$/.test(post ?? '')) value = -Math.abs(value);
    const axis = axisOf(pre) || axisOf(post);
    // Leading spaces belong to the separator, not to the coordinate.
    const lead = m[0].length - m[0].trimStart().length;
    const body = m[0].trim();
    out.push({
      start: m.index + lead,
      end: m.index + lead + body.length,
      value,
      decimals: frac ? frac.length - 1 : min !== undefined ? 4 : 0,
      axis,
      marked: Boolean(pre || post || degSign || min !== undefined),
    });
  }
  return out;
}

const CHINA = (lat: number, lon: number) => lat >= 3 && lat <= 54 && lon >= 73 && lon <= 136;

function coordinates(text: string, lower: string, emit: Emit): void {
  const list = atoms(text);
  for (let k = 0; k + 1 < list.length; k++) {
    const a = list[k];
    const b = list[k + 1];
    const gap = text.slice(a.end, b.start);
    if (gap.length > 4 || !/^ {0,2}[,;/、]? {0,2}$/.test(gap)) continue;
    const marked = a.marked || b.marked;
    if (a.decimals === 0 || b.decimals === 0) continue;
    const ctx = distanceTo(lower, a.start, b.end, GEO_WORDS, 12, 4);
    // Without marks, a pair needs 4 decimals (or 2 next to 坐标 / GPS …) and not two small numbers (π, e).
    const need = ctx < Infinity ? 2 : 4;
    if (!marked && (a.decimals < need || b.decimals < need || (Math.abs(a.value) < 10 && Math.abs(b.value) < 10)))
      continue;
    let lat = a.value;
    let lon = b.value;
    if (a.axis === 'lon' || b.axis === 'lat' || (!a.axis && !b.axis && Math.abs(a.value) > 90))
      [lat, lon] = [b.value, a.value];
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) continue;
    if (looksLikePrice(lower, a.start, b.end)) continue;
    const conf: Confidence = marked || ctx < Infinity ? 'high' : CHINA(lat, lon) ? 'medium' : 'low';
    emit(
      'GEO',
      conf,
      a.start,
      b.end,
      marked ? 'coordinate pair with degree / hemisphere marks' : 'latitude / longitude pair',
    );
    k++;
  }
}

// Cheap tests that skip a detector on the many texts that cannot hold its pattern.
const MAY_IP = /\d\.\d{1,3}\.\d|[0-9A-Fa-f]:[0-9A-Fa-f:]*:|::/;
const MAY_DEVICE =
  /[0-9A-Fa-f]{2}[:-][0-9A-Fa-f]{2}[:-]|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.|[0-9A-Fa-f]{14}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-/;
const MAY_GEO = /\d\.\d\d|\d°/;

export function netGeoCandidates(text: string, lower: string): Candidate[] {
  return collect((emit) => {
    if (MAY_IP.test(text)) ips(text, lower, emit);
    if (MAY_DEVICE.test(text)) devices(text, lower, emit);
    if (MAY_GEO.test(text)) coordinates(text, lower, emit);
  });
}
