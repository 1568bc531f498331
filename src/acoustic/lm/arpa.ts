/**
 * ARPA text rendering of an n-gram model (the plain-text back-off LM format of the CMU-Cambridge
 * and SRILM toolkits, read by libpocketsphinx's `ngram_model_read`): a `\data\` header with the
 * count of each order, then one section per order of `log10prob words [log10backoff]` lines.
 * Pure: model in, text out.
 */
import type { NgramModel } from './dmp.js';

/** Six decimals of log10 are far below the precision of the quantised DMP tables. */
function num(x: number): string {
  return x.toFixed(6);
}

export function renderArpa(model: NgramModel): string {
  const { words, unigrams, bigrams, trigrams } = model;
  const hasTrigrams = trigrams.w1.length > 0;
  const out: string[] = [
    '\\data\\',
    `ngram 1=${words.length}`,
    `ngram 2=${bigrams.w1.length}`,
    ...(hasTrigrams ? [`ngram 3=${trigrams.w1.length}`] : []),
    '',
    '\\1-grams:',
  ];
  for (let i = 0; i < words.length; i++) {
    out.push(`${num(unigrams.prob[i])} ${words[i]} ${num(unigrams.backoff[i])}`);
  }
  out.push('', '\\2-grams:');
  for (let i = 0; i < bigrams.w1.length; i++) {
    const head = `${num(bigrams.prob[i])} ${words[bigrams.w1[i]]} ${words[bigrams.w2[i]]}`;
    out.push(hasTrigrams ? `${head} ${num(bigrams.backoff[i])}` : head);
  }
  if (hasTrigrams) {
    out.push('', '\\3-grams:');
    for (let i = 0; i < trigrams.w1.length; i++) {
      out.push(`${num(trigrams.prob[i])} ${words[trigrams.w1[i]]} ${words[trigrams.w2[i]]} ${words[trigrams.w3[i]]}`);
    }
  }
  out.push('', '\\end\\', '');
  return out.join('\n');
}
