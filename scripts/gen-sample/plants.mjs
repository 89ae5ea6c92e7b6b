// Planted residual PI: what slipped through the release's masking, for the audit to find. Checked at startup.

const ID_NUMBER = '110105198805122136';
const BANK_NUMBER = '6222 0202 0012 3456 788';

// Rough shapes of each category, for the --check scans that every PI-like string is a planted one.
export const PI_PATTERNS = {
  PHONE: /(?<!\d)1[3-9]\d{9}(?!\d)/g,
  EMAIL: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g,
  ID: /(?<!\d)\d{17}[\dXx](?![\dA-Za-z])/g,
  BANK: /(?<!\d)\d{4}(?:[ -]?\d{4}){3}(?:[ -]?\d{1,3})?(?!\d)/g,
  IP: /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])/g,
  PLATE: /[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-HJ-NP-Z]·?[A-HJ-NP-Z0-9]{5,6}/g,
};

export function idChecksumOk(id) {
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  // ISO 7064 MOD 11-2
  let s = 0;
  for (let i = 0; i < 17; i++) s = ((s + Number(id[i])) * 2) % 11;
  return (12 - s) % 11 === (id[17] === 'X' ? 10 : Number(id[17]));
}

export function luhnOk(number) {
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

export const PLANTS = [
  {
    category: 'PHONE',
    platform: 'weibo',
    user: 3,
    step: 2,
    text: '13800138000',
    sentence: '二手自行车低价转让，九成新，有意的直接打我电话13800138000。',
  },
  {
    category: 'EMAIL',
    platform: 'xiaohongshu',
    user: 5,
    step: 0,
    text: 'huamao.studio@example.com',
    bio: '独立插画师｜约稿请发邮件 huamao.studio@example.com',
  },
  {
    category: 'ID',
    platform: 'toutiao',
    user: 4,
    step: 1,
    text: ID_NUMBER,
    sentence: `帮家里老人办社保卡，窗口说身份证号${ID_NUMBER}录错了一位，又跑了一趟。`,
  },
  {
    category: 'BANK',
    platform: 'weibo',
    user: 6,
    step: 1,
    text: BANK_NUMBER,
    sentence: `小区流浪猫的绝育费用还差一点，愿意帮忙的可以转到我的银行卡号 ${BANK_NUMBER}，谢谢大家！`,
  },
  {
    category: 'IP',
    platform: 'zhihu',
    user: 1,
    step: 2,
    text: '203.0.113.57',
    sentence: '家里的NAS终于能外网访问了，服务器地址203.0.113.57，默认端口已经改掉。',
  },
  {
    category: 'PLATE',
    platform: 'douban',
    user: 2,
    step: 1,
    text: '京A·3M7Q2',
    sentence: '看完电影出来发现车被别住了，京A·3M7Q2的车主能不能挪一下。',
  },
  {
    category: 'PLATE',
    platform: 'xiaohongshu',
    user: 7,
    step: 1,
    text: '沪AD12345',
    sentence: '提车啦！新车牌沪AD12345，绿牌就是香。',
  },
];

export function assertPlants() {
  const fail = (m) => {
    throw new Error(`planted PI self-check failed: ${m}`);
  };
  if (!idChecksumOk(ID_NUMBER)) fail(`ID ${ID_NUMBER} has a wrong checksum`);
  if (idChecksumOk('110105198805122137')) fail('ID checksum accepts a wrong check digit');
  if (!luhnOk(BANK_NUMBER)) fail(`bank card ${BANK_NUMBER} fails Luhn`);
  if (luhnOk('6222 0202 0012 3456 787')) fail('Luhn accepts a wrong check digit');
  for (const p of PLANTS) if (!(p.sentence ?? p.bio).includes(p.text)) fail(`${p.category} text not in its sentence`);
}
