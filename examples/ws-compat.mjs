// Legacy-protocol real-time evaluation over WebSocket with live feedback: signs the handshake,
// sends the parameter frame with realtime_feedback on, streams a WAV file at real-time pace
// (640 bytes = 20 ms of 16 kHz 16-bit mono per frame), prints each intermediate result as it
// arrives, then the final result.
// Usage: node examples/ws-compat.mjs <appKey> <secretKey> <file.wav> <refText> [coreType]
//   coreType  a compat kind (default sent.eval.cn; English: sent.eval, word.eval, …)
//   KOUYU_WS  service address (default ws://localhost:8080)
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import WebSocket from 'ws';

const [appKey, secretKey, file, refText, coreType = 'sent.eval.cn'] = process.argv.slice(2);
const base = process.env.KOUYU_WS ?? 'ws://localhost:8080';
const audio = fs.readFileSync(file);

// Handshake signature: every query parameter but `signature`, sorted by name, joined as
// k=v&k=v without URL encoding, HMAC-SHA256 with the secret, Base64.
const query = { appKey, timestamp: String(Math.floor(Date.now() / 1000)), nonce: randomBytes(8).toString('hex') };
const payload = Object.keys(query).sort().map((k) => `${k}=${query[k]}`).join('&');
const signature = createHmac('sha256', secretKey).update(payload, 'utf8').digest('base64');
const ws = new WebSocket(`${base}/${coreType}?${new URLSearchParams({ ...query, signature })}`);

let progressFrames = 0;
ws.on('message', async (data) => {
  const frame = JSON.parse(String(data));
  if (frame.event === 'connected') {
    ws.send(JSON.stringify({ refText, realtime_feedback: true }));
  } else if (frame.event === 'started') {
    for (let i = 0; i < audio.length; i += 640) {
      ws.send(audio.subarray(i, i + 640));
      await new Promise((r) => setTimeout(r, 20));
    }
    ws.send(JSON.stringify({ cmd: 'end' }));
  } else if (frame.event === 'error') {
    console.error(`error ${frame.code ?? ''}: ${frame.message}`);
    process.exitCode = 1;
    ws.close();
  } else if (frame.eof === 0 && frame.tokenId !== undefined) {
    // Intermediate result: the words newly read, 100 when heard as the reference, 0 otherwise.
    const words = frame.result.words.map((w) => `${w.word}:${w.scores.overall}`).join(' ');
    console.log(`interim read ${frame.result.readUnits}/${frame.result.totalUnits}: ${words}`);
  } else if (frame.eof === 0) {
    progressFrames++; // {eof:0, result:{bytes}}: audio received so far
  } else if (frame.eof === 1) {
    console.log(`(${progressFrames} progress frames)`);
    console.log(`compat ws recordId ${frame.recordId}, overall ${frame.result.overall}`);
    ws.close();
  }
});
