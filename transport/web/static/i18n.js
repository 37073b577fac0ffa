// opsassist web client: the page's one language and its one size and
// time format.
// The language is the browser's first one: it starts with "zh" → Chinese,
// anything else → English (the rule the permission card's reason_zh /
// reason_en follows too). Every label, title, aria-label, placeholder and
// notice of the page comes from the string table below; index.html and
// login.html name theirs with data-i18n (text), data-i18n-title,
// data-i18n-aria-label and data-i18n-placeholder, filled in here before
// the page shows, and <html lang> is set to match.
"use strict";

window.OpsI18n = (function () {
  const first = (navigator.languages && navigator.languages[0]) || navigator.language || "";
  const zh = /^zh/i.test(first);

  // strings: key → [Chinese, English]; {0}, {1}… are filled by t's args.
  const strings = {
    // index.html
    page_title: ["opsassist · 智能运维助手", "opsassist · ops assistant"],
    brand_sub: ["智能运维助手", "ops assistant"],
    new_chat: ["新对话", "New chat"],
    sessions: ["对话", "Conversations"],
    select: ["选择", "Select"],
    select_title: ["选择多个对话以删除", "Select conversations to delete"],
    search: ["搜索对话", "Search conversations"],
    search_aria: ["按标题或内容搜索对话", "Search conversations by title or text"],
    delete_selected: ["删除所选", "Delete"],
    delete_selected_title: ["删除所选对话", "Delete the selected conversations"],
    cancel: ["取消", "Cancel"],
    model: ["模型", "Model"],
    system: ["系统", "System"],
    mem: ["内存", "Memory"],
    disk: ["磁盘", "Disk"],
    logout: ["退出登录", "Log out"],
    offline_banner: ["与服务器的连接已断开，正在重试…", "The server is unreachable; retrying…"],
    menu: ["菜单", "Menu"],
    new_session: ["新对话", "New conversation"],
    grants_title: ["本对话的授权", "This conversation's grants"],
    permissions: ["权限", "Permissions"],
    grants_head: ["本对话允许的操作", "Allowed for this conversation"],
    grants_empty: ["本对话没有授权", "No grants in this conversation"],
    hello: ["你好", "Hello"],
    empty_hint: ["问我服务器的情况，例如“系统资源使用情况如何？”，或把文件拖到这里上传。",
      "Ask about this server, for example \"How are the system resources?\", or drop a file here to upload it."],
    upload_title: ["上传文件", "Upload a file"],
    upload: ["上传", "Upload"],
    placeholder: ["输入问题…（Enter 发送，Shift+Enter 换行）", "Ask something… (Enter sends, Shift+Enter adds a line)"],
    placeholder_short: ["输入问题…", "Ask something…"],
    send: ["发送", "Send"],
    stop_title: ["停止回答", "Stop the answer"],
    stop: ["停止", "Stop"],
    drop: ["松开以上传", "Drop to upload"],
    // login.html
    login_title: ["opsassist · 登录", "opsassist · Log in"],
    login_need: ["此服务器需要访问令牌。", "This server needs its access token."],
    token: ["访问令牌", "Access token"],
    login: ["登录", "Log in"],
    wrong_token: ["访问令牌不对，请重试。", "That access token is wrong; try again."],
    // replies
    status_thinking: ["思考中", "thinking"],
    status_generating: ["正在生成回复", "writing the answer"],
    status_tool_call: ["调用工具", "calling a tool"],
    status_tool_result: ["工具已返回", "tool finished"],
    still_running: ["回答仍在进行，等待你的回复", "This answer is still running and waits for you"],
    stopped: ["（已停止）", "(stopped)"],
    no_answer: ["（无回复）", "(no answer)"],
    error: ["出错了", "Something went wrong"],
    full_output_title: ["打开完整输出", "Open the full output"],
    full_output: ["{0} · 完整输出（{1}）", "{0} · Full output ({1})"],
    copy_title: ["复制代码", "Copy the code"],
    copy: ["复制", "Copy"],
    copied: ["已复制", "Copied"],
    copy_failed: ["复制失败", "Copy failed"],
    download: ["下载", "Download"],
    download_ask: ["下载 {0}", "download {0}"],
    via: ["经由 {0}", "via {0}"],
    expired: ["已过期", "expired"],
    expires: ["有效至 {0}", "expires {0}"],
    stop_failed: ["停止失败：{0}", "Stop failed: {0}"],
    queued: ["已排队：{0}", "Queued: {0}"],
    conn_lost: ["与服务器的连接中断，回答没有完成。你的问题已放回输入框，服务器恢复后可再次发送。",
      "The connection to the server was lost before the answer finished. Your question is back in the input box: send it again when the server is reachable."],
    conn_short: ["与服务器的连接中断", "the connection to the server was lost"],
    session_gone: ["这个对话在服务器上已不存在（服务器重启过，或在别处删除了），你的问题已发到一个新对话。",
      "This conversation no longer exists on the server (it restarted, or the conversation was deleted elsewhere); your question went to a new conversation."],
    session_gone_open: ["这个对话在服务器上已不存在。", "This conversation no longer exists on the server."],
    uploaded: ["已上传 {0}（{1}）", "Uploaded {0} ({1})"],
    upload_failed: ["上传失败：{0}", "Upload failed: {0}"],
    upload_failed_net: ["上传失败：连接中断", "Upload failed: the connection was lost"],
    // conversations
    no_match: ["没有匹配的对话", "No conversation matches"],
    no_sessions: ["还没有对话", "No conversations yet"],
    load_more: ["加载更多", "Load more"],
    load_more_title: ["显示更早的对话（已显示 {0} 个，共 {1} 个）", "Show older conversations ({0} of {1} shown)"],
    select_x: ["选择 {0}", "Select {0}"],
    rename_x: ["重命名 {0}", "Rename {0}"],
    export_fmt: ["导出 {0}", "Export {0}"],
    export_x: ["导出 {0}（{1}）", "Export {0} ({1})"],
    delete_x: ["删除 {0}", "Delete {0}"],
    confirm_delete: ["删除这个对话？\n{0}", "Delete this conversation?\n{0}"],
    msgs: ["{0} 条消息", "{0} msg"],
    new_title: ["新标题", "New title"],
    rename_failed: ["重命名失败：{0}", "Rename failed: {0}"],
    confirm_bulk: ["删除所选的 {0} 个对话？", "Delete {0} conversation(s)?"],
    deleted: ["已删除 {0} 个对话", "Deleted {0}"],
    delete_failed: ["删除失败：{0}", "Delete failed: {0}"],
    // grants
    revoke: ["撤销", "Revoke"],
    revoke_x: ["撤销 {0}", "Revoke {0}"],
    revoked: ["已撤销：{0}", "Revoked: {0}"],
    revoke_failed: ["撤销失败：{0}", "Revoke failed: {0}"],
    // models and the system panel
    builtin_label: ["builtin（离线）", "builtin (offline)"],
    unreachable: ["不可达", "unreachable"],
    not_checked: ["未检测", "not checked"],
    reachable: ["可用", "reachable"],
    not_checked_yet: ["尚未检测", "not checked yet"],
    model_down: ["模型 {0} 当前不可达：{1}（可暂时改用 builtin）", "Model {0} is unreachable: {1} (use builtin meanwhile)"],
    model_switched: ["已切换模型：{0}", "Model: {0}"],
    of: ["{0}，共 {1}", "{0} of {1}"],
    offline: ["离线", "offline"],
    logout_failed: ["退出失败：{0}", "Logout failed: {0}"],
    // cards
    time_left: ["剩余时间", "Time left"],
    sending: ["发送中…", "Sending…"],
    not_sent: ["发送失败，请重试：{0}", "Not sent, try again: {0}"],
    risk_read_only: ["只读", "read-only"],
    risk_sensitive: ["敏感", "sensitive"],
    risk_dangerous: ["危险", "dangerous"],
    allow_once: ["允许一次", "Allow once"],
    allow_once_done: ["已允许一次", "Allowed once"],
    allow_session: ["本对话允许", "Allow for this conversation"],
    allow_session_done: ["本对话已允许", "Allowed for this conversation"],
    deny: ["拒绝", "Deny"],
    deny_done: ["已拒绝", "Denied"],
    perm_title: ["需要你的许可", "Permission needed"],
    perm_expired: ["已超时，调用已被拒绝", "Expired — the call was denied"],
    perm_ended: ["回复已结束，未执行", "The reply ended — not run"],
    perm_stopped: ["已停止，请求已撤回", "Stopped — request withdrawn"],
    perm_404: ["请求已不存在", "This request no longer exists"],
    already: ["已经回答过了", "Already answered"],
    tool: ["工具", "Tool"],
    risk: ["风险", "Risk"],
    reason: ["原因", "Reason"],
    args: ["参数", "Arguments"],
    q_title: ["助手的问题", "The assistant asks"],
    q_expired_default: ["已超时，采用默认：{0}", "Expired — the default was used: {0}"],
    q_expired: ["已超时，未回答", "Expired — no answer"],
    q_ended: ["回复已结束，未回答", "The reply ended — not answered"],
    q_stopped: ["已停止，问题已撤回", "Stopped — question withdrawn"],
    q_404: ["问题已不存在", "This question no longer exists"],
    q_410: ["已过期", "Expired"],
    answered: ["已回答：{0}", "Answered: {0}"],
    yes: ["是", "Yes"],
    no: ["否", "No"],
    recommended: ["推荐", "recommended"],
    or_type: ["或输入你的回答…", "or type your own answer…"],
    type_answer: ["输入回答…", "Type your answer…"],
    answer: ["回答", "Answer"],
    default: ["默认", "Default"],
    used_if: ["{0}（超时后采用）", "{0} (used if no answer)"],
  };

  // t is the string key in the page's language with {0}, {1}… filled
  // from args; an unknown key is itself (a missing entry shows, not
  // breaks).
  function t(key) {
    const pair = strings[key];
    let s = pair ? pair[zh ? 0 : 1] : key;
    for (let i = 1; i < arguments.length; i++) s = s.split("{" + (i - 1) + "}").join(String(arguments[i]));
    return s;
  }

  // apply fills root's data-i18n* elements: data-i18n sets the text,
  // data-i18n-title, data-i18n-aria-label and data-i18n-placeholder the
  // attribute of that name.
  function apply(root) {
    for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
    for (const a of ["title", "aria-label", "placeholder"]) {
      for (const e of root.querySelectorAll("[data-i18n-" + a + "]")) e.setAttribute(a, t(e.getAttribute("data-i18n-" + a)));
    }
  }

  // fmtBytes is a size in IEC units with one decimal, as the server
  // writes them in its text (1023 B, 1.0 KiB, 76.3 MiB, 2.0 GiB).
  function fmtBytes(n) {
    n = Number(n) || 0;
    if (n < 1024) return n + " B";
    const units = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    let u = -1;
    do { n /= 1024; u++; } while (n >= 1024 && u < units.length - 1);
    // 1023.96 KiB rounds to 1024.0 KiB: say 1.0 MiB instead.
    if (n.toFixed(1) === "1024.0" && u < units.length - 1) { n /= 1024; u++; }
    return n.toFixed(1) + " " + units[u];
  }

  // fmtTime is a time of day in the page's one format, the same in both
  // languages: 24-hour HH:MM:SS in the browser's time zone (never
  // "8:05:08 AM" on a Chinese page). withDate puts the date before it
  // (YYYY-MM-DD HH:MM:SS). A value that is no time gives "".
  function fmtTime(when, withDate) {
    const d = when instanceof Date ? when : new Date(when);
    if (isNaN(d.getTime())) return "";
    const p = (n) => String(n).padStart(2, "0");
    const time = p(d.getHours()) + ":" + p(d.getMinutes()) + ":" + p(d.getSeconds());
    return withDate ? d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate()) + " " + time : time;
  }

  document.documentElement.lang = zh ? "zh-CN" : "en";
  // Deferred scripts run after the document is parsed: the labels are
  // there to fill before the page first paints them.
  apply(document);
  if (document.body && document.body.classList.contains("login-body")) document.title = t("login_title");
  else document.title = t("page_title");

  return { zh: zh, t: t, apply: apply, fmtBytes: fmtBytes, fmtTime: fmtTime, strings: strings };
})();
