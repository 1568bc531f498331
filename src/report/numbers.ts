/**
 * Keeping numbers out of the report body (spec "Report object": the body never shows score
 * numbers). One definition of "a number" serves three uses: the guard over finished bodies,
 * the choice of whether a piece of the reference text may be quoted, and the scrub of caller
 * slot text. A number is
 *   - any ASCII or full-width digit;
 *   - an English cardinal word (one … ninety, hundred, thousand, million, billion) or "percent";
 *   - a Chinese numeral character (零〇一二三四五六七八九十百千万亿两) outside the tone names
 *     第一声 … 第四声 and a short list of words in which 一 is not a quantity (一些, 一下 …).
 * Ordinal tone names are category names, not amounts, and the issue asks for them
 * ("读成了第二声"); nothing else numeric survives.
 */

const DIGITS = /[0-9\uFF10-\uFF19]/;
const EN_NUMBER_WORDS =
  /\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|hundreds|thousand|thousands|million|millions|billion|percent)\b/i;
const ZH_NUMERALS = /[零〇一二三四五六七八九十百千万亿两]/;
/** Tone names: ordinals of a closed set of four categories, allowed by the issue's own example. */
const ZH_TONE_NAMES = /第[一二三四]声/g;
/** Words whose 一 is not a quantity. Longest first so 一口气 wins over a shorter match. */
const ZH_NON_QUANTITY = /一气呵成|一口气|一字一句|一些|一下|一定|一起|一样|一直|一点|一边|一致|逐一|统一|一般|一会儿|一贯/g;

/** Units a number may count; removed together with it. */
const UNITS = '%|％|分钟|分|秒|小时|个|次|遍|天|周|页|篇|句|字|点|岁|年级|倍|percent|points?|minutes?|seconds?|hours?|times|days|weeks|pages|words|sentences';

function maskAllowed(text: string): string {
  return text.replace(ZH_TONE_NAMES, '').replace(ZH_NON_QUANTITY, '');
}

/** True when `text` shows a number by the rules above. */
export function containsNumber(text: string): boolean {
  if (DIGITS.test(text) || EN_NUMBER_WORDS.test(text)) return true;
  return ZH_NUMERALS.test(maskAllowed(text));
}

/**
 * Removes every number from caller text (slot values) so it can be used in a body. Allowed
 * words are kept; the result satisfies `!containsNumber(result)`.
 */
export function stripNumbers(text: string): string {
  const keep: string[] = [];
  const masked = text.replace(new RegExp(`${ZH_TONE_NAMES.source}|${ZH_NON_QUANTITY.source}`, 'g'), (m) => {
    keep.push(m);
    // A private-use character per kept word: no digit in the mark for the digit rule to eat.
    return String.fromCharCode(0xe000 + keep.length - 1);
  });
  // A number goes with the unit it counts (十分钟, ten minutes), so no dangling unit is left.
  const stripped = masked
    .replace(new RegExp(`[0-9\\uFF10-\\uFF19]+([.,．][0-9\\uFF10-\\uFF19]+)*\\s*(${UNITS})?`, 'gi'), '')
    .replace(new RegExp(`(\\b(${EN_NUMBER_WORDS.source.slice(4, -3)})\\b[\\s-]*)+(${UNITS})?`, 'gi'), '')
    .replace(new RegExp(`[零〇一二三四五六七八九十百千万亿两]+(${UNITS})?`, 'g'), '')
    .replace(/[\ue000-\ue0ff]/g, (c) => keep[c.charCodeAt(0) - 0xe000] ?? '');
  return stripped.replace(/[ \t]{2,}/g, ' ').trim();
}

/** Whether a fragment of the reference text may be shown inside 「」 or quotes in a body. */
export function quotable(fragment: string): boolean {
  return fragment.trim() !== '' && !containsNumber(fragment);
}

/**
 * Drops the sentences of a free text that show a number (used on model-written text, where a
 * half-stripped sentence would read wrongly). Sentences end at 。！？!? or a full stop.
 */
export function dropNumericSentences(text: string): string {
  const parts = text.match(/[^。！？!?.]+(?:[。！？!?.]+\s*|$)/g) ?? [text];
  return parts.filter((p) => !containsNumber(p)).join('').trim();
}
