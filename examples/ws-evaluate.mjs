// Native real-time evaluation over WebSocket: start, stream a WAV file in 100 ms chunks, end,
// print the result. Usage: node examples/ws-evaluate.mjs <token> <file.wav> <referenceText> [language]
//   KOUYU_WS  service address (default ws://localhost:8080)
import fs from 'node:fs';
import WebSocket from 'ws';

const [token, file, referenceText, language = 'zh-CN'] = process.argv.slice(2);
const base = process.env.KOUYU_WS ?? 'ws://localhost:8080';
const audio = fs.readFileSync(file);
const ws = new WebSocket(`${base}/api/v1/ws/evaluate?token=${encodeURIComponent(token)}`);

ws.on('message', (data) => {
  const frame = JSON.parse(String(data));
  if (frame.event === 'connected') {
    ws.send(JSON.stringify({ cmd: 'start', coreType: 'sentence', language, referenceText }));
  } else if (frame.event === 'started') {
    for (let i = 0; i < audio.length; i += 3200) ws.send(audio.subarray(i, i + 3200)); // 100 ms of 16 kHz 16-bit
    ws.send(JSON.stringify({ cmd: 'end' }));
  } else if (frame.event === 'result') {
    console.log(`recordId ${frame.recordId}, overall ${frame.result.overall}`);
    ws.close();
  } else if (frame.event === 'error') {
    console.error(`error ${frame.code ?? ''}: ${frame.message}`);
    process.exitCode = 1;
    ws.close();
  }
});
