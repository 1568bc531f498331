/**
 * Neutral tone in the expected realisation, where pinyin-pro gives the second syllable its
 * full dictionary tone although standard Putonghua reads it light:
 *  - common two-character words whose second syllable is neutral in the standard language
 *    (朋友 péngyou, 告诉 gàosu, 知道 zhīdao …), applied when the pair ends a lexical word
 *    (好朋友), plural 们 allowed (朋友们). 学生 is left out because compounds keep its full
 *    tone (大学生 dàxuéshēng). Words whose neutral
 *    reading depends on the meaning or the register (东西 thing / east-west, 地方 place /
 *    local, 多少, 精神, and 关系, 消息, 教训, which careful and news reading keeps full) are
 *    left out: refPinyin can give them.
 *  - a reduplicated one-syllable verb (看看, 想想, 走走): the repeat is neutral.
 * The list was written for this project from the standard pronunciation of each word; pinyin-pro
 * already has the neutral tone of many others (喜欢, 衣服, 姐姐, 桌子), which are not repeated.
 * `tone` keeps the citation tone; only `tone_sandhi` becomes 5.
 */

const NEUTRAL_SECOND = new Set(
  (
    '朋友 告诉 知道 明白 时候 意思 事情 清楚 舒服 麻烦 客气 热闹 商量 打听 窗户 规矩 姑娘 ' +
    '伙计 脑袋 念叨 媳妇 月亮 招呼 芝麻 主意 琢磨 先生 打算 点心 耽误 动静 粮食 收拾 ' +
    '算计 太阳 吩咐 干净 讲究 快活 利索 眉毛 护士 玫瑰 名字 功夫 工夫'
  ).split(' '),
);

const REDUPLICATED_VERBS = new Set(Array.from('看想走听说试问等读写谈聊玩找学练坐歇笑尝讲洗摸转跳唱逛查算猜'));

/**
 * Marks with true the characters (by position in `chars`) whose realised tone is neutral.
 * `words` gives each character's lexical-word index (non-decreasing).
 */
export function neutralPositions(chars: readonly string[], words: readonly number[]): boolean[] {
  const out = chars.map(() => false);
  for (let i = 0; i + 1 < chars.length; i++) {
    // The pair must end its lexical word (好朋友), plural 们 allowed (朋友们).
    const sameWord = words[i] === words[i + 1];
    const ends = words[i + 2] !== words[i] || (chars[i + 2] === '们' && words[i + 3] !== words[i]);
    if (sameWord && ends && NEUTRAL_SECOND.has(chars[i] + chars[i + 1])) out[i + 1] = true;
    if (chars[i] === chars[i + 1] && REDUPLICATED_VERBS.has(chars[i]) && chars[i - 1] !== chars[i]) out[i + 1] = true;
  }
  return out;
}
