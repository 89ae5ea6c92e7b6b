// Checksums and value checks behind the detectors: Luhn, the resident ID's ISO 7064 MOD 11-2, HKID, IP ranges.

/** Luhn (mod 10) over a string of ASCII digits; false for anything else. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

// Issuer identification numbers (the leading digits of a card number, ISO/IEC 7812) with the lengths each scheme issues.
// Only schemes whose prefix and length together are specific enough to report a Luhn-valid number with no banking word
// (the way Presidio's credit-card recognizer and Google DLP do): UnionPay 62 (16-19), Visa 4 (16; 13 is retired, 19 is
// rare and collides with long order numbers), Mastercard 51-55 and 2221-2720 (16), American Express 34 / 37 (15),
// JCB 3528-3589 (16-19).
const CARD_ISSUERS: readonly { name: string; prefix: RegExp; lengths: readonly number[] }[] = [
  { name: 'UnionPay', prefix: /^62/, lengths: [16, 17, 18, 19] },
  { name: 'Visa', prefix: /^4/, lengths: [16] },
  { name: 'Mastercard', prefix: /^(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, lengths: [16] },
  { name: 'American Express', prefix: /^3[47]/, lengths: [15] },
  { name: 'JCB', prefix: /^35(?:2[89]|[3-8]\d)/, lengths: [16, 17, 18, 19] },
];

/** The card scheme whose issuer prefix and length fit `digits` (Luhn not checked); '' when none does. */
export function cardIssuer(digits: string): string {
  if (!/^\d+$/.test(digits)) return '';
  return CARD_ISSUERS.find((c) => c.prefix.test(digits) && c.lengths.includes(digits.length))?.name ?? '';
}

// The first two digits of an IMEI's Type Allocation Code are the Reporting Body Identifier of the body that allocated it
// (GSMA TS.06, "IMEI Allocation and Approval Process"). Most TACs in use come from 35 (BABT, allocating for the GSMA) or
// 86 (TAF, China); 01 (PTCRB / CTIA, North America) and 99 (GHA, multi-mode 3GPP2 devices) hold most of the rest. A
// plausible TAC is one of those four followed by six digits that are not all zero.
const TAC_RBI = /^(?:01|35|86|99)(?!0{6})\d{6}/;

/** A 15-digit number whose TAC has a common reporting-body identifier and whose Luhn check digit fits. */
export function plausibleImei(digits: string): boolean {
  return /^\d{15}$/.test(digits) && TAC_RBI.test(digits) && luhnValid(digits);
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** The ISO 7064 MOD 11-2 check character for the first 17 digits of a resident ID; '' when not 17 digits. */
export function residentIdCheckChar(first17: string): string {
  if (!/^\d{17}$/.test(first17)) return '';
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (first17.charCodeAt(i) - 48) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

// Province-level codes (first two digits), 81-83 for the HK / Macau / Taiwan residence permits.
const REGIONS = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61, 62, 63,
  64, 65, 71, 81, 82, 83,
]);

export function plausibleRegion(code: string): boolean {
  return REGIONS.has(Number(code.slice(0, 2)));
}

/** A real calendar date between 1900-01-01 and `now`. */
export function plausibleBirthDate(year: number, month: number, day: number, now: Date = new Date()): boolean {
  if (!Number.isInteger(year) || year < 1900 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  return date.getTime() <= now.getTime();
}

export type IdCheck = 'valid' | 'bad-checksum' | 'bad-date' | 'bad-region' | 'bad-format';

/** Checks an 18-character resident ID (digits, last one may be X/x). */
export function checkResidentId(id: string, now: Date = new Date()): IdCheck {
  if (!/^\d{17}[\dXx]$/.test(id)) return 'bad-format';
  if (!plausibleRegion(id)) return 'bad-region';
  if (!plausibleBirthDate(Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14)), now))
    return 'bad-date';
  return residentIdCheckChar(id.slice(0, 17)) === id[17].toUpperCase() ? 'valid' : 'bad-checksum';
}

export function isValidResidentId(id: string, now: Date = new Date()): boolean {
  return checkResidentId(id, now) === 'valid';
}

/** Region and birth date of an 18-digit resident ID fit (the check character is not looked at). */
export function plausibleNewId(id: string, now: Date = new Date()): boolean {
  if (!/^\d{17}[\dXx]$/.test(id) || !plausibleRegion(id)) return false;
  return plausibleBirthDate(Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14)), now);
}

/** The pre-1999 15-digit ID: region, YYMMDD (19YY), sequence; it has no check digit. */
export function plausibleOldId(id: string): boolean {
  if (!/^\d{15}$/.test(id) || !plausibleRegion(id)) return false;
  return plausibleBirthDate(1900 + Number(id.slice(6, 8)), Number(id.slice(8, 10)), Number(id.slice(10, 12)));
}

/** HKID: one or two letters, six digits, a check character (0-9 or A); weights 9..2 with a padding space as 36. */
export function hkidValid(letters: string, digits: string, check: string): boolean {
  if (!/^[A-Z]{1,2}$/.test(letters) || !/^\d{6}$/.test(digits) || !/^[0-9A]$/.test(check)) return false;
  const chars = (letters.length === 1 ? ' ' : '') + letters + digits;
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const c = chars[i];
    const v = c === ' ' ? 36 : c >= 'A' && c <= 'Z' ? c.charCodeAt(0) - 55 : c.charCodeAt(0) - 48;
    sum += v * (9 - i);
  }
  const value = check === 'A' ? 10 : Number(check);
  return (sum + value) % 11 === 0;
}

export type IpClass = 'public' | 'private' | 'none';

// Public resolvers and special addresses: they identify nobody.
const NON_PERSONAL_V4 = new Set([
  '0.0.0.0',
  '127.0.0.1',
  '255.255.255.255',
  '8.8.8.8',
  '8.8.4.4',
  '1.1.1.1',
  '1.0.0.1',
  '9.9.9.9',
  '114.114.114.114',
  '114.114.115.115',
  '223.5.5.5',
  '223.6.6.6',
  '119.29.29.29',
  '180.76.76.76',
  '208.67.222.222',
  '208.67.220.220',
]);

/** Octets already range-checked by the pattern. */
export function classifyIpv4(ip: string): IpClass {
  if (NON_PERSONAL_V4.has(ip)) return 'none';
  const [a, b] = ip.split('.').map(Number);
  if (a === 0 || a === 127 || a >= 224) return 'none'; // this-network, loopback, multicast, reserved, netmasks
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254))
    return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT
  return 'public';
}

/** Parses an IPv6 text form into its eight groups; null when it is not one. */
export function parseIpv6(text: string): number[] | null {
  let s = text;
  const tail: number[] = [];
  const v4 = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4) {
    const octets = v4[2].split('.').map(Number);
    if (octets.some((o) => o > 255)) return null;
    tail.push(octets[0] * 256 + octets[1], octets[2] * 256 + octets[3]);
    s = v4[1].endsWith('::') ? v4[1] : v4[1].slice(0, -1);
  }
  const parts = s.split('::');
  if (parts.length > 2) return null;
  const parse = (p: string): number[] | null => {
    if (p === '') return [];
    const groups = p.split(':');
    if (groups.some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g))) return null;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = parse(parts[0]);
  const rest = parts.length === 2 ? parse(parts[1]) : [];
  if (!head || !rest) return null;
  const total = head.length + rest.length + tail.length;
  if (parts.length === 1) return total === 8 ? [...head, ...tail] : null;
  if (total > 7) return null;
  return [...head, ...new Array<number>(8 - total).fill(0), ...rest, ...tail];
}

export function classifyIpv6(groups: readonly number[]): IpClass {
  if (groups.slice(0, 7).every((g) => g === 0)) return 'none'; // :: and ::1
  const first = groups[0];
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80) return 'private'; // ULA, link-local
  if ((first & 0xff00) === 0xff00) return 'none'; // multicast
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return 'private'; // IPv4-mapped
  return 'public';
}
