// A client written only from the published NPLT v2 description: header
// Type u8 | Seq u16 BE | Len u16 BE, CHAT_TEXT 0x01, AGENT_THOUGHT 0x0A,
// FILE_DATA 0x0D, FILE_METADATA 0x0E. It knows nothing of opsassist's
// extensions. Usage: node nplt_v2_client.mjs HOST:PORT FILE
// It greets, chats, uploads FILE, and prints one JSON line with what it saw.
import net from "node:net";
import fs from "node:fs";
import path from "node:path";

const CHAT_TEXT = 0x01, AGENT_THOUGHT = 0x0a, FILE_DATA = 0x0d, FILE_METADATA = 0x0e;
const KNOWN = new Set([0x01, 0x0a, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x14, 0x15, 0x16, 0x17]);

const [hostport, file] = process.argv.slice(2);
const [host, port] = [hostport.slice(0, hostport.lastIndexOf(":")), Number(hostport.slice(hostport.lastIndexOf(":") + 1))];

let seq = 0;
function encode(type, data) {
  const h = Buffer.alloc(5);
  h.writeUInt8(type, 0);
  h.writeUInt16BE(seq, 1);
  h.writeUInt16BE(data.length, 3);
  seq = (seq + 1) % 65536;
  return Buffer.concat([h, data]);
}

const sock = net.connect(port, host);
let buf = Buffer.alloc(0);
const waiters = [];
const frames = [];
sock.on("data", (d) => {
  buf = Buffer.concat([buf, d]);
  while (buf.length >= 5) {
    const len = buf.readUInt16BE(3);
    if (buf.length < 5 + len) break;
    const f = { type: buf.readUInt8(0), seq: buf.readUInt16BE(1), data: buf.subarray(5, 5 + len) };
    buf = buf.subarray(5 + len);
    if (!KNOWN.has(f.type)) fail(`unknown message type 0x${f.type.toString(16)}`);
    frames.push(f);
  }
  while (waiters.length && frames.length) waiters.shift()(frames.shift());
});
sock.on("error", (e) => fail(String(e)));
setTimeout(() => fail("timeout"), 20000).unref();

function fail(msg) {
  console.log(JSON.stringify({ ok: false, error: msg }));
  process.exit(1);
}
function next() {
  return new Promise((resolve) => (frames.length ? resolve(frames.shift()) : waiters.push(resolve)));
}
// readText reads CHAT_TEXT frames like the published client when it is not
// streaming: it takes the first non-empty text, ignoring empty frames and
// heartbeats.
async function readText() {
  for (;;) {
    const f = await next();
    const t = f.data.toString("utf8");
    if (f.type === CHAT_TEXT && t !== "" && t !== "HEARTBEAT") return t;
  }
}
// readStream reads a streamed reply: stream_start, statuses, chunks, then
// the empty CHAT_TEXT.
async function readStream() {
  let started = false, text = "";
  const statuses = [];
  for (;;) {
    const f = await next();
    if (f.type === AGENT_THOUGHT) {
      const s = JSON.parse(f.data.toString("utf8"));
      if (s.type === "stream_start") started = true;
      else statuses.push(s.type);
      continue;
    }
    if (f.type !== CHAT_TEXT) continue;
    const t = f.data.toString("utf8");
    if (t === "HEARTBEAT") continue;
    if (t === "") {
      if (started) return { started, statuses, text };
      continue; // end of a non-streamed reply (the greeting)
    }
    text += t;
  }
}

const greeting = await readText();
sock.write(encode(CHAT_TEXT, Buffer.from("系统资源使用情况如何？", "utf8")));
const reply = await readStream();

const data = fs.readFileSync(file);
const meta = JSON.stringify({ filename: path.basename(file), size: data.length });
sock.write(encode(FILE_METADATA, Buffer.from(meta, "utf8")));
for (let off = 0; off < data.length; off += 60000) {
  sock.write(encode(FILE_DATA, data.subarray(off, off + 60000)));
}
const upload = await readText();
sock.end();
console.log(JSON.stringify({ ok: true, greeting, reply, upload }));
process.exit(0);
