/**
 * Chinese phrase bank: comments, suggestions and the summary in the voice of a reading
 * teacher. Each finding is turned into a clause that names the place (「银行」的「行」), what
 * was heard and what was expected; levels are said in words, never as scores.
 */
import { quotable } from '../numbers.js';
import { ipaOf } from '../refs.js';
import { cleanSlotText } from '../slots.js';
import type { DimensionKey, Finding, Level } from '../types.js';
import { ofKind, type PhraseBank, type Say, type Suggestion } from './bank.js';
import { DIM_NAMES, GENRE_NAMES, SUBJECT, TONE_TIPS, advise, listZh, nameChar, nameRun, plainPinyin, sentence, toneName } from './zh-words.js';

const LEADS: Record<DimensionKey, Record<Level, string[]>> = {
  integrity: { excellent: ['内容读得完整'], good: ['内容基本读完整了'], fair: ['完整度还不够'], weak: ['漏读比较多'] },
  accuracy: {
    excellent: ['字音标准，吐字清晰', '字音读得很准，咬字清楚'],
    good: ['大部分字音读得准确', '字音总体准确'],
    fair: ['有一些字音没有读准', '部分字音还需要打磨'],
    weak: ['不少字没有读准', '字音问题比较多'],
  },
  fluency: {
    excellent: ['读得连贯流畅', '整体一气呵成，很流畅'],
    good: ['整体比较流畅', '朗读基本连贯'],
    fair: ['流畅度一般，中间有卡顿', '读得不够连贯'],
    weak: ['读得断断续续', '朗读很不连贯'],
  },
  reading_skill: {
    excellent: ['停连和语调处理得很好', '该停的地方停，该连的地方连，语调自然'],
    good: ['停连基本得当', '语调比较自然'],
    fair: ['停连和语调还有提升空间', '朗读技巧还比较生涩'],
    weak: ['停连和语调处理得比较生硬', '还没有注意到停连和语调'],
  },
  emotion: {
    excellent: ['感情饱满，很有感染力', '读得声情并茂'],
    good: ['有一定的感情投入', '能读出文字里的感情'],
    fair: ['感情表达比较平淡', '情感投入还不够'],
    weak: ['几乎听不出感情的起伏', '读得比较机械，缺少感情'],
  },
};

/** English tasks have no tones: their accuracy is 发音. */
const dimName = (s: Say, d: DimensionKey) => (d === 'accuracy' && s.ev.language !== 'zh-CN' ? '发音' : DIM_NAMES[d]);

const SOFT: Partial<Record<Level, string>> = { fair: '还有进步的空间', weak: '需要多下些功夫' };

function lead(d: DimensionKey, s: Say, findings: readonly Finding[]): string {
  // A dimension with named problems is not described as flawless, whatever its score.
  const level = findings.length && s.ev.levels[d] === 'excellent' ? 'good' : s.ev.levels[d];
  if (s.voice.style === 'encouraging' && SOFT[level]) return `${dimName(s, d)}${SOFT[level]}`;
  return s.v.pick(`lead:${d}`, LEADS[d][level]);
}

const QUALITY: Record<number, string> = { 1002: '录音音量偏低', 1003: '录音音量过大、有些失真', 1004: '录音里杂音较多' };

function findingClause(f: Finding, s: Say): string {
  const S = SUBJECT[s.voice.audience];
  const [r, r2] = f.refs;
  switch (f.kind) {
    case 'skipped':
      return s.v.pick(`c:${f.id}`, [`漏读了${nameRun(f.refs)}`, `${nameRun(f.refs)}没有读出来`, `读的时候跳过了${nameRun(f.refs)}`]);
    case 'unfinished':
      return r.before ? `读到「${r.before}」之后就停了，后面的${nameRun(f.refs)}没有读出来` : '整段都没有读出来';
    case 'replaced':
      return s.v.pick(`c:${f.id}`, [`${nameRun(f.refs)}没有照原文读，听到的是 ${plainPinyin(f.heard)}`, `把${nameRun(f.refs)}换成了 ${plainPinyin(f.heard)} 的音`]);
    case 'inserted':
      return r ? `在${nameChar(r)}后面多读了 ${plainPinyin(f.heard)} 的音` : `开头多读了 ${plainPinyin(f.heard)} 的音`;
    case 'misread':
      return f.heard ? `${S}把${nameChar(r)}（${r.expected ?? ''}）读成了 ${plainPinyin(f.heard)}` : `${nameChar(r)}（${r.expected ?? ''}）没有读对`;
    case 'tone': {
      const t = f.tone!;
      const sandhi = t.expected !== t.citation ? `，这里要变调读${toneName(t.expected)}` : `，应读${toneName(t.expected)}`;
      return t.heard ? `把${nameChar(r)}读成了${toneName(t.heard)}${sandhi}` : `${nameChar(r)}的${toneName(t.expected)}没有读到位`;
    }
    case 'phrase-break':
      return r.word && r.word === r2?.word
        ? `在「${r.text}」和「${r2.text}」之间停顿过长，把${nameRun([r, r2]).length > 2 ? `「${r.word}」` : nameRun([r, r2])}读断了`
        : quotable(r.text) && r2 && quotable(r2.text)
          ? s.v.pick(`c:${f.id}`, [`在「${r.text}」和「${r2.text}」之间停顿过长，句子被拆开了`, `「${r.text}」之后停了较长时间才接「${r2.text}」，语意断开了`])
          : `${nameChar(r)}之后停了较长时间，句子被拆开了`;
    case 'repeated':
      return r ? `在${nameChar(r)}附近有回读` : '有回读的地方';
    case 'pace-fast':
      return s.ev.genre ? `语速偏快，对${GENRE_NAMES[s.ev.genre]}来说有些赶` : '语速偏快，有些赶';
    case 'pace-slow':
      return s.ev.genre ? `语速偏慢，${GENRE_NAMES[s.ev.genre]}读起来显得拖沓` : '语速偏慢，读起来显得拖沓';
    case 'uneven':
      return '节奏时快时慢，不够平稳';
    case 'boundary':
      return `${nameChar(r)}后面的标点处没有停顿，前后连在了一起`;
    case 'flat-pitch':
      return s.v.pick('c:flat', ['语调起伏不大，听起来有些平', '声音的高低变化少，句子的意思没有通过语调带出来']);
    case 'rear-tone':
      return '结尾是问句，句末的语调没有扬起来';
    case 'flat-emotion':
      return s.ev.genre && s.ev.genre !== 'prose' ? '诗的韵味和情绪还没有读出来' : '声音的轻重快慢变化少，情绪没有带出来';
    case 'target-emotion': {
      const label = cleanSlotText(f.target!.label, 20);
      const what = label ? `要求的「${label}」语气` : '要求的语气';
      return f.target!.matched ? `${what}读出来了` : `${what}还没有表现出来`;
    }
    case 'audio-quality':
      return `${(f.codes ?? []).map((c) => QUALITY[c]).filter(Boolean).join('，')}，个别字的判断可能受到影响`;
    case 'phone': {
      const want = ipaOf(f.phone!.expected);
      const got = ipaOf(f.phone!.heard);
      return want && got ? `${nameChar(r)}里的 ${want} 音读得像 ${got}` : want ? `${nameChar(r)}里的 ${want} 音没有读清楚` : `${nameChar(r)}没有读准`;
    }
    case 'stress':
      return `${nameChar(r)}的重音应该在${{ start: '开头', end: '末尾', middle: '中间' }[f.heard ?? 'start'] ?? '开头'}的音节上`;
    case 'unclear':
    case 'no-evidence':
      return '';
  }
}

function toneClause(fs: Finding[], s: Say): string {
  if (s.ev.language !== 'zh-CN' || ofKind(fs, 'tone').length) return '';
  const level = s.ev.toneLevel;
  if (level === null) return '声调这次没有足够的音高信息来判断';
  if (level === 'excellent' || level === 'good') return s.v.pick('tone-ok', ['声调读得准确到位', '声调的高低升降都很到位', '声调把握得不错']);
  return '声调整体还不够稳，升降的幅度偏小';
}

function comment(d: DimensionKey, fs: Finding[], s: Say): string {
  if (s.ev.noEvidence) return d === 'integrity' ? '录音里没有听到与原文对应的朗读，无法判断读到了哪些内容。' : `没有可以用来判断${dimName(s, d)}的朗读。`;
  const named = fs.filter((f) => f.kind !== 'unclear').slice(0, 5).map((f) => findingClause(f, s)).filter(Boolean);
  const unclear = ofKind(fs, 'unclear').map((f) => nameChar(f.refs[0]));
  if (unclear.length) named.push(`${listZh(unclear)}的字音不够清楚`);
  const head = [lead(d, s, fs.filter((f) => f.kind !== 'target-emotion' || !f.target!.matched)), d === 'accuracy' ? toneClause(fs, s) : '', d === 'fluency' && s.ev.pace === 'ok' ? s.v.pick('pace-ok', ['语速适中', '快慢合适']) : '']
    .filter(Boolean)
    .join('，');
  return `${head}。${sentence(named)}`;
}

function suggestionsFor(d: DimensionKey, fs: Finding[], s: Say): Suggestion[] {
  if (s.ev.noEvidence) return d === 'integrity' ? [{ id: 'no-evidence', text: advise(s, 'ne', '确认读的是这段文字，靠近麦克风重新录音') }] : [];
  const out: Suggestion[] = [];
  const add = (f: Finding | undefined, clause: string) => f && out.push({ id: f.id, text: advise(s, f.id, clause) });
  const genre = s.ev.genre ? GENRE_NAMES[s.ev.genre] : '';
  const skipped = ofKind(fs, 'skipped');
  add(skipped[0], `读之前先把${listZh(skipped.map((f) => nameRun(f.refs)))}圈出来，读的时候用手指着逐字读，做到不丢字`);
  add(ofKind(fs, 'unfinished')[0], '把全文完整读完再提交，结尾部分也要读清楚');
  const replaced = ofKind(fs, 'replaced');
  add(replaced[0], `对照原文读准${listZh(replaced.map((f) => nameRun(f.refs)))}，不要换成别的字`);
  add(ofKind(fs, 'inserted')[0], '眼睛看到哪个字就读哪个字，照着原文读，不添字');
  for (const f of ofKind(fs, 'misread').slice(0, 2)) {
    const r = f.refs[0];
    add(f, `把${nameChar(r)}单独拿出来，对照拼音 ${r.expected ?? ''} 多读几遍，再放回${r.word && nameChar(r).includes('的') && quotable(r.word) ? `「${r.word}」` : '句子'}里读`);
  }
  const tones = ofKind(fs, 'tone');
  for (const t of [...new Set(tones.map((f) => f.tone!.expected))].slice(0, 2)) {
    const group = tones.filter((f) => f.tone!.expected === t);
    add(group[0], `注意${listZh(group.map((f) => nameChar(f.refs[0])))}要读${toneName(t)}：${TONE_TIPS[t]}`);
  }
  for (const f of ofKind(fs, 'phone').slice(0, 2)) {
    const want = ipaOf(f.phone!.expected);
    add(f, want ? `把${nameChar(f.refs[0])}里的 ${want} 音单独练几遍，再放回句子里读` : `跟着示范把${nameChar(f.refs[0])}多读几遍`);
  }
  const unclear = ofKind(fs, 'unclear');
  add(unclear[0], `把${listZh(unclear.map((f) => nameChar(f.refs[0])))}的声母、韵母读完整，口型做到位`);
  add(ofKind(fs, 'audio-quality')[0], '换到安静的地方录音，嘴和麦克风保持适当距离');
  add(ofKind(fs, 'pace-fast')[0], `【语速】读${genre}不要赶，句末稍作停留，让每个字都有时间读清楚`);
  add(ofKind(fs, 'pace-slow')[0], '【语速】先把内容读熟，再按词语连着读，把速度慢慢提上来');
  const breaks = ofKind(fs, 'phrase-break');
  const word = breaks.find((f) => f.refs[0].word && f.refs[0].word === f.refs[1]?.word);
  add(breaks[0], word ? `${nameRun(word.refs).length > 2 ? `「${word.refs[0].word}」` : nameRun(word.refs)}是个完整的词语，要连着读，中间不要停顿` : '先在心里默读熟练再出声，把意群连贯地读完');
  add(ofKind(fs, 'repeated')[0], '读错了也先往下读，不要回头重读，读完再回来纠正');
  add(ofKind(fs, 'uneven')[0], '按意群来读，意群内部的字连起来，速度保持平稳');
  const bounds = ofKind(fs, 'boundary');
  add(bounds[0], `在${listZh(bounds.map((f) => nameChar(f.refs[0])))}后的标点处稍作停顿，句号停得比逗号长一些`);
  add(ofKind(fs, 'flat-pitch')[0], '想着句子的意思来读，重要的词语读得稍重、稍高');
  add(ofKind(fs, 'rear-tone')[0], '问句的句末要微微上扬，读出询问的语气');
  add(ofKind(fs, 'flat-emotion')[0], s.ev.genre && s.ev.genre !== 'prose' ? '读之前想象诗里的画面，读出诗的节奏和韵味' : '读之前先想想这段话要表达的心情，用声音的轻重快慢把它带出来');
  const target = ofKind(fs, 'target-emotion').find((f) => !f.target!.matched);
  add(target, '先体会要求的语气，再放开声音读');
  if (out.length === 0 && (s.ev.levels[d] === 'fair' || s.ev.levels[d] === 'weak')) out.push({ id: `${d}-level`, text: advise(s, d, LEVEL_ADVICE[d]) });
  return out;
}

const LEVEL_ADVICE: Record<DimensionKey, string> = {
  integrity: '读之前先通读全文，读的时候逐字跟读',
  accuracy: '放慢一点，把每个字的声母、韵母和声调都读清楚',
  fluency: '多读几遍熟悉内容，争取读得连贯',
  reading_skill: '按标点和意群停连，句末语调自然收住',
  emotion: '读之前先体会内容的感情，再用声音表现出来',
};

const NEXT: Record<DimensionKey, string> = {
  integrity: '保持逐字读全的好习惯，可以挑战更长的篇目',
  accuracy: '保持字正腔圆，可以尝试读多音字更多的文章',
  fluency: '可以尝试更长的段落，保持同样的连贯',
  reading_skill: '可以在重点词语上加强重音，让停连更有层次',
  emotion: '可以尝试用不同的情绪读同样的内容，让声音更有感染力',
};

const notJudgedZh = (d: DimensionKey, s: Say) => `单个字词的朗读主要看读全和读准，${dimName(s, d)}不作评价。`;

export const chineseBank: PhraseBank = { comment, suggestions: suggestionsFor, summary, notJudged: notJudgedZh, nextStep: (d, s) => ({ id: `${d}-next`, text: advise(s, `next:${d}`, NEXT[d]) }) };

/** Over the dimensions judged here (all of them, except delivery for a single word), weights renormalised. */
function overallLevel(s: Say, order: readonly DimensionKey[]): Level {
  const e = s.ev;
  const total = order.reduce((a, d) => a + e.weights[d] * e.scores[d], 0) / Math.max(1e-9, order.reduce((a, d) => a + e.weights[d], 0));
  return total >= 90 ? 'excellent' : total >= 75 ? 'good' : total >= 60 ? 'fair' : 'weak';
}

const OPENERS: Record<Level, string[]> = {
  excellent: ['这次朗读完成得很出色', '整体读得非常好', '这次朗读很漂亮'],
  good: ['这次朗读整体不错', '总体读得比较好', '这次朗读完成得比较扎实'],
  fair: ['这次朗读基本完成了，但还有明显可以改进的地方', '整体表现中等，有几处需要加强'],
  weak: ['这次朗读问题比较多，需要多练习', '这次朗读还需要下功夫'],
};

function headline(d: DimensionKey, fs: Finding[], s: Say): string {
  const top = fs.find((f) => f.kind !== 'target-emotion' || !f.target!.matched);
  const clause = top ? findingClause(top, s) : '';
  if (clause) return `最需要注意的是${dimName(s, d)}：${clause}`;
  const level = s.ev.levels[d];
  return level === 'fair' || level === 'weak' ? `最需要提高的是${dimName(s, d)}` : '';
}

function summary(order: DimensionKey[], byDim: Record<DimensionKey, Finding[]>, s: Say): string {
  const S = SUBJECT[s.voice.audience];
  if (s.ev.noEvidence) return `这次录音里没有听到与原文对应的朗读，请确认${S === '你' ? '' : S}读的是这段文字后重新录音。`;
  const level = overallLevel(s, order);
  const opener = s.voice.style === 'lively' && (level === 'excellent' || level === 'good') ? `${s.v.pick('open', OPENERS[level])}，真棒！` : `${s.v.pick('open', OPENERS[level])}。`;
  const issueDim = order.find((d) => headline(d, byDim[d], s) !== '');
  const issue = issueDim ? `${headline(issueDim, byDim[issueDim], s)}。` : '';
  const strong = order.filter((d) => d !== issueDim && byDim[d].length === 0 && (s.ev.levels[d] === 'excellent' || s.ev.levels[d] === 'good')).slice(-2).reverse();
  const praise = strong.length ? `${S}的${listZh(strong.map((d) => dimName(s, d)))}${s.v.pick('praise', ['做得好', '值得肯定', '表现不错'])}。` : '';
  const focusFirst = s.voice.focus.length > 0;
  let focusLine = '';
  if (focusFirst && s.voice.focus[0] !== issueDim) {
    const d = s.voice.focus[0];
    focusLine = `关于${dimName(s, d)}：${LEADS[d][s.ev.levels[d]][0]}。`;
  }
  const asked = s.voice.focusText ? `${S === '你' ? '你' : '你'}提到的「${s.voice.focusText}」，可以结合下面各项的具体建议来看。` : '';
  const reminder = s.voice.reminder ? `另外提醒：${s.voice.reminder.replace(/[。.!！]*$/, '')}。` : '';
  const closer = { warm: '', direct: '', encouraging: s.v.pick('close', ['继续加油！', '坚持练习，一定会越读越好。']), lively: '加油，下次会更棒！' }[s.voice.style];
  const body = s.voice.style === 'direct' ? [focusLine, issue, praise] : focusFirst ? [focusLine, issue, opener, praise] : [opener, praise, issue];
  return [...body, asked, reminder, closer].filter(Boolean).join('');
}
