// opsassist web client: chat over POST /api/chat (server-sent events read
// from a fetch stream), uploads with progress, download offers,
// permission and question cards (OpsCards), the conversation's session
// grants, sessions, model choice and a live system panel. Model output
// and file names are rendered through OpsMarkdown (escaped first) or
// textContent, never as raw HTML.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const md = window.OpsMarkdown;
  const cards = window.OpsCards;
  const t = window.OpsI18n.t;
  const fmtBytes = window.OpsI18n.fmtBytes;
  const fmtTime = window.OpsI18n.fmtTime;
  const state = {
    session: localStorage.getItem("opsassist.session") || "",
    busy: false,
    model: "",
    queue: [], // questions typed while an answer streams, sent in turn
    stopping: false, // the stop button was clicked for this answer
    skew: 0, // ms the server's clock is ahead of ours (for countdowns)
    models: {}, // name → GET /api/models details (provider, model, reachable…)
    offline: false, // the server did not answer the last /api/system poll
  };

  // ---- API helpers -------------------------------------------------------

  // toLogin leaves for the login form when the server answers 401: the
  // login cookie is gone or unknown (expired, or the server restarted).
  function toLogin(status) {
    if (status !== 401) return false;
    location.assign("/login");
    return true;
  }

  async function api(method, path, body) {
    const opts = { method: method, headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, opts);
    } catch (e) {
      // No answer at all: the browser's own text ("Failed to fetch") is
      // no message for the reader. No status: the caller can tell.
      throw new Error(t("conn_short"));
    }
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      toLogin(res.status);
      const err = new Error(data.message || res.statusText);
      err.status = res.status;
      err.code = data.code;
      throw err;
    }
    return data;
  }

  function setSession(id) {
    state.session = id || "";
    if (id) localStorage.setItem("opsassist.session", id);
    else localStorage.removeItem("opsassist.session");
  }

  // same-origin path of a download URL, so the login cookie goes with it
  // whatever host name the server put in the URL.
  function localPath(url) {
    try {
      const u = new URL(url, location.href);
      return u.pathname + u.search;
    } catch (e) {
      return url;
    }
  }

  // ---- messages ----------------------------------------------------------

  function hideEmpty() {
    const e = $("empty");
    if (e) e.remove();
  }

  function scrollDown() {
    const m = $("messages");
    m.scrollTop = m.scrollHeight;
  }

  function addUserMessage(text) {
    hideEmpty();
    const div = document.createElement("div");
    div.className = "msg user";
    const body = document.createElement("div");
    body.className = "bubble";
    body.textContent = text;
    div.appendChild(body);
    $("messages").appendChild(div);
    scrollDown();
  }

  // addAssistant returns a handle that streams text into a new message.
  function addAssistant() {
    hideEmpty();
    const div = document.createElement("div");
    div.className = "msg assistant streaming";
    const status = document.createElement("ul");
    status.className = "status-lines";
    const waiting = document.createElement("div"); // permission and question cards
    waiting.className = "cards";
    const body = document.createElement("div");
    body.className = "bubble markdown";
    // No empty bubble, ever: it shows with the answer's first text (or
    // "no answer" at the end), not under a card or the status lines.
    body.hidden = true;
    const extras = document.createElement("div");
    extras.className = "extras";
    div.append(status, waiting, body, extras);
    const pending = [];
    $("messages").appendChild(div);
    let text = "";
    let painting = false;
    let ended = false; // a paint still queued at the end changes nothing
    const paint = () => { if (ended) return; painting = false; body.hidden = !text; body.innerHTML = md.render(text); addCopyButtons(body); scrollDown(); };
    const card = (c) => { pending.push(c); waiting.appendChild(c.el); scrollDown(); };
    const ctx = () => ({
      session: state.session,
      skew: state.skew,
      post: (path, b) => api("POST", path, b),
      onAnswered: (d) => { if (d === "allow_session") refreshGrants(); },
    });
    return {
      el: div,
      delta(chunk) {
        text += chunk;
        if (!painting) { painting = true; requestAnimationFrame(paint); }
      },
      status(s) {
        const li = document.createElement("li");
        const failed = s.type === "tool_result" && s.success === false;
        li.className = "status " + (s.type || "") + (failed ? " failed" : "");
        if (failed && s.code) li.dataset.code = s.code;
        const label = document.createElement("span");
        // In the page's language (content_zh / content_en, the server's
        // reading of the agent's text), else as sent; a status without
        // text (a bare "thinking") is named by the page.
        const said = (window.OpsI18n.zh ? s.content_zh : s.content_en) || s.content;
        label.textContent = said || (window.OpsI18n.strings["status_" + s.type] ? t("status_" + s.type) : s.type);
        li.append(statusIcon(resultIcon(s)), label);
        if (s.type === "tool_result" && typeof s.full === "string" && s.full) {
          // The model got this output shortened: the complete one opens
          // here at once, as it does in a reloaded conversation.
          li.classList.add("tool-output");
          li.appendChild(fullOutput(String(s.content || "").split(" ")[0], s.full));
        }
        status.appendChild(li);
        scrollDown();
      },
      offer(o) { extras.appendChild(offerCard(o)); scrollDown(); },
      // toolOutput shows a recorded tool result: its name, and its full
      // output (saved in the session) behind an expander.
      toolOutput(m) {
        const li = document.createElement("li");
        const failed = recordedFailure(m.content);
        li.className = "status tool_result tool-output" + (failed ? " failed" : "");
        if (failed && failed.code) li.dataset.code = failed.code;
        const out = fullOutput(m.name, m.full || m.content || "");
        out.querySelector("summary").prepend(statusIcon(resultIcon({ type: "tool_result", success: !failed })));
        li.appendChild(out);
        status.appendChild(li);
        const o = recordedOffer(m.content);
        if (o) extras.appendChild(offerCard(o));
      },
      permission(p) { card(cards.permission(p, ctx())); },
      question(q) { card(cards.question(q, ctx())); },
      error(e) {
        const p = document.createElement("div");
        p.className = "error-line";
        const m = document.createElement("span");
        m.textContent = e.message || t("error");
        p.append(statusIcon("warn"), m);
        extras.appendChild(p);
        scrollDown();
      },
      // waiting marks a reply restored after a reload: its turn runs on
      // the server and waits for the cards below.
      waiting() {
        const p = document.createElement("div");
        p.className = "resumed-line muted";
        p.append(statusIcon("clock"), document.createTextNode(t("still_running")));
        status.before(p);
        body.hidden = true; // no empty bubble: the answer comes with the history
      },
      cancelled() {
        const p = document.createElement("div");
        p.className = "cancelled-line";
        p.textContent = t("stopped");
        extras.appendChild(p);
      },
      // end ends the reply; cards still pending go inactive (stopped: the
      // stop button withdrew them).
      end(stopped) {
        for (const c of pending) c.end(stopped);
        paint();
        ended = true;
        div.classList.remove("streaming");
        if (!text && !extras.childNodes.length && !pending.length) { body.textContent = t("no_answer"); body.hidden = false; }
        else body.hidden = !text; // no empty bubble above an error or a card
      },
      text() { return text; },
    };
  }

  // fullOutput is an expander with a tool call's complete output, as
  // text: "NAME · Full output (size)", the output in a <pre> when opened.
  function fullOutput(name, out) {
    const d = document.createElement("details");
    d.className = "full-output";
    const sum = document.createElement("summary");
    sum.title = t("full_output_title");
    sum.append(statusIcon("file"), document.createTextNode(t("full_output", name || "tool", fmtBytes(new Blob([out]).size))));
    const pre = document.createElement("pre");
    pre.textContent = out;
    d.append(sum, pre);
    return d;
  }

  // addCopyButtons puts a copy button on each code block in el; a click
  // on it is handled once for the page (copyCode).
  function addCopyButtons(el) {
    for (const pre of el.querySelectorAll("pre")) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "copy-btn";
      b.title = t("copy_title");
      b.append(statusIcon("copy"), document.createTextNode(t("copy")));
      pre.appendChild(b);
    }
  }

  // copyCode copies the code block of a clicked copy button: the
  // clipboard API, else a selection and execCommand for older browsers.
  async function copyCode(btn) {
    const code = btn.parentElement.querySelector("code");
    const text = code ? code.textContent : "";
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch (e) {
      const r = document.createRange();
      r.selectNodeContents(code);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(r);
      try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
      sel.removeAllRanges();
    }
    btn.lastChild.textContent = ok ? t("copied") : t("copy_failed");
    btn.classList.toggle("copied", ok);
  }

  // statusIcon is an inline SVG icon (icons.js): no emoji font needed.
  function statusIcon(kind) { return window.OpsIcons.icon(kind); }

  // resultIcon is the one icon rule for a status line, live (SSE status)
  // and reloaded (a recorded tool result) alike: a tool_result whose
  // success is false is a failed call — a red cross, not the green tick.
  function resultIcon(s) {
    return s.type === "tool_result" && s.success === false ? "failed" : s.type;
  }

  // recordedFailure reads a recorded tool result's content: the tools'
  // {"success": false, "code": …} envelope of a failed call gives
  // {code}; a success, or content that is not that envelope, gives null.
  function recordedFailure(content) {
    let v;
    try { v = JSON.parse(content); } catch (e) {
      // Cut short for the model: the envelope's start still tells.
      return /^\s*\{\s*"success"\s*:\s*false\b/.test(String(content || "")) ? { code: "" } : null;
    }
    if (!v || typeof v !== "object" || v.success !== false) return null;
    return { code: typeof v.code === "string" ? v.code : "" };
  }

  // recordedOffer is the download offer a recorded tool result made (the
  // download tool's output: a token and a file name), or null. Its link
  // is the same-origin download path; an expired offer gets no link.
  function recordedOffer(content) {
    let v;
    try { v = JSON.parse(content); } catch (e) { return null; }
    if (v && typeof v === "object" && v.output && typeof v.output === "object") v = v.output;
    if (!v || typeof v !== "object" || typeof v.download_token !== "string" || typeof v.filename !== "string") return null;
    if (!/^[\w-]{1,200}$/.test(v.download_token)) return null;
    const o = { filename: v.filename, file_size: Number(v.file_size) || 0, expires_at: v.expires_at, transport_mode: "http" };
    const exp = Date.parse(v.expires_at || "");
    if (isNaN(exp) || exp > Date.now() + state.skew) o.download_url = "/api/files/download/" + v.download_token;
    else o.expired = true;
    return o;
  }

  function offerCard(o) {
    const card = document.createElement("div");
    card.className = "offer";
    const name = document.createElement("span");
    name.className = "offer-name";
    name.append(statusIcon("file"), document.createTextNode(o.filename + " (" + fmtBytes(o.file_size || 0) + ")"));
    card.appendChild(name);
    if (o.download_url) {
      const a = document.createElement("a");
      a.className = "btn primary download-link";
      a.href = localPath(o.download_url);
      a.setAttribute("download", o.filename);
      a.append(statusIcon("download"), document.createTextNode(t("download")));
      card.appendChild(a);
    } else if (!o.expired) {
      const s = document.createElement("span");
      s.className = "muted";
      s.textContent = t("via", o.transport_mode || "?");
      card.appendChild(s);
    }
    if (o.expires_at) {
      const e = document.createElement("span");
      e.className = "muted small";
      e.textContent = o.expired ? t("expired") : t("expires", fmtTime(o.expires_at));
      card.appendChild(e);
    }
    return card;
  }

  // ---- chat (SSE over fetch) --------------------------------------------

  // parseSSE feeds complete events from buf to onEvent and returns the
  // unparsed rest.
  function parseSSE(buf, onEvent) {
    let idx;
    while ((idx = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, idx);
      buf = buf.slice(idx + 2);
      let type = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) type = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (!data.length) continue; // a comment (keep-alive)
      let payload = {};
      try { payload = JSON.parse(data.join("\n")); } catch (e) { continue; }
      onEvent(type, payload);
    }
    return buf;
  }

  // stop asks the server to stop the answer streaming now (POST
  // /api/sessions/{id}/cancel); the stream then ends with "end".
  async function stop() {
    if (!state.busy || !state.session || state.stopping) return;
    state.stopping = true;
    $("stop").disabled = true;
    try {
      await api("POST", "/api/sessions/" + state.session + "/cancel");
    } catch (e) {
      notice(t("stop_failed", e.message), true);
    }
  }

  // send asks text in the current conversation and streams the answer.
  // Nothing typed is lost: a question the server never answered (the
  // connection failed) goes back into the composer with the questions
  // queued behind it, and one sent to a conversation the server no
  // longer has (404: it restarted, or the conversation was deleted
  // elsewhere) is asked again in a new conversation, said so.
  async function send(text) {
    if (!text.trim()) return;
    if (state.busy) { // queued, not lost: sent when this answer ends
      state.queue.push(text);
      notice(t("queued", text.slice(0, 40)));
      return;
    }
    state.busy = true;
    state.stopping = false;
    $("send").disabled = true;
    $("stop").hidden = false;
    $("stop").disabled = !state.session;
    addUserMessage(text);
    const reply = addAssistant();
    let gone = false; // the conversation no longer exists: ask again in a new one
    let lost = false; // the connection failed: the question goes back to the composer
    try {
      if (!state.session && state.model && state.model !== state.defaultModel) {
        // The first message of a new chat on a model other than the
        // default: the conversation is created now, with that model.
        const s = await api("POST", "/api/sessions", { model: state.model });
        setSession(s.session_id);
      }
      const res = await fetch("/api/chat", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify({ message: text, session_id: state.session || undefined, client_type: "web" }),
      });
      if (!res.ok) {
        if (toLogin(res.status)) return;
        const e = await res.json().catch(() => ({}));
        if (res.status === 404 && state.session) {
          setSession("");
          gone = true;
          return;
        }
        reply.error(e);
        reply.end();
        return;
      }
      const date = Date.parse(res.headers.get("Date") || "");
      // The Date header has whole seconds: correct only a real skew.
      state.skew = !isNaN(date) && Math.abs(date - Date.now()) > 5000 ? date - Date.now() : 0;
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf = parseSSE(buf + dec.decode(value, { stream: true }), (type, d) => {
          switch (type) {
            case "stream_start":
              if (d.session_id && d.session_id !== state.session) { setSession(d.session_id); refreshSessions(); }
              if (!state.stopping) $("stop").disabled = false;
              break;
            case "status": reply.status(d); break;
            case "delta": reply.delta(d.text || ""); break;
            case "download_offer": reply.offer(d); break;
            case "permission_request": reply.permission(d); break;
            case "question": reply.question(d); break;
            case "error": reply.error(d); break;
            case "end": break;
          }
        });
      }
    } catch (e) {
      // e is the browser's own text ("Failed to fetch", "network error"):
      // the reader gets a sentence in the page's language instead.
      lost = !state.stopping;
      if (lost) reply.error({ message: t("conn_lost") });
      refreshSystem(); // shows the offline banner if the server is gone
    } finally {
      if (state.stopping) reply.cancelled();
      reply.end(state.stopping);
      state.busy = false;
      $("send").disabled = false;
      $("stop").hidden = true;
      if (gone) {
        clearMessages();
        notice(t("session_gone"));
      } else if (lost) {
        restoreComposer([text].concat(state.queue));
        state.queue = [];
      }
      refreshSessions();
      refreshFiles();
      const next = gone ? text : state.queue.shift();
      if (next !== undefined) send(next);
    }
  }

  // restoreComposer puts questions that were not answered back into the
  // composer, before anything typed there since.
  function restoreComposer(texts) {
    const input = $("input");
    const typed = input.value;
    input.value = texts.concat(typed ? [typed] : []).join("\n");
    input.dispatchEvent(new Event("input")); // grow to fit
    input.focus();
  }

  // ---- uploads -----------------------------------------------------------

  function upload(file) {
    return new Promise((resolve) => {
      const form = new FormData();
      if (state.session) form.append("session_id", state.session);
      form.append("file", file, file.name);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", "/api/files");
      const box = $("upload-progress");
      box.hidden = false;
      $("upload-name").textContent = file.name;
      $("upload-bar").value = 0;
      $("upload-pct").textContent = "0%";
      xhr.upload.onprogress = (ev) => {
        if (!ev.lengthComputable) return;
        const pct = Math.round((ev.loaded / ev.total) * 100);
        $("upload-bar").value = pct;
        $("upload-pct").textContent = pct + "%";
      };
      xhr.onload = () => {
        box.hidden = true;
        if (toLogin(xhr.status)) { resolve(); return; }
        let data = {};
        try { data = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
        if (xhr.status === 200) {
          if (data.session_id && data.session_id !== state.session) setSession(data.session_id);
          notice(t("uploaded", data.filename, fmtBytes(data.size)));
          refreshFiles();
          refreshSessions();
        } else {
          notice(t("upload_failed", data.message || xhr.statusText), true);
        }
        resolve();
      };
      xhr.onerror = () => { box.hidden = true; notice(t("upload_failed_net"), true); resolve(); };
      xhr.send(form);
    });
  }

  function notice(text, bad) {
    hideEmpty();
    const div = document.createElement("div");
    div.className = "notice" + (bad ? " bad" : "");
    const span = document.createElement("span");
    span.textContent = text;
    if (bad) div.appendChild(statusIcon("warn"));
    div.appendChild(span);
    $("messages").appendChild(div);
    scrollDown();
  }

  async function refreshFiles() {
    const ul = $("files");
    if (!state.session) { ul.replaceChildren(); return; }
    try {
      const data = await api("GET", "/api/files?session_id=" + encodeURIComponent(state.session));
      ul.replaceChildren(...data.files.map((f) => {
        const li = document.createElement("li");
        li.className = "file";
        li.title = "sha256 " + f.sha256;
        li.append(statusIcon("clip"), document.createTextNode(f.filename + " · " + fmtBytes(f.size)));
        li.addEventListener("click", () => { $("input").value = t("download_ask", f.filename); $("input").focus(); });
        return li;
      }));
    } catch (e) {
      ul.replaceChildren();
    }
  }

  // ---- sessions ----------------------------------------------------------

  // The sidebar lists the conversations a page at a time (GET
  // /api/sessions?limit=…, ?q= when the search box has text), newest
  // first; "Load more" fetches the next page with the list's opaque
  // cursor (next, passed back as before). listed is what the sidebar
  // shows: its search, the cursor of the page after it ("" on the last),
  // the total, and a generation that a newer refresh bumps, so an older
  // answer (a slow page, a superseded search) is dropped.
  const pageSize = 50;
  const listed = { q: "", next: "", total: 0, gen: 0 };

  function sessionsURL(q, limit, before) {
    let u = "/api/sessions?limit=" + limit;
    if (q) u += "&q=" + encodeURIComponent(q);
    if (before) u += "&before=" + encodeURIComponent(before);
    return u;
  }

  // refreshSessions (re)loads the list from its start: each conversation
  // with its title, an inline rename, Markdown and JSON export links,
  // delete, and a checkbox in select mode for the bulk delete.
  // Everything sits in the sidebar, which is the menu on a phone. A
  // refresh of the same search keeps as many rows as were shown (up to
  // the server's 500), so "Load more" is not undone by a rename.
  async function refreshSessions() {
    const q = $("session-search").value.trim();
    const shown = listed.q === q ? $("sessions").children.length : 0;
    const limit = Math.min(500, Math.max(pageSize, shown));
    const gen = ++listed.gen;
    let data;
    try { data = await api("GET", sessionsURL(q, limit, "")); } catch (e) { return; }
    if (gen !== listed.gen || q !== $("session-search").value.trim()) return; // a newer list is on its way
    const ul = $("sessions");
    const selecting = ul.classList.contains("selecting");
    const list = Array.isArray(data.sessions) ? data.sessions : [];
    ul.replaceChildren(...list.map((s) => sessionItem(s, selecting)));
    listed.q = q;
    listed.next = typeof data.next === "string" ? data.next : "";
    listed.total = Number(data.total) || list.length;
    $("sessions-empty").hidden = list.length > 0;
    $("sessions-empty").textContent = q ? t("no_match") : t("no_sessions");
    updateMore();
    updateBulk();
  }

  // moreSessions appends the next page of the list (the cursor of the
  // last one); a row already shown is not shown twice. A cursor the
  // server refuses (the list changed under it) reloads the list.
  async function moreSessions() {
    if (!listed.next) return;
    const gen = listed.gen;
    const btn = $("sessions-more");
    btn.disabled = true;
    let data;
    try {
      data = await api("GET", sessionsURL(listed.q, pageSize, listed.next));
    } catch (e) {
      btn.disabled = false;
      if (gen === listed.gen && (e.status === 400 || e.status === 404)) refreshSessions();
      return;
    }
    btn.disabled = false;
    if (gen !== listed.gen) return; // the list was reloaded meanwhile
    const ul = $("sessions");
    const selecting = ul.classList.contains("selecting");
    const have = new Set([...ul.children].map((li) => li.dataset.id));
    const list = Array.isArray(data.sessions) ? data.sessions : [];
    ul.append(...list.filter((s) => !have.has(s.session_id)).map((s) => sessionItem(s, selecting)));
    listed.next = typeof data.next === "string" ? data.next : "";
    listed.total = Number(data.total) || listed.total;
    updateMore();
    updateBulk();
  }

  // updateMore shows "Load more" while the list has a next page.
  function updateMore() {
    const btn = $("sessions-more");
    btn.hidden = !listed.next;
    btn.title = t("load_more_title", $("sessions").children.length, listed.total);
  }

  function iconButton(kind, cls, label) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "icon-btn " + cls;
    b.title = label;
    b.setAttribute("aria-label", label);
    b.appendChild(statusIcon(kind));
    return b;
  }

  function sessionItem(s, selecting) {
    const li = document.createElement("li");
    li.className = "session" + (s.session_id === state.session ? " active" : "");
    li.dataset.id = s.session_id;
    const name = s.title || t("new_session");
    if (selecting) {
      const cb = document.createElement("input");
      cb.type = "checkbox";
      cb.className = "pick";
      cb.setAttribute("aria-label", t("select_x", name));
      cb.addEventListener("click", (ev) => ev.stopPropagation());
      cb.addEventListener("change", updateBulk);
      li.appendChild(cb);
    }
    const title = document.createElement("span");
    title.className = "title";
    title.textContent = name;
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.textContent = s.session_id.slice(0, 8) + " · " + t("msgs", s.messages);
    const acts = document.createElement("span");
    acts.className = "session-actions";
    const ren = iconButton("pencil", "rename", t("rename_x", name));
    ren.addEventListener("click", (ev) => { ev.stopPropagation(); renameInline(li, s, title); });
    const exp = (fmt, label) => {
      const a = document.createElement("a");
      a.className = "icon-btn export export-" + fmt;
      a.href = "/api/sessions/" + encodeURIComponent(s.session_id) + "/export?format=" + fmt;
      a.setAttribute("download", "");
      a.title = t("export_fmt", label);
      a.setAttribute("aria-label", t("export_x", name, label));
      a.append(statusIcon("download"), document.createTextNode(label));
      a.addEventListener("click", (ev) => ev.stopPropagation());
      return a;
    };
    const del = iconButton("trash", "del", t("delete_x", name));
    del.addEventListener("click", async (ev) => {
      ev.stopPropagation();
      if (!confirm(t("confirm_delete", name))) return;
      await api("DELETE", "/api/sessions/" + s.session_id).catch(() => {});
      if (s.session_id === state.session) { setSession(""); clearMessages(); }
      refreshSessions(); refreshFiles();
    });
    acts.append(ren, exp("md", "MD"), exp("json", "JSON"), del);
    li.append(title, meta, acts);
    li.tabIndex = 0; // reachable by keyboard: Enter opens (or picks) it
    li.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && ev.target === li) { ev.preventDefault(); li.click(); } });
    li.addEventListener("click", () => {
      if (li.querySelector(".rename-input")) return;
      if (selecting) { const cb = li.querySelector(".pick"); cb.checked = !cb.checked; updateBulk(); return; }
      setMenu(false);
      switchTo(s.session_id);
    });
    if (s.session_id === state.session) $("session-title").textContent = name;
    return li;
  }

  // renameInline edits a conversation's title in place: Enter saves
  // (PATCH /api/sessions/{id} {"title"}; empty restores the derived
  // title), Esc or leaving the field cancels.
  function renameInline(li, s, title) {
    if (li.querySelector(".rename-input")) return;
    const input = document.createElement("input");
    input.type = "text";
    input.className = "rename-input";
    input.maxLength = 200;
    input.value = s.title || "";
    input.setAttribute("aria-label", t("new_title"));
    input.placeholder = t("new_title");
    title.replaceWith(input);
    input.focus();
    input.select();
    let done = false;
    const finish = async (save) => {
      if (done) return;
      done = true;
      if (save) {
        try {
          await api("PATCH", "/api/sessions/" + s.session_id, { title: input.value.trim() });
        } catch (e) {
          notice(t("rename_failed", e.message), true);
        }
      }
      refreshSessions();
    };
    input.addEventListener("click", (ev) => ev.stopPropagation());
    input.addEventListener("keydown", (ev) => {
      ev.stopPropagation(); // Esc cancels the rename, not the answer or the menu
      if (ev.key === "Enter" && !ev.isComposing) { ev.preventDefault(); finish(true); }
      else if (ev.key === "Escape") { ev.preventDefault(); finish(false); }
    });
    input.addEventListener("blur", () => finish(false));
  }

  // Select mode: a checkbox on each conversation and a bulk delete
  // (POST /api/sessions/delete) after a confirmation.
  function setSelecting(on) {
    $("sessions").classList.toggle("selecting", on);
    $("select-sessions").setAttribute("aria-pressed", String(on));
    $("bulk-bar").hidden = !on;
    refreshSessions();
  }

  function picked() {
    return [...document.querySelectorAll("#sessions .pick:checked")].map((cb) => cb.closest("li").dataset.id);
  }

  function updateBulk() {
    const n = picked().length;
    $("bulk-delete").disabled = n === 0;
    $("bulk-count").textContent = String(n);
  }

  async function bulkDelete() {
    const ids = picked();
    if (!ids.length) return;
    if (!confirm(t("confirm_bulk", ids.length))) return;
    try {
      const r = await api("POST", "/api/sessions/delete", { ids: ids });
      notice(t("deleted", (r.deleted || []).length));
    } catch (e) {
      notice(t("delete_failed", e.message), true);
    }
    if (ids.includes(state.session)) { setSession(""); clearMessages(); refreshFiles(); }
    setSelecting(false);
  }

  function clearMessages() {
    $("messages").replaceChildren();
    $("session-title").textContent = t("new_session");
  }

  async function switchTo(id) {
    setSession(id);
    clearMessages();
    refreshGrants();
    try {
      const h = await api("GET", "/api/sessions/" + id + "/history");
      // A turn's tool steps (assistant tool_calls, then "tool" results)
      // and its answer go into one reply, as they streamed; each result
      // keeps its full output (the message's "full", else its content)
      // behind an expander.
      let cur = null;
      const close = () => { if (cur) { cur.end(); cur = null; } };
      for (const m of h.messages) {
        const calls = m.tool_calls || [];
        if (m.role === "user") { close(); addUserMessage(m.content); }
        else if (m.role === "assistant" && (m.content || m.cancelled || calls.length)) {
          if (!cur) cur = addAssistant();
          for (const c of calls) cur.status({ type: "tool_call", content: c.name + " " + (c.arguments || "") });
          if (m.content) cur.delta(m.content);
          if (m.cancelled) cur.cancelled();
          if (!calls.length) close();
        } else if (m.role === "tool" && cur) cur.toolOutput(m);
      }
      close();
      const s = await api("GET", "/api/sessions/" + id);
      if (s.model) { $("model").value = s.model; showModelInfo(); }
      if (!state.busy) restorePending(id, s.messages);
    } catch (e) {
      if (e.status === 404) {
        setSession("");
        notice(t("session_gone_open"));
      }
    }
    refreshSessions();
    refreshFiles();
  }

  // ---- requests still waiting after a reload -----------------------------

  // restorePending shows again what a turn of conversation id, still
  // running unseen (the page was reloaded), waits for the user to answer
  // (GET /api/sessions/{id}/pending): its cards, with their remaining
  // time, answerable as before. It then follows the turn (a poll a
  // second): a request it asks later gets its card, and when the turn's
  // messages are saved (the conversation's count passes seen) the
  // conversation is loaded again with its answer.
  async function restorePending(id, seen) {
    let p;
    try { p = await api("GET", "/api/sessions/" + id + "/pending"); } catch (e) { return; }
    if (!p.permissions.length && !p.questions.length) return;
    const reply = addAssistant();
    reply.waiting();
    const shown = new Set();
    const show = (p) => {
      for (const r of p.permissions || []) if (!shown.has(r.request_id)) { shown.add(r.request_id); reply.permission(r); }
      for (const q of p.questions || []) if (!shown.has(q.request_id)) { shown.add(q.request_id); reply.question(q); }
    };
    show(p);
    let idle = 0; // polls in a row with nothing pending
    const follow = async () => {
      if (state.session !== id || state.busy) return; // the user went elsewhere
      try {
        const s = await api("GET", "/api/sessions/" + id);
        if (s.messages > seen) { reply.end(); switchTo(id); return; }
        const p = await api("GET", "/api/sessions/" + id + "/pending");
        show(p);
        idle = p.permissions.length || p.questions.length ? 0 : idle + 1;
      } catch (e) {
        if (e.status === 404) { reply.end(); return; }
      }
      // A turn that ended without saving (it failed) leaves nothing to
      // wait for: after two minutes with nothing pending, stop following.
      if (idle < 120) setTimeout(follow, 1000);
      else reply.end();
    };
    setTimeout(follow, 1000);
  }

  // newSession starts an empty chat: nothing is created on the server
  // until the first message is sent (send, with the chosen model).
  function newSession() {
    setSession("");
    state.model = $("model").value;
    clearMessages();
    refreshGrants();
    refreshSessions();
    refreshFiles();
  }

  // ---- session grants (allow_session) -----------------------------------

  function grantsOpen() { return !$("grants-panel").hidden; }

  function renderGrants(grants) {
    const ul = $("grants");
    ul.replaceChildren(...grants.map((g) => {
      const li = document.createElement("li");
      li.className = "grant";
      li.dataset.grant = g.id;
      const what = document.createElement("span");
      what.className = "grant-scope";
      what.textContent = g.scope || g.tool;
      what.title = g.tool + " · " + (g.granted_at ? fmtTime(g.granted_at, true) : "");
      const rm = document.createElement("button");
      rm.type = "button";
      rm.className = "btn small-btn danger revoke";
      rm.textContent = t("revoke");
      rm.setAttribute("aria-label", t("revoke_x", g.scope || g.tool));
      rm.addEventListener("click", async () => {
        rm.disabled = true;
        try {
          const r = await api("DELETE", "/api/sessions/" + state.session + "/permissions/" + encodeURIComponent(g.id));
          renderGrants(r.grants || []);
          notice(t("revoked", g.scope || g.tool));
        } catch (e) {
          notice(t("revoke_failed", e.message), true);
          refreshGrants();
        }
      });
      li.append(what, rm);
      return li;
    }));
    $("grants-empty").hidden = grants.length > 0;
  }

  // refreshGrants reloads the open panel: GET /api/sessions/{id}/permissions.
  async function refreshGrants() {
    if (!grantsOpen()) return;
    if (!state.session) { renderGrants([]); return; }
    try {
      const r = await api("GET", "/api/sessions/" + state.session + "/permissions");
      renderGrants(r.grants || []);
    } catch (e) {
      renderGrants([]);
    }
  }

  function toggleGrants() {
    const open = !grantsOpen();
    $("grants-panel").hidden = !open;
    $("grants-toggle").setAttribute("aria-expanded", String(open));
    if (open) refreshGrants();
  }

  // ---- models ------------------------------------------------------------

  // modelState is a model's reachability from GET /api/models details:
  // "ok", "down" (the probe failed: reason says why) or "unknown" (not
  // probed yet).
  function modelState(d) {
    if (!d) return "unknown";
    if (d.reachable) return "ok";
    return d.checked_at ? "down" : "unknown";
  }

  // modelLabel is a model's option text: its name, provider / model id
  // and, when the probe found it unreachable, a mark.
  function modelLabel(name, d) {
    if (name === "builtin") return t("builtin_label");
    let label = name;
    if (d && (d.provider || d.model)) label += " · " + (d.provider || "?") + " / " + (d.model || name);
    const st = modelState(d);
    if (st === "down") label += " — " + t("unreachable");
    else if (st === "unknown") label += " — " + t("not_checked");
    return label;
  }

  // showModelInfo writes the chosen model's provider, model id, base URL
  // and reachability under the picker.
  function showModelInfo() {
    const name = $("model").value;
    const d = state.models[name];
    const box = $("model-info");
    box.replaceChildren();
    if (!name) return;
    // With the server gone no model answers, whatever the last probe
    // said: the picker says so instead of a stale "reachable".
    const st = state.offline ? "offline" : name === "builtin" ? "ok" : modelState(d);
    box.className = "model-info model-" + st;
    const icon = { ok: "check", down: "warn", unknown: "clock", offline: "warn" }[st];
    const what = t({ ok: "reachable", down: "unreachable", unknown: "not_checked_yet", offline: "offline" }[st]);
    const line = document.createElement("div");
    line.append(statusIcon(icon), document.createTextNode(what));
    box.append(line);
    if (d && name !== "builtin") {
      const id = document.createElement("div");
      id.className = "model-id";
      id.textContent = (d.provider || "?") + " / " + (d.model || name) + (d.base_url ? " · " + d.base_url : "");
      id.title = id.textContent;
      box.append(id);
    }
    if (st === "down" && d.reason) {
      const why = document.createElement("div");
      why.className = "model-reason";
      why.textContent = d.reason;
      box.append(why);
    }
  }

  // loadModels fills the picker from GET /api/models; again (keep: the
  // current choice stays) before the picker opens, so probe results that
  // came in since show.
  async function loadModels(keep) {
    const before = $("model").value;
    try {
      const m = await api("GET", "/api/models");
      state.models = {};
      for (const d of m.details || []) state.models[d.name] = d;
      const sel = $("model");
      const label = (o, name) => {
        const d = state.models[name];
        o.textContent = modelLabel(name, d);
        o.dataset.state = name === "builtin" ? "ok" : modelState(d);
        o.title = d && d.reason ? d.reason : "";
      };
      if (keep === true && [...sel.options].map((o) => o.value).join("\n") === m.models.join("\n")) {
        // The same models: relabel in place, so an open picker stays open.
        for (const o of sel.options) label(o, o.value);
        showModelInfo();
        return;
      }
      sel.replaceChildren(...m.models.map((name) => {
        const o = document.createElement("option");
        o.value = name;
        label(o, name);
        return o;
      }));
      const cur = keep === true ? before : "";
      sel.value = cur && m.models.includes(cur) ? cur : m.default;
      state.defaultModel = m.default;
      if (keep !== true) state.model = sel.value;
      showModelInfo();
    } catch (e) { /* keep the empty list */ }
  }

  async function setModel() {
    const name = $("model").value;
    showModelInfo();
    const d = state.models[name];
    state.model = name;
    if (name !== "builtin" && modelState(d) === "down") {
      // Chosen all the same (it may come back), but said why at once:
      // a question to it now fails fast with this reason.
      notice(t("model_down", name, d.reason || "?"), true);
    }
    if (!state.session) return; // used when the first message creates the conversation (send)
    try {
      await api("POST", "/api/sessions/" + state.session + "/model", { model: name });
      notice(t("model_switched", name));
    } catch (e) {
      notice(e.message, true);
    }
  }

  // ---- system panel ------------------------------------------------------

  function gauge(key, pct, text) {
    const g = document.querySelector('.gauge[data-key="' + key + '"]');
    if (!g) return;
    const p = Math.max(0, Math.min(100, pct || 0));
    const fill = g.querySelector(".fill");
    fill.style.width = p + "%";
    fill.className = "fill" + (p > 90 ? " hot" : p > 70 ? " warm" : "");
    g.querySelector(".value").textContent = text;
  }

  // sizeOf is a /api/system capacity's total in the page's size format
  // (total_bytes), or the server's text from a server without it.
  function sizeOf(u) {
    return typeof u.total_bytes === "number" && u.total_bytes > 0 ? fmtBytes(u.total_bytes) : u.total;
  }

  async function refreshSystem() {
    try {
      const r = await api("GET", "/api/system");
      if (r.cpu && r.cpu.usage_percent != null) gauge("cpu", r.cpu.usage_percent, r.cpu.usage_percent.toFixed(1) + "%");
      if (r.memory && r.memory.total) gauge("memory", r.memory.usage_percent, t("of", r.memory.usage_percent.toFixed(1) + "%", sizeOf(r.memory)));
      if (r.disk && r.disk.total) gauge("disk", r.disk.usage_percent, t("of", r.disk.usage_percent.toFixed(1) + "%", sizeOf(r.disk)));
      $("sys-time").textContent = fmtTime(new Date());
      setOffline(false);
    } catch (e) {
      $("sys-time").textContent = t("offline");
      if (!e.status) setOffline(true); // no answer at all, not an HTTP error
    }
  }

  // setOffline shows or hides the offline banner and greys the gauges.
  function setOffline(off) {
    const was = state.offline;
    state.offline = off;
    if (was !== off) showModelInfo();
    $("offline-banner").hidden = !off;
    $("system").classList.toggle("offline", off);
    document.body.classList.toggle("offline", off);
  }

  // The sidebar is an overlay below 760 px, opened by the menu button.
  function setMenu(open) {
    document.querySelector(".app").classList.toggle("menu-open", open);
    $("sidebar-backdrop").hidden = !open;
    $("menu").setAttribute("aria-expanded", String(open));
  }
  const menuOpen = () => document.querySelector(".app").classList.contains("menu-open");

  // logout revokes the login cookie's session (POST /api/logout) and
  // goes to the login form.
  async function logout() {
    try {
      await api("POST", "/api/logout");
    } catch (e) {
      notice(t("logout_failed", e.message), true);
      return;
    }
    location.assign("/login");
  }

  // ---- wiring ------------------------------------------------------------

  function init() {
    const input = $("input");
    $("composer").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = input.value;
      input.value = "";
      autoGrow();
      send(text);
    });
    // Enter sends, Shift+Enter adds a line. An Enter that ends an IME
    // composition (isComposing; keyCode 229 where a browser reports it
    // so) picks the candidate and sends nothing. The Enter that sent
    // inserts no line break either: its keydown's default is prevented,
    // and any line break the same key still tries to insert (a browser
    // or a driver that delivers the key's text anyway) is refused until
    // the key comes up — the composer is empty after a send.
    let sentByEnter = false;
    input.addEventListener("keydown", (ev) => {
      sentByEnter = false;
      if (ev.key !== "Enter" || ev.shiftKey || ev.isComposing || ev.keyCode === 229) return;
      ev.preventDefault();
      sentByEnter = true;
      $("composer").requestSubmit();
    });
    input.addEventListener("beforeinput", (ev) => {
      if (sentByEnter && (ev.inputType === "insertLineBreak" || ev.inputType === "insertParagraph")) ev.preventDefault();
    });
    input.addEventListener("keyup", (ev) => { if (ev.key === "Enter") sentByEnter = false; });
    // A phone-wide composer gets the short placeholder, whole on one line.
    const narrow = matchMedia("(max-width: 760px)");
    const placeholder = () => { input.placeholder = t(narrow.matches ? "placeholder_short" : "placeholder"); };
    narrow.addEventListener("change", placeholder);
    placeholder();
    // It grows with its text up to 200 px and only then scrolls: no
    // scrollbar on a short or empty composer.
    const autoGrow = () => {
      input.style.height = "auto";
      input.style.height = Math.min(input.scrollHeight, 200) + "px";
      input.style.overflowY = input.scrollHeight > 200 ? "auto" : "hidden";
    };
    input.addEventListener("input", autoGrow);
    $("file-input").addEventListener("change", async (ev) => {
      for (const f of ev.target.files) await upload(f);
      ev.target.value = "";
    });
    const zone = $("drop-zone");
    let depth = 0;
    zone.addEventListener("dragenter", (ev) => { ev.preventDefault(); depth++; zone.classList.add("dragging"); });
    zone.addEventListener("dragover", (ev) => ev.preventDefault());
    zone.addEventListener("dragleave", () => { if (--depth <= 0) { depth = 0; zone.classList.remove("dragging"); } });
    zone.addEventListener("drop", async (ev) => {
      ev.preventDefault();
      depth = 0;
      zone.classList.remove("dragging");
      for (const f of ev.dataTransfer.files) await upload(f);
    });
    $("stop").addEventListener("click", stop);
    $("grants-toggle").addEventListener("click", toggleGrants);
    document.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape") return;
      if (grantsOpen()) { toggleGrants(); $("grants-toggle").focus(); return; }
      if (menuOpen()) { setMenu(false); $("menu").focus(); return; }
      if (state.busy) stop(); // Esc stops a streaming answer, like the stop button
    });
    $("new-session").addEventListener("click", () => { setMenu(false); newSession(); $("input").focus(); });
    $("menu").addEventListener("click", () => setMenu(!menuOpen()));
    $("messages").addEventListener("click", (ev) => {
      const b = ev.target.closest(".copy-btn");
      if (b) copyCode(b);
    });
    $("sidebar-backdrop").addEventListener("click", () => setMenu(false));
    let searchTimer = 0;
    $("session-search").addEventListener("input", () => { clearTimeout(searchTimer); searchTimer = setTimeout(refreshSessions, 250); });
    $("sessions-more").addEventListener("click", moreSessions);
    $("select-sessions").addEventListener("click", () => setSelecting(!$("sessions").classList.contains("selecting")));
    $("bulk-delete").addEventListener("click", bulkDelete);
    $("bulk-cancel").addEventListener("click", () => setSelecting(false));
    if (document.body.dataset.login === "cookie") {
      $("logout").hidden = false;
      $("logout").addEventListener("click", logout);
    }
    $("model").addEventListener("change", setModel);
    // Before the picker opens (a click or tap, or focus from the
    // keyboard), newer probe results relabel its options.
    let relabelled = 0;
    const relabel = () => { if (Date.now() - relabelled > 2000) { relabelled = Date.now(); loadModels(true); } };
    $("model").addEventListener("pointerdown", relabel);
    $("model").addEventListener("focus", relabel);
    // The conversation the page opened with is shown once the models are
    // in (its model picks one of them). A question sent before that has
    // its reply streaming on screen, in that conversation or in a new one
    // (state.session set by stream_start): loading a conversation now
    // would clear that reply, cards and all, so only the list is loaded.
    const opened = state.session;
    loadModels().then(() => (opened && state.session === opened && !state.busy ? switchTo(opened) : refreshSessions()));
    refreshSystem();
    setInterval(refreshSystem, 5000);
  }

  document.addEventListener("DOMContentLoaded", init);
})();
