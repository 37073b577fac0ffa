// opsassist web client: the cards a reply shows while the server waits
// for the user — a permission request (SSE permission_request) and a
// question from the ask_user tool (SSE question). Card owns what the two
// share: the countdown to expires_at, answering once by POST, the
// answer's outcome (200, or 404/409/410 told in a short line), and going
// inactive when answered, expired, or when the reply ends. Server data is
// only ever set as textContent; icons are inline SVG (OpsIcons), never
// emoji.
"use strict";

window.OpsCards = (function () {
  const icon = (kind) => window.OpsIcons.icon(kind);
  const t = window.OpsI18n.t;

  // setLine sets e to an icon of kind (if any) and text.
  function setLine(e, kind, text) {
    e.replaceChildren();
    if (kind) e.append(icon(kind));
    e.append(document.createTextNode(text));
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // fmtLeft formats a duration in ms as m:ss, rounded up.
  function fmtLeft(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  // Card is one pending request in a reply. opts: kind ("permission",
  // "question"), icon (an OpsIcons kind), title, expiresAt (RFC 3339), skew (ms the server's
  // clock is ahead of the browser's), post(path, body) → Promise (rejects
  // with an Error carrying status), and texts: {expired, ended, stopped,
  // 404, 409, 410} for the ways it can go inactive unanswered.
  class Card {
    constructor(opts) {
      this.opts = opts;
      this.state = "pending"; // pending → sending → done
      this.buttons = [];
      this.expires = Date.parse(opts.expiresAt || "");
      this.el = el("div", "card card-" + opts.kind + " pending");
      this.el.setAttribute("role", "group");
      this.el.setAttribute("aria-label", opts.title);
      const head = el("div", "card-head");
      const title = el("span", "card-title");
      setLine(title, opts.icon, opts.title);
      head.append(title);
      this.countdown = el("span", "card-countdown");
      this.countdown.setAttribute("aria-hidden", "true");
      head.append(this.countdown);
      this.body = el("div", "card-body");
      this.actions = el("div", "card-actions");
      this.status = el("div", "card-status");
      this.status.setAttribute("role", "status");
      this.status.setAttribute("aria-live", "polite");
      this.el.append(head, this.body, this.actions, this.status);
      if (!isNaN(this.expires)) {
        this.timer = setInterval(() => this.tick(), 1000);
      }
      this.tick();
    }

    // left is the time until the request expires, by the server's clock.
    left() {
      if (isNaN(this.expires)) return Infinity;
      return this.expires - (Date.now() + (this.opts.skew || 0));
    }

    tick() {
      if (this.state === "done") return;
      const left = this.left();
      if (left === Infinity) { this.countdown.textContent = ""; return; }
      if (left <= 0 && this.state === "pending") {
        this.finish("expired", this.opts.texts.expired);
        return;
      }
      setLine(this.countdown, "clock", fmtLeft(left));
      this.countdown.title = t("time_left");
      this.countdown.classList.toggle("urgent", left < 15000);
    }

    // button adds an answer button; onClick runs while the card is pending.
    button(label, cls, onClick) {
      const b = el("button", "btn " + (cls || ""), label);
      b.type = "button";
      b.addEventListener("click", () => { if (this.state === "pending") onClick(b); });
      this.buttons.push(b);
      this.actions.append(b);
      return b;
    }

    setEnabled(on) {
      for (const b of this.buttons) b.disabled = !on;
      for (const i of this.el.querySelectorAll("input")) i.disabled = !on;
    }

    // answer posts body to path once; shown is the status line on success
    // (with icon shownIcon, else a tick).
    // It resolves true when the server took the answer.
    async answer(path, body, shown, chosen, shownIcon) {
      if (this.state !== "pending") return false;
      // A keyboard user's focus stays on the card once its buttons are
      // disabled, so the outcome is read out and Tab goes on from here.
      const hadFocus = this.el.contains(document.activeElement);
      this.state = "sending";
      this.setEnabled(false);
      if (hadFocus) { this.el.tabIndex = -1; this.el.focus({ preventScroll: true }); }
      if (chosen) chosen.classList.add("chosen");
      this.status.className = "card-status";
      this.status.textContent = t("sending");
      try {
        await this.opts.post(path, body);
      } catch (e) {
        const refused = this.opts.texts[e.status];
        if (chosen) chosen.classList.remove("chosen"); // it did not take
        if (refused) { this.finish("refused", refused); return false; }
        // A network failure or a server error: still answerable.
        this.state = "pending";
        this.status.className = "card-status bad";
        setLine(this.status, "warn", t("not_sent", e.message || e.status || t("error")));
        this.setEnabled(true);
        this.tick();
        return false;
      }
      this.finish("answered", shown, shownIcon);
      return true;
    }

    // end is called when the reply ends (the end event, the stop button,
    // a lost connection): a card still pending goes inactive. A card
    // whose answer is on its way is left to the answer's outcome.
    end(stopped) {
      if (this.state !== "pending") return;
      if (stopped) this.finish("ended", this.opts.texts.stopped, "stop");
      else if (this.left() <= 0) this.finish("expired", this.opts.texts.expired);
      else this.finish("ended", this.opts.texts.ended);
    }

    // finish makes the card inactive with a status line: text after the
    // icon kind (default: by how — a tick when answered, a clock when
    // expired, a stop square when stopped or ended, a warning when refused).
    finish(how, text, kind) {
      if (this.timer) clearInterval(this.timer);
      this.state = "done";
      this.setEnabled(false);
      this.el.classList.remove("pending");
      this.el.classList.add("inactive", how);
      this.countdown.textContent = "";
      this.status.className = "card-status " + how;
      const byHow = { answered: "check", expired: "clock", ended: "stop", refused: "warn" };
      setLine(this.status, kind || byHow[how] || "other", text);
    }
  }

  const riskLabels = {
    read_only: t("risk_read_only"),
    sensitive: t("risk_sensitive"),
    dangerous: t("risk_dangerous"),
  };

  const decisions = {
    allow_once: { label: t("allow_once"), cls: "primary", done: t("allow_once_done") },
    allow_session: { label: t("allow_session"), cls: "", done: t("allow_session_done") },
    deny: { label: t("deny"), cls: "danger", done: t("deny_done"), icon: "deny" },
  };

  function row(label, value, cls) {
    const r = el("div", "card-row");
    r.append(el("span", "card-label", label));
    const v = el("span", "card-value " + (cls || ""), value);
    r.append(v);
    return r;
  }

  // commandLine is command_executor's {"command", "args"} as one line
  // (an argument with spaces or quotes is quoted), or "" for other tools.
  function commandLine(args) {
    if (!args || typeof args.command !== "string") return "";
    const words = Array.isArray(args.args) ? args.args.map(String) : [];
    const q = (w) => (w === "" || /[\s"'\\$`]/.test(w) ? JSON.stringify(w) : w);
    return [args.command].concat(words.map(q)).join(" ");
  }

  // prettyArgs is the arguments as indented JSON (a string as it is).
  function prettyArgs(args) {
    if (args === undefined || args === null) return "";
    if (typeof args === "string") return args;
    try { return JSON.stringify(args, null, 2); } catch (e) { return String(args); }
  }

  // reasonOf is a permission request's reason in the page's language
  // (OpsI18n.zh, the one rule for the whole page): reason_zh or
  // reason_en, or, from a server that sends neither, the reason in both
  // languages at once.
  function reasonOf(req) {
    return (window.OpsI18n.zh ? req.reason_zh : req.reason_en) || req.reason || "";
  }

  // pathsOf is the call's arguments that name a path (have a "/", or
  // start with "." or "~"): command_executor's args, or any string
  // argument of another tool, longest first.
  function pathsOf(args) {
    if (!args || typeof args !== "object") return [];
    const words = Array.isArray(args.args) ? args.args : Object.values(args);
    const paths = words.filter((w) => typeof w === "string" && w.length <= 4096 && /^[.~]|\//.test(w));
    return [...new Set(paths)].slice(0, 64).sort((a, b) => b.length - a.length);
  }

  // withPaths is the reason as nodes, each of the paths it names in a
  // code span: "..: outside the allowed directories" reads as a path,
  // not as a sentence starting with "..". A path counts where it stands
  // as a word of its own (between the start, a space, a comma or a
  // colon, and the end, a space, a comma, a colon or a full stop); the
  // rest is text. Server text is only ever set as text.
  function withPaths(reason, paths) {
    const out = [];
    let i = 0, from = 0;
    const edgeBefore = (k) => k === 0 || /[\s,，:：(（]/.test(reason[k - 1]);
    const edgeAfter = (k) => k === reason.length || /[\s,，:：;；.。)）]/.test(reason[k]);
    while (i < reason.length) {
      const p = edgeBefore(i) ? paths.find((w) => reason.startsWith(w, i) && edgeAfter(i + w.length)) : undefined;
      if (!p) { i++; continue; }
      if (i > from) out.push(document.createTextNode(reason.slice(from, i)));
      out.push(el("code", "card-path", p));
      i += p.length;
      from = i;
    }
    if (from < reason.length) out.push(document.createTextNode(reason.slice(from)));
    return out;
  }

  // permission builds the card for a permission_request event. ctx:
  // {session, post, skew, onAnswered(decision)}.
  function permission(req, ctx) {
    const card = new Card({
      kind: "permission", icon: "lock", title: t("perm_title"),
      expiresAt: req.expires_at, skew: ctx.skew, post: ctx.post,
      texts: {
        expired: t("perm_expired"),
        ended: t("perm_ended"),
        stopped: t("perm_stopped"),
        404: t("perm_404"),
        409: t("already"),
        410: t("perm_expired"),
      },
    });
    card.el.dataset.requestId = req.request_id || "";
    card.el.dataset.toolCallId = req.tool_call_id || "";
    card.body.append(row(t("tool"), req.tool || "?", "mono"));
    const risk = String(req.risk || "unknown");
    const badge = row(t("risk"), riskLabels[risk] || risk, "risk risk-" + risk.replace(/[^a-z_]/g, ""));
    card.body.append(badge);
    const reason = reasonOf(req);
    if (reason) {
      const r = row(t("reason"), "", "card-reason");
      r.lastChild.append(...withPaths(reason, pathsOf(req.args)));
      card.body.append(r);
    }
    const args = req.args;
    const line = commandLine(args);
    if (line) card.body.append(el("code", "card-command", "$ " + line));
    const pretty = prettyArgs(args);
    if (pretty) {
      const pre = el("pre", "card-args", pretty);
      pre.setAttribute("aria-label", t("args"));
      card.body.append(pre);
    }
    const options = Array.isArray(req.options) && req.options.length ? req.options : Object.keys(decisions);
    const path = "/api/sessions/" + encodeURIComponent(ctx.session) + "/permissions/" + encodeURIComponent(req.request_id || "");
    for (const d of options) {
      const spec = decisions[d];
      if (!spec) continue; // a decision this page does not know
      const b = card.button(spec.label, spec.cls, async (btn) => {
        if (await card.answer(path, { decision: d }, spec.done, btn, spec.icon) && ctx.onAnswered) ctx.onAnswered(d);
      });
      b.dataset.decision = d;
    }
    return card;
  }

  // question builds the card for a question event (the ask_user tool):
  // a button per option (recommended marked), yes/no for confirm, a text
  // field for kind text or allow_custom, the default shown. ctx as for
  // permission.
  function question(q, ctx) {
    const options = Array.isArray(q.options) ? q.options.filter((o) => o && o.id !== undefined) : [];
    let choices = options;
    if (q.kind === "confirm" && !choices.length) {
      choices = [{ id: "yes", label: t("yes") }, { id: "no", label: t("no") }];
    }
    const labelOf = (id) => { const o = choices.find((x) => String(x.id) === String(id)); return o ? (o.label || String(o.id)) : String(id); };
    const hasDefault = q.default !== undefined && q.default !== null && q.default !== "";
    const card = new Card({
      kind: "question", icon: "question", title: t("q_title"),
      expiresAt: q.expires_at, skew: ctx.skew, post: ctx.post,
      texts: {
        expired: hasDefault ? t("q_expired_default", labelOf(q.default)) : t("q_expired"),
        ended: t("q_ended"),
        stopped: t("q_stopped"),
        404: t("q_404"),
        409: t("already"),
        410: t("q_410"),
      },
    });
    card.el.dataset.requestId = q.request_id || "";
    card.body.append(el("p", "question-text", q.question || ""));
    const path = "/api/sessions/" + encodeURIComponent(ctx.session) + "/questions/" + encodeURIComponent(q.request_id || "");
    const send = (answer, shown, btn) => card.answer(path, { answer: answer }, t("answered", shown), btn);

    if (choices.length) card.actions.classList.add("card-options");
    for (const o of choices) {
      const b = card.button(o.label || String(o.id), o.recommended ? "primary option" : "option", (btn) => send(String(o.id), o.label || String(o.id), btn));
      if (o.recommended) {
        const rec = el("span", "option-rec");
        setLine(rec, "star", t("recommended"));
        b.append(rec);
      }
      b.dataset.answer = String(o.id);
      if (o.description) {
        b.append(el("span", "option-desc", o.description));
      }
    }
    if (q.kind === "text" || q.allow_custom || (!choices.length && q.kind !== "confirm")) {
      const form = el("form", "card-text");
      const input = el("input");
      input.type = "text";
      input.maxLength = 4000;
      input.placeholder = choices.length ? t("or_type") : t("type_answer");
      input.setAttribute("aria-label", t("answer"));
      const submit = el("button", "btn primary", t("answer"));
      submit.type = "submit";
      card.buttons.push(submit);
      form.append(input, submit);
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const v = input.value.trim();
        if (!v || card.state !== "pending") return;
        send(v, v, submit);
      });
      card.body.append(form);
    }
    if (hasDefault) card.body.append(row(t("default"), t("used_if", labelOf(q.default)), "muted"));
    return card;
  }

  return { Card: Card, permission: permission, question: question, fmtLeft: fmtLeft, withPaths: withPaths };
})();
