// Context words near a candidate: they raise confidence (电话 before a number), pick a category (卡号 vs 身份证),
// or veto a match (订单号, a price, a version string).

export const PHONE_WORDS = [
  '电话',
  '手机',
  '号码',
  '联系方式',
  '联系我',
  '联系电话',
  '致电',
  '来电',
  '打我',
  '拨打',
  '座机',
  '短信',
  '热线',
  '手机号',
  'tel',
  'phone',
  'mobile',
  'call',
  'whatsapp',
  'telegram',
];
export const ID_WORDS = [
  '身份证',
  '证件号',
  '证件',
  '公民身份',
  '身份号码',
  '身份信息',
  'id card',
  'idcard',
  '护照',
  'passport',
  '通行证',
  '港澳',
  '台胞证',
  '回乡证',
  '居住证',
  '户口',
  '出生日期',
];
export const BANK_WORDS = [
  '卡号',
  '银行卡',
  '银行',
  '账号',
  '帐号',
  '账户',
  '帐户',
  '户名',
  '开户',
  '储蓄卡',
  '信用卡',
  '借记卡',
  '转账',
  '汇款',
  '打款',
  '收款',
  '工行',
  '建行',
  '农行',
  '中行',
  '招行',
  '交行',
  '邮储',
  '银联',
  'bank',
  'card',
  'account',
  'iban',
  'visa',
  'mastercard',
];
export const DEVICE_WORDS = [
  'imei',
  'meid',
  '串号',
  '设备号',
  '设备识别码',
  '设备id',
  '设备编号',
  'device id',
  'deviceid',
  'mac',
  '网卡',
  '物理地址',
  'idfa',
  'oaid',
  'android id',
  '广告标识',
];
export const IP_WORDS = [
  'ip',
  '服务器',
  'server',
  '公网',
  '外网',
  '内网',
  'host',
  'ping',
  '登录地址',
  '访问地址',
  '地址',
];
export const GEO_WORDS = [
  '坐标',
  '经纬度',
  '经度',
  '纬度',
  '定位',
  '位置',
  'gps',
  'location',
  'lat',
  'lng',
  'lon',
  '地图',
  '导航',
  'coordinates',
];
export const PLATE_WORDS = ['车牌', '牌照', '车', '牌', 'plate', '挪车', '违章', '停车'];
export const ORDER_WORDS = [
  '订单',
  '单号',
  '运单',
  '快递',
  '物流',
  '流水号',
  '交易号',
  '编号',
  '工单',
  '发票',
  '票号',
  '货号',
  '型号',
  '批次',
  '批号',
  '条码',
  '商品码',
  '学号',
  '工号',
  '会员号',
  '房号',
  '车次',
  '航班',
  '邮编',
  '序号',
  '取件码',
  '验证码',
  '第',
  'order',
  'tracking',
  'invoice',
  'sku',
  'isbn',
  'no.',
  'uid',
  '用户id',
  '微博id',
];
export const VERSION_WORDS = [
  '版本',
  'version',
  'ver',
  'build',
  '固件',
  'firmware',
  '内核',
  'kernel',
  '升级到',
  '更新到',
  'release',
  'sdk',
];

/**
 * How far (in characters) the nearest of `words` is from the span [start, end) within `before` characters to the
 * left or `after` to the right; Infinity when none is there. `lower` is the lower-cased text.
 */
export function distanceTo(
  lower: string,
  start: number,
  end: number,
  words: readonly string[],
  before = 12,
  after = 6,
): number {
  let best = Infinity;
  const left = lower.slice(Math.max(0, start - before), start);
  const right = lower.slice(end, end + after);
  for (const w of words) {
    const i = left.lastIndexOf(w);
    if (i >= 0) best = Math.min(best, left.length - (i + w.length));
    const j = right.indexOf(w);
    if (j >= 0) best = Math.min(best, j);
  }
  return best;
}

/** Only the left side: order words and version words describe what follows them. */
export function distanceBefore(lower: string, start: number, words: readonly string[], before = 12): number {
  return distanceTo(lower, start, start, words, before, 0);
}

const CURRENCY_BEFORE = /(?:[$¥€£]|rmb|cny|usd|hkd)\s?$/;
const CURRENCY_AFTER = /^\s?(?:元|块|万|亿|美元|港币|港元|日元|韩元|欧元|英镑|円|rmb|cny|usd|jpy|eur)/;

/** A price: a currency sign before or a unit after. */
export function looksLikePrice(lower: string, start: number, end: number): boolean {
  return (
    CURRENCY_BEFORE.test(lower.slice(Math.max(0, start - 5), start)) || CURRENCY_AFTER.test(lower.slice(end, end + 4))
  );
}
