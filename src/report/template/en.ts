/**
 * English phrase bank: comments, suggestions and the summary in the voice of a reading
 * teacher. Words are quoted as read in the reference; a word that shows a number is named by
 * its neighbour instead ("the word after “in”"), so quoting never brings a number into the body.
 * Speech-rate suggestions carry the same 【语速】 marker as Chinese ones: clients find them
 * with one rule in every report language (docs/report.md).
 */
import { quotable } from '../numbers.js';
import { cleanSlotText } from '../slots.js';
import { ipaOf } from '../refs.js';
import type { DimensionKey, Finding, Level, TextRef } from '../types.js';
import { ofKind, type PhraseBank, type Say, type Suggestion } from './bank.js';

const DIM_NAMES: Record<DimensionKey, string> = {
  integrity: 'completeness',
  accuracy: 'pronunciation',
  fluency: 'fluency',
  reading_skill: 'phrasing and intonation',
  emotion: 'expression',
};

const LEADS: Record<DimensionKey, Record<Level, string[]>> = {
  integrity: { excellent: ['Every word of the text was read'], good: ['The text was read almost in full'], fair: ['Parts of the text were left out'], weak: ['Much of the text was not read'] },
  accuracy: {
    excellent: ['Pronunciation was clear and accurate', 'Words were pronounced cleanly and precisely'],
    good: ['Most words were pronounced well', 'Pronunciation was generally accurate'],
    fair: ['Several words were not pronounced quite right', 'Pronunciation needs some polishing'],
    weak: ['Many words were mispronounced', 'Pronunciation needs a lot of work'],
  },
  fluency: {
    excellent: ['The reading flowed smoothly', 'The reading was smooth and connected'],
    good: ['The reading was fairly smooth', 'The reading mostly flowed well'],
    fair: ['The reading was somewhat halting', 'The flow was interrupted in places'],
    weak: ['The reading was choppy', 'The reading stopped and started a lot'],
  },
  reading_skill: {
    excellent: ['Phrasing and intonation were handled well', 'Pauses and pitch followed the meaning nicely'],
    good: ['Phrasing was mostly sensible', 'Intonation was fairly natural'],
    fair: ['Phrasing and intonation could be more deliberate', 'Intonation and phrasing need attention'],
    weak: ['Phrasing and intonation did not follow the sentence', 'Pauses and pitch did not yet support the meaning'],
  },
  emotion: {
    excellent: ['The reading was expressive and engaging'],
    good: ['There was some feeling in the voice'],
    fair: ['The reading sounded rather flat'],
    weak: ['The reading sounded mechanical'],
  },
};

const STRESS_AT: Record<string, string> = { start: 'at the start', middle: 'in the middle', end: 'at the end' };

/** Mandarin tones by contour (for English reports on Mandarin tasks). */
const TONE_EN: Record<number, string> = { 1: 'the high level tone', 2: 'the rising tone', 3: 'the dipping tone', 4: 'the falling tone', 5: 'the light neutral tone' };

const SUBJECT = { learner: 'you', parent: 'your child', teacher: 'the student' } as const;

const OCCURRENCE = { earlier: 'the earlier', middle: 'another', later: 'the later' } as const;

/** “bank”, or the word after “in” for a number word; the later “the” when the text has it twice. */
function nameWord(r: TextRef): string {
  if (quotable(r.text)) return r.occurrence ? `${OCCURRENCE[r.occurrence]} “${r.text}”` : `“${r.text}”`;
  if (r.before && quotable(r.before)) return `the word after “${r.before}”`;
  if (r.after && quotable(r.after)) return `the word before “${r.after}”`;
  return 'a number word';
}

function nameRun(refs: readonly TextRef[]): string {
  const text = refs.map((r) => r.text).join(' ');
  return quotable(text) ? `“${text}”` : refs.length === 1 ? nameWord(refs[0]) : 'a few words';
}

function listEn(items: readonly string[], max = 4): string {
  const xs = [...new Set(items)];
  if (xs.length <= 1) return xs[0] ?? '';
  if (xs.length > max) return `${xs.slice(0, max - 1).join(', ')} and others`;
  // Names that already contain "and" (phrasing and intonation) are joined with "as well as".
  const and = xs.some((x) => x.includes(' and ')) ? ' as well as ' : ' and ';
  return `${xs.slice(0, -1).join(', ')}${and}${xs[xs.length - 1]}`;
}

function advise(s: Say, salt: string, clause: string): string {
  const leads = { learner: ['', '', 'Try to '], parent: ['Help your child ', 'Encourage your child to '], teacher: ['Have the student ', 'Ask the student to '] }[s.voice.audience];
  const marker = clause.startsWith('【语速】') ? '【语速】' : '';
  const body = clause.slice(marker.length);
  const lead = s.v.pick(`advise:${salt}`, leads);
  return `${marker}${lead === '' ? body[0].toUpperCase() + body.slice(1) : lead + body}.`;
}

const QUALITY: Record<number, string> = { 1002: 'the recording was quiet', 1003: 'the recording was too loud and distorted', 1004: 'the recording was noisy' };

function phoneClause(f: Finding): string {
  const p = f.phone!;
  const want = ipaOf(p.expected);
  const got = ipaOf(p.heard);
  if (want && got && p.error === 'substitution') return `in ${nameWord(f.refs[0])} the ${want} sound came out closer to ${got}`;
  if (want && p.error === 'deletion') return `in ${nameWord(f.refs[0])} the ${want} sound was dropped`;
  if (want && p.error === 'insertion') return `in ${nameWord(f.refs[0])} an extra sound crept in after ${want}`;
  return want ? `in ${nameWord(f.refs[0])} the ${want} sound was unclear` : `${nameWord(f.refs[0])} was not pronounced clearly`;
}

function clause(f: Finding, s: Say): string {
  const [r, r2] = f.refs;
  switch (f.kind) {
    case 'skipped':
      return s.v.pick(`c:${f.id}`, [`${nameRun(f.refs)} was skipped`, `${nameRun(f.refs)} was left out`, `${nameRun(f.refs)} was missing from the reading`]);
    case 'unfinished':
      return r.before ? `the reading stopped after “${r.before}”, so ${nameRun(f.refs)} was never read` : 'nothing of the text was read';
    case 'replaced':
      return `${nameRun(f.refs)} was not read as written; something else was heard in its place`;
    case 'inserted':
      return r ? `an extra word was added after ${nameWord(r)}` : 'an extra word was added at the start';
    case 'misread':
      return `${nameWord(r)} was misread`;
    case 'phone':
    case 'unclear':
      return f.phone ? phoneClause(f) : `${nameWord(r)} was not pronounced clearly`;
    case 'stress':
      return `${nameWord(r)} should be stressed ${STRESS_AT[f.heard ?? 'start']}, but the stress fell elsewhere`;
    case 'phrase-break':
      return `a long pause between ${nameWord(r)} and ${nameWord(r2)} broke up the phrase`;
    case 'repeated':
      return r ? `there was a restart near ${nameWord(r)}` : 'there were restarts';
    case 'pace-fast':
      return 'the pace was faster than a comfortable reading speed';
    case 'pace-slow':
      return 'the pace was slower than a natural reading speed';
    case 'uneven':
      return 'the pace kept speeding up and slowing down';
    case 'boundary':
      return `there was no pause at the punctuation after ${nameWord(r)}, so the phrases ran together`;
    case 'flat-pitch':
      return 'the voice stayed on much the same pitch';
    case 'rear-tone':
      return 'the text ends with a question, but the voice did not rise at the end';
    case 'flat-emotion':
      return 'there was little change in loudness, pace or pitch to carry feeling';
    case 'target-emotion': {
      const label = cleanSlotText(f.target!.label, 20);
      const what = label ? `the requested “${label}” mood` : 'the requested mood';
      return f.target!.matched ? `${what} came through` : `${what} did not come through yet`;
    }
    case 'audio-quality':
      return `${(f.codes ?? []).map((c) => QUALITY[c]).filter(Boolean).join(' and ')}, which may affect some judgements`;
    case 'tone':
      return `${nameWord(r)} was said with ${TONE_EN[f.tone!.heard ?? 0] ?? 'an unclear tone'} instead of ${TONE_EN[f.tone!.expected] ?? 'its own tone'}`;
    case 'no-evidence':
      return '';
  }
}

const cap = (t: string) => (t ? t[0].toUpperCase() + t.slice(1) : t);
const sentences = (parts: string[]) => parts.filter(Boolean).map((p) => `${cap(p)}.`).join(' ');

function lead(d: DimensionKey, s: Say, findings: readonly Finding[]): string {
  // A dimension with named problems is not described as flawless, whatever its score.
  const level = findings.length && s.ev.levels[d] === 'excellent' ? 'good' : s.ev.levels[d];
  if (s.voice.style === 'encouraging' && (level === 'fair' || level === 'weak')) return `There is room to grow in ${DIM_NAMES[d]}`;
  return s.v.pick(`lead:${d}`, LEADS[d][level]);
}

function comment(d: DimensionKey, fs: Finding[], s: Say): string {
  if (s.ev.noEvidence) return d === 'integrity' ? 'No reading of this text could be heard in the recording.' : `There was no reading to judge ${DIM_NAMES[d]} from.`;
  const pace = d === 'fluency' && s.ev.pace === 'ok' ? s.v.pick('pace-ok', [' The pace was comfortable.', ' The speed was about right.']) : '';
  return `${lead(d, s, fs.filter((f) => f.kind !== 'target-emotion' || !f.target!.matched))}.${pace} ${sentences(fs.slice(0, 5).map((f) => clause(f, s)))}`.trim();
}

function suggestionsFor(d: DimensionKey, fs: Finding[], s: Say): Suggestion[] {
  if (s.ev.noEvidence) return d === 'integrity' ? [{ id: 'no-evidence', text: advise(s, 'ne', 'check that the right text is being read and record again close to the microphone') }] : [];
  const out: Suggestion[] = [];
  const add = (f: Finding | undefined, c: string) => f && out.push({ id: f.id, text: advise(s, f.id, c) });
  const skipped = ofKind(fs, 'skipped');
  add(skipped[0], `follow the text with a finger so that ${listEn(skipped.map((f) => nameRun(f.refs)))} is not missed`);
  add(ofKind(fs, 'unfinished')[0], 'read the text through to the end before submitting');
  const replaced = ofKind(fs, 'replaced');
  add(replaced[0], `read ${listEn(replaced.map((f) => nameRun(f.refs)))} exactly as written instead of another word`);
  add(ofKind(fs, 'inserted')[0], 'read exactly what is written, without adding words');
  const sounds = [...ofKind(fs, 'phone', 'misread'), ...ofKind(fs, 'unclear')];
  for (const f of sounds.slice(0, 2)) {
    const want = f.phone ? ipaOf(f.phone.expected) : null;
    add(f, want ? `say ${nameWord(f.refs[0])} slowly, paying attention to the ${want} sound, then say it again inside the sentence` : `listen to ${nameWord(f.refs[0])} in a dictionary and repeat it a few times`);
  }
  const tones = ofKind(fs, 'tone');
  for (const t of [...new Set(tones.map((f) => f.tone!.expected))].slice(0, 2)) {
    const group = tones.filter((f) => f.tone!.expected === t);
    add(group[0], `practise ${listEn(group.map((f) => nameWord(f.refs[0])))} with ${TONE_EN[t] ?? 'its own tone'}, saying the syllable alone before the whole phrase`);
  }
  const stress = ofKind(fs, 'stress');
  add(stress[0], `say ${listEn(stress.map((f) => nameWord(f.refs[0])))} with the stressed syllable louder and longer`);
  add(ofKind(fs, 'audio-quality')[0], 'record in a quiet room at a steady distance from the microphone');
  add(ofKind(fs, 'pace-fast')[0], '【语速】slow down a little and let each word finish before starting the next');
  add(ofKind(fs, 'pace-slow')[0], '【语速】read the text a few times until it is familiar, then keep words in a phrase together');
  const br = ofKind(fs, 'phrase-break')[0];
  if (br) add(br, `keep ${nameWord(br.refs[0])} and ${nameWord(br.refs[1])} together in the same breath`);
  add(ofKind(fs, 'repeated')[0], 'keep going after a slip instead of starting the phrase again');
  add(ofKind(fs, 'uneven')[0], 'keep a steady pace, phrase by phrase');
  const bounds = ofKind(fs, 'boundary');
  add(bounds[0], `pause briefly at the punctuation after ${listEn(bounds.map((f) => nameWord(f.refs[0])))}`);
  add(ofKind(fs, 'flat-pitch')[0], 'let the voice rise on important words and fall at the end of statements');
  add(ofKind(fs, 'rear-tone')[0], 'let the voice rise at the end of yes/no questions');
  add(ofKind(fs, 'flat-emotion')[0], 'think about how the speaker feels before reading, and let that show in the voice');
  add(ofKind(fs, 'target-emotion').find((f) => !f.target!.matched), 'listen to a model reading in the requested mood, then try again');
  if (out.length === 0 && (s.ev.levels[d] === 'fair' || s.ev.levels[d] === 'weak')) out.push({ id: `${d}-level`, text: advise(s, d, LEVEL_ADVICE[d]) });
  return out;
}

const LEVEL_ADVICE: Record<DimensionKey, string> = {
  integrity: 'read the whole text aloud, word by word, before recording',
  accuracy: 'slow down and make every sound in each word clear',
  fluency: 'practise the text until it can be read without stopping',
  reading_skill: 'group words into phrases and pause at punctuation',
  emotion: 'think about the meaning first and let it colour the voice',
};

const OPENERS: Record<Level, string[]> = {
  excellent: ['This was an excellent reading.', 'A very strong reading overall.'],
  good: ['This was a good reading overall.', 'A solid reading overall.'],
  fair: ['The reading got through the text, with some clear points to work on.', 'A fair reading with a few things to improve.'],
  weak: ['This reading needs more practice.', 'There is quite a lot to work on in this reading.'],
};

function summary(order: DimensionKey[], byDim: Record<DimensionKey, Finding[]>, s: Say): string {
  if (s.ev.noEvidence) return 'No reading of the text could be heard in this recording; please check the text and record again.';
  const e = s.ev;
  // Over the dimensions judged here (all of them, except delivery for a single word), weights renormalised.
  const total = order.reduce((a, d) => a + e.weights[d] * e.scores[d], 0) / Math.max(1e-9, order.reduce((a, d) => a + e.weights[d], 0));
  const level: Level = total >= 90 ? 'excellent' : total >= 75 ? 'good' : total >= 60 ? 'fair' : 'weak';
  const opener = s.voice.style === 'lively' && (level === 'excellent' || level === 'good') ? s.v.pick('open', OPENERS[level]).replace(/\.$/, ' — well done!') : s.v.pick('open', OPENERS[level]);
  const issueDim = order.find((d) => byDim[d].some((f) => clause(f, s) !== '' && !(f.kind === 'target-emotion' && f.target!.matched)) || e.levels[d] === 'fair' || e.levels[d] === 'weak');
  const top = issueDim ? byDim[issueDim].find((f) => clause(f, s) !== '') : undefined;
  const issue = issueDim ? `The main thing to work on is ${DIM_NAMES[issueDim]}${top ? `: ${clause(top, s)}` : ''}.` : '';
  const strong = order.filter((d) => d !== issueDim && byDim[d].length === 0 && (e.levels[d] === 'excellent' || e.levels[d] === 'good')).slice(-2).reverse();
  const who = SUBJECT[s.voice.audience];
  const verbs = strong.length > 1 ? ['deserve credit', 'stood out', 'were good'] : ['deserves credit', 'stood out', 'was good'];
  const praise = strong.length ? `${cap(who === 'you' ? 'your' : `${who}'s`)} ${listEn(strong.map((d) => DIM_NAMES[d]))} ${s.v.pick('praise', verbs)}.` : '';
  const focusFirst = s.voice.focus.length > 0;
  const fd = s.voice.focus[0];
  const focusLine = focusFirst && fd !== issueDim ? `On ${DIM_NAMES[fd]}: ${LEADS[fd][e.levels[fd]][0].toLowerCase()}.` : '';
  const asked = s.voice.focusText ? `About “${s.voice.focusText}”: see the specific suggestions below.` : '';
  const reminder = s.voice.reminder ? `Reminder: ${s.voice.reminder.replace(/[.!。！]*$/, '')}.` : '';
  const closer = { warm: '', direct: '', encouraging: s.v.pick('close', ['Keep it up!', 'Keep practising; it is paying off.']), lively: 'Keep going — the next reading will be even better!' }[s.voice.style];
  const body = s.voice.style === 'direct' ? [focusLine, issue, praise] : focusFirst ? [focusLine, issue, opener, praise] : [opener, praise, issue];
  return [...body, asked, reminder, closer].filter(Boolean).join(' ');
}

const NEXT: Record<DimensionKey, string> = {
  integrity: 'keep reading every word, and try a longer passage next',
  accuracy: 'keep this clear pronunciation going with a text of harder words',
  fluency: 'try a longer passage at the same smooth pace',
  reading_skill: 'give key words a little more stress to shape each phrase',
  emotion: 'read the same text in a different mood to widen the range of the voice',
};

const notJudgedEn = () => 'Not assessed for a single word or letter, which is judged on completeness and pronunciation only.';

export const englishBank: PhraseBank = { comment, suggestions: suggestionsFor, summary, notJudged: notJudgedEn, nextStep: (d, s) => ({ id: `${d}-next`, text: advise(s, `next:${d}`, NEXT[d]) }) };
