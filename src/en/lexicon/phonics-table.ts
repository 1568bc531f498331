/**
 * Common English grapheme → phoneme correspondences for the phonics aligner, in ARPAbet.
 * Compiled from the phonics teaching literature's grapheme-phoneme correspondence charts
 * (e.g. the UK "Letters and Sounds" programme and Carney, A Survey of English Spelling, 1994),
 * written here as pairs: a grapheme and the phone sequences it commonly spells ('' = silent).
 */
export const GRAPHEME_PHONES: Readonly<Record<string, readonly string[]>> = {
  // consonants
  b: ['B'], bb: ['B'], c: ['K', 'S', 'SH', 'CH'], cc: ['K', 'K S'], ck: ['K'], ch: ['CH', 'K', 'SH'],
  d: ['D', 'T', 'JH'], dd: ['D'], dg: ['JH'], dge: ['JH'], f: ['F', 'V'], ff: ['F'],
  g: ['G', 'JH', 'ZH'], gg: ['G'], gh: ['G', 'F', ''], gn: ['N'], gu: ['G', 'G W'],
  h: ['HH', ''], j: ['JH'], k: ['K'], kn: ['N'], l: ['L'], ll: ['L'], le: ['AH L', 'L'],
  m: ['M'], mm: ['M'], mb: ['M'], mn: ['M'], n: ['N', 'NG'], nn: ['N'], ng: ['NG', 'NG G', 'N JH'],
  p: ['P'], pp: ['P'], ph: ['F'], ps: ['S'], q: ['K'], qu: ['K W', 'K'], r: ['R'], rr: ['R'],
  rh: ['R'], wr: ['R'], s: ['S', 'Z', 'SH', 'ZH'], ss: ['S', 'SH'], sh: ['SH'], si: ['ZH', 'SH'],
  sc: ['S', 'S K'], se: ['S', 'Z'], t: ['T', 'SH', 'CH', 'D'], tt: ['T'], th: ['TH', 'DH'],
  tch: ['CH'], ti: ['SH'], ci: ['SH'], v: ['V'], ve: ['V'], w: ['W'], wh: ['W', 'HH'],
  x: ['K S', 'G Z', 'Z', 'K SH'], y: ['Y'], z: ['Z', 'ZH'], zz: ['Z'], ze: ['Z'],
  // vowels
  a: ['AE', 'EY', 'AA', 'AH', 'AO', 'EH', 'IH'], ai: ['EY', 'EH'], ay: ['EY'], au: ['AO', 'AA'],
  aw: ['AO', 'AA'], augh: ['AO', 'AA', 'AE F'], ar: ['AA R', 'ER', 'AO R', 'EH R'],
  are: ['EH R', 'AA R'], air: ['EH R'], al: ['AO L', 'AA L', 'AA', 'AH L'],
  e: ['EH', 'IY', 'IH', 'AH', ''], ee: ['IY'], ea: ['IY', 'EH', 'EY'], ei: ['EY', 'IY', 'AY'],
  ey: ['EY', 'IY'], eu: ['UW', 'Y UW'], ew: ['UW', 'Y UW'], er: ['ER'], ear: ['IH R', 'ER', 'EH R'],
  eer: ['IH R'], ere: ['IH R', 'IY R', 'EH R'], eau: ['OW', 'Y UW'],
  i: ['IH', 'AY', 'IY', 'AH'], ie: ['IY', 'AY'], igh: ['AY'], ir: ['ER'], ire: ['AY ER', 'AY R'],
  o: ['AA', 'OW', 'AH', 'UW', 'AO', 'UH'], oa: ['OW'], oe: ['OW', 'UW'], oi: ['OY'], oy: ['OY'],
  oo: ['UW', 'UH', 'AH'], ou: ['AW', 'UW', 'AH', 'OW', 'UH'], ough: ['AO', 'OW', 'UW', 'AW', 'AH F', 'AO F'],
  ow: ['OW', 'AW'], or: ['AO R', 'ER'], ore: ['AO R'], oor: ['AO R', 'UH R'], our: ['AW ER', 'AO R', 'ER'],
  u: ['AH', 'UW', 'Y UW', 'UH', 'IH'], ue: ['UW', 'Y UW'], ui: ['UW', 'IH'], ur: ['ER'],
  ure: ['ER', 'Y UH R'], y_vowel: ['IY', 'AY', 'IH'],
};
