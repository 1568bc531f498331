import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  canonicalPayload,
  evaluatePayloads,
  formPayload,
  handshakePayload,
  matchesAny,
  plainDecimal,
  sign,
  topLevelScalars,
  type FormTextPart,
} from '../../src/auth/signature.js';
import { REPO_ROOT } from '../helpers/app.js';

interface Vector {
  name: string;
  kind: 'compat' | 'evaluate' | 'tts' | 'handshake' | 'empty';
  form?: 'primary' | 'alternative';
  secret: string;
  input: { parts?: FormTextPart[]; config?: string; bodyText?: string; query?: Record<string, string> };
  payload: string;
  signature: string;
}

const file = path.join(REPO_ROOT, 'test', 'fixtures', 'signature-vectors.json');
const { vectors } = JSON.parse(fs.readFileSync(file, 'utf8')) as { vectors: Vector[] };

function payloadOf(v: Vector): string {
  switch (v.kind) {
    case 'compat':
      return formPayload(v.input.parts ?? []);
    case 'evaluate': {
      const [primary, alternative] = evaluatePayloads(v.input.parts ?? [], v.input.config ?? null, false);
      return v.form === 'alternative' ? alternative : primary;
    }
    case 'tts':
      return canonicalPayload(topLevelScalars(JSON.parse(v.input.bodyText ?? '{}')));
    case 'handshake':
      return handshakePayload(v.input.query ?? {});
    case 'empty':
      return canonicalPayload({});
  }
}

test('the conformance file covers every case the spec names', () => {
  assert.ok(vectors.length >= 12);
  for (const kind of ['compat', 'evaluate', 'tts', 'handshake', 'empty']) {
    assert.ok(vectors.some((v) => v.kind === kind), `a ${kind} vector`);
  }
  assert.ok(vectors.some((v) => v.kind === 'evaluate' && v.form === 'alternative'));
});

for (const v of vectors) {
  test(`vector: ${v.name}`, () => {
    assert.equal(payloadOf(v), v.payload);
    assert.equal(sign(v.payload, v.secret), v.signature);
    assert.ok(matchesAny(v.signature, [v.payload], v.secret));
  });
}

test('a tampered payload or signature does not match', () => {
  const v = vectors[0];
  assert.equal(matchesAny(v.signature, [v.payload + 'x'], v.secret), false);
  assert.equal(matchesAny(v.signature.slice(0, -2) + 'AA', [v.payload], v.secret), false);
  assert.equal(matchesAny(v.signature, [v.payload], v.secret + '1'), false);
  assert.equal(matchesAny('', [v.payload], v.secret), false);
});

test('the evaluate alternative form is the only one when config came as a file', () => {
  const payloads = evaluatePayloads([], '{"coreType":"word","referenceText":"hi"}', true);
  assert.deepEqual(payloads, ['coreType=word&referenceText=hi']);
});

test('plain decimals never use an exponent', () => {
  assert.equal(plainDecimal(1e21), '1000000000000000000000');
  assert.equal(plainDecimal(1.5e-7), '0.00000015');
  assert.equal(plainDecimal(-2.5e-8), '-0.000000025');
  assert.equal(plainDecimal(1.25e22), '12500000000000000000000');
  assert.equal(plainDecimal(0.1), '0.1');
  assert.equal(plainDecimal(100), '100');
});
