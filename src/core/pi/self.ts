// SELF: the user's own name right after a self-introduction cue. A heuristic: always low confidence.
import { collect, emitGroup } from './emit';
import type { Candidate } from './types';

const COMPOUND =
  '欧阳|司马|诸葛|上官|东方|皇甫|尉迟|公孙|慕容|令狐|司徒|夏侯|独孤|长孙|宇文|南宫|端木|百里|呼延|西门|澹台|轩辕';
const SINGLE =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范' +
  '金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪' +
  '庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕' +
  '屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙' +
  '荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝';
const CUES =
  '大家好[,!！ ]?我是|我叫|我的名字是|我的名字叫|我名叫|我的真名是|我的真名叫|本人名叫|本人叫|本人姓名|真实姓名|本名|真名|姓名';
const TERMINATOR = '(?=[，。！？、,.!?；;：:\\s）)」』~…]|$|今年|来自|是一|，)';

const NAME_RE = new RegExp(
  `(?:${CUES})(?:[是为:]| )?((?:${COMPOUND})[\\u4e00-\\u9fff]{1,2}|[${SINGLE}][\\u4e00-\\u9fff]{1,2})${TERMINATOR}`,
  'g',
);
// 本人 only when the name is followed by punctuation at once (本人高度近视 is not a name).
const BENREN_RE = new RegExp(
  `本人((?:${COMPOUND})[\\u4e00-\\u9fff]{1,2}|[${SINGLE}][\\u4e00-\\u9fff]{1,2})(?=[，,。！!、])`,
  'g',
);
const ENGLISH_RE = /\b(?:[Mm]y (?:real |full )?name is|I am called|I'm called)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\b/g;

// Characters that almost never occur in a given name, but often after 我叫 / 本人 (我叫车回家, 我叫王师傅来).
const NOT_IN_NAMES = new Set(
  '了着过的吗呢吧啊呀哦哈嘛回家去来到在是不也都就还又很太最么们者人样种个些点下上中里外时天年月日会能要想说看做师傅哥姐总妈爸叔姨婆公弟妹车饭菜外卖醒起号码字'.split(
    '',
  ),
);
const NOT_NAMES = new Set([
  '王者',
  '高手',
  '小白',
  '路人',
  '程序员',
  '金主',
  '黄牛',
  '白领',
  '蓝领',
  '方便',
  '成年',
  '安全',
  '明天',
  '时间',
]);

function plausibleName(name: string): boolean {
  if (NOT_NAMES.has(name)) return false;
  const given = new RegExp(`^(?:${COMPOUND})`).test(name) ? name.slice(2) : name.slice(1);
  return given.length > 0 && ![...given].some((c) => NOT_IN_NAMES.has(c));
}

export function selfCandidates(text: string): Candidate[] {
  return collect((emit) => {
    for (const re of [NAME_RE, BENREN_RE]) {
      for (const m of text.matchAll(re)) {
        if (plausibleName(m[1])) emitGroup(emit, 'SELF', 'low', m, 'a name right after a self-introduction cue');
      }
    }
    for (const m of text.matchAll(ENGLISH_RE)) emitGroup(emit, 'SELF', 'low', m, 'a name after "my name is"');
  });
}
