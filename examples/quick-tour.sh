#!/usr/bin/env bash
# A tour of the HTTP interfaces against a running Kouyu (npm start), using only curl, openssl
# and node. Creates a key, synthesises a model reading, evaluates it natively and through
# the compat protocol, looks the record up again, lists the day's usage, and evaluates it
# again in real time on both WebSocket channels (examples/ws-evaluate.mjs, ws-compat.mjs).
#   KOUYU_URL   service address (default http://localhost:8080)
# Run from the repository (the admin command shares the server's data directory).
set -euo pipefail
URL=${KOUYU_URL:-http://localhost:8080}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=JSON.parse(s);console.log($1)})"; }

echo "# 1. a key, a secret and a console login"
npm run --silent admin -- create-key --tier standard --json > "$work/key.json"
APP_KEY=$(json v.appKey < "$work/key.json")
SECRET=$(json v.secretKey < "$work/key.json")
USERNAME=$(json v.username < "$work/key.json")
PASSWORD=$(json v.password < "$work/key.json")

echo "# 2. a model reading from TTS (envelope style), downloaded without credentials"
curl -sf "$URL/api/v1/tts/generate" -H "X-App-Key: $APP_KEY" -H 'Content-Type: application/json' \
  -d '{"text":"我们明天去银行办事。","language":"zh-CN","voice":"female","format":"wav"}' > "$work/tts.json"
AUDIO_URL=$(json v.data.audioUrl < "$work/tts.json")
curl -sf -o "$work/reading.wav" "$URL$AUDIO_URL"

echo "# 3. native evaluation (bare result, API key)"
curl -sf "$URL/api/v1/evaluate" -H "X-App-Key: $APP_KEY" \
  -F "audio=@$work/reading.wav" \
  -F 'config={"coreType":"sentence","language":"zh-CN","referenceText":"我们明天去银行办事。"};type=application/json' \
  > "$work/eval.json"
RECORD_ID=$(json v.recordId < "$work/eval.json")
json '`overall ${v.result.overall}, words ${v.result.words.map(w=>w.word+":"+w.readStatus).join(" ")}`' < "$work/eval.json"

echo "# 4. compat evaluation (signature scheme: every text part, sorted, HMAC-SHA256, Base64)"
ts=$(date +%s); nonce=$(openssl rand -hex 8)
payload="language=zh-CN&refText=我们明天去银行办事。&timing=1"
sig=$(printf %s "$payload" | openssl dgst -sha256 -hmac "$SECRET" -binary | base64)
curl -sf "$URL/sent.eval.cn" -H "X-App-Key: $APP_KEY" -H "X-Timestamp: $ts" -H "X-Nonce: $nonce" -H "X-Signature: $sig" \
  -F language=zh-CN -F "refText=我们明天去银行办事。" -F timing=1 -F "audio=@$work/reading.wav" > "$work/compat.json"
json '`compat overall ${v.result.overall}, engine ${v.timing.engineMs} ms`' < "$work/compat.json"

echo "# 5. the stored record (envelope style)"
curl -sf "$URL/api/v1/report/$RECORD_ID" -H "X-App-Key: $APP_KEY" | json '`record ${v.data.recordId}: overall ${v.data.score.overall}`'

echo "# 6. console: log in, read today's usage"
TOKEN=$(curl -sf "$URL/api/v1/auth/login" -H 'Content-Type: application/json' \
  -d "{\"username\":\"$USERNAME\",\"password\":\"$PASSWORD\"}" | json v.data.accessToken)
curl -sf "$URL/api/v1/console/usage" -H "Authorization: Bearer $TOKEN" | json 'JSON.stringify(v.data.totals)'

echo "# 7. real-time evaluation over WebSocket (Node)"
KOUYU_WS=${URL/http/ws} node examples/ws-evaluate.mjs "$TOKEN" "$work/reading.wav" "我们明天去银行办事。" zh-CN

echo "# 8. legacy-protocol real time with live feedback (Node, signed handshake)"
KOUYU_WS=${URL/http/ws} node examples/ws-compat.mjs "$APP_KEY" "$SECRET" "$work/reading.wav" "我们明天去银行办事。" sent.eval.cn
echo "# done"
