// The review page's behaviour (fwwrules/draw/review.py inlines this file into the page).
// The reviewer's work (ticks, comments, suggested wordings, other reviewers' imported work)
// lives in the page and in the browser's local storage under the page's build, and leaves the
// browser only as an exported JSON file (format in CONFIG.format).
(function () {
  "use strict";
  const CONFIG = JSON.parse(document.getElementById("review-config").textContent);
  const UI = CONFIG.ui;
  const PREFIX = "fwwrules-review/";
  const KEY = PREFIX + CONFIG.build;
  const $ = (id) => document.getElementById(id);
  const items = () => Array.from(document.querySelectorAll("section.item"));
  // The catalogue's texts: <pre class="text" data-msg="ID"> in a column <div lang="LANG">.
  const texts = Array.from(document.querySelectorAll("pre.text[data-msg]"));
  for (const p of texts) p.dataset.lang = p.parentElement.lang;
  const ORIGINAL = new Map(texts.map((p) => [p, p.textContent]));
  const byMsg = new Map(texts.map((p) => [p.dataset.lang + "\u0000" + p.dataset.msg, p]));
  let extra = {}; // my ticks and comments under ids this page does not have (another version)
  let extraSuggestions = {}; // my suggestions for messages this page does not show
  let others = {}; // another reviewer's name -> {items, suggestions}
  let othersChanged = true; // shown anew at the next refresh
  let dirty = false; // work that no export holds yet
  let storage = true; // the browser keeps what we store

  const isObject = (v) => !!v && typeof v === "object" && !Array.isArray(v);
  const worked = (v) =>
    isObject(v) && (!!v.checked || (typeof v.comment === "string" && !!v.comment));
  const fill = (text, values) =>
    text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));

  // Each text is edited in place: plain-text editing where the browser has it (Chromium,
  // Safari, Firefox 136+), else rich (only its text is read). Below it: the tools of a
  // suggestion (shown once the text differs) and other reviewers' suggestions.
  const probe = document.createElement("div");
  try { probe.contentEditable = "plaintext-only"; } catch (e) { /* older browsers */ }
  const EDITABLE = probe.contentEditable === "plaintext-only" ? "plaintext-only" : "true";
  for (const p of texts) {
    p.contentEditable = EDITABLE;
    p.spellcheck = true;
    p.title = UI.editHint;
    const tools = document.createElement("p");
    tools.className = "suggestion-tools";
    tools.hidden = true;
    const undo = document.createElement("button");
    undo.type = "button";
    undo.className = "revert";
    undo.textContent = UI.revert;
    tools.append(UI.suggested + " ", undo);
    const theirs = document.createElement("div");
    theirs.className = "theirs-list";
    p.after(tools, theirs);
  }

  function englishOf(p) {
    const en = p.closest(".two").querySelector('pre.text[data-lang="en"]');
    return en ? ORIGINAL.get(en) : "";
  }

  function myItems() {
    const out = Object.assign({}, extra);
    for (const s of items()) {
      out[s.dataset.id] = {
        checked: s.querySelector("input.ok").checked,
        comment: s.querySelector("textarea.comment").value,
      };
    }
    return out;
  }

  function mySuggestions() {
    const out = JSON.parse(JSON.stringify(extraSuggestions));
    for (const p of texts) {
      const text = p.textContent;
      if (text === ORIGINAL.get(p)) continue;
      const lang = p.dataset.lang;
      if (!isObject(out[lang])) out[lang] = {};
      out[lang][p.dataset.msg] = { text: text, was: ORIGINAL.get(p), english: englishOf(p) };
    }
    return out;
  }

  function countSuggestions(s) {
    return Object.values(s).reduce((n, m) => n + (isObject(m) ? Object.keys(m).length : 0), 0);
  }

  function state() {
    return {
      format: CONFIG.format,
      lang: CONFIG.lang,
      generator: CONFIG.generator,
      build: CONFIG.build,
      reviewer: $("reviewer").value,
      items: myItems(),
      suggestions: mySuggestions(),
      others: others,
    };
  }

  function hasWork() {
    const mine = myItems();
    const ticked = Object.values(mine).some(worked);
    return ticked || countSuggestions(mySuggestions()) > 0 || Object.keys(others).length > 0;
  }

  // --- showing the state -------------------------------------------------------------------
  function showSaved() {
    const el = $("saved");
    el.textContent = !storage ? UI.notSaved : dirty ? UI.savedDirty : UI.saved;
    el.classList.toggle("dirty", dirty || !storage);
  }

  function showOthers() {
    for (const s of items()) {
      const list = s.querySelector("ul.others");
      list.replaceChildren();
      for (const [name, work] of Object.entries(others)) {
        const v = isObject(work.items) ? work.items[s.dataset.id] : null;
        if (!worked(v)) continue;
        const li = document.createElement("li");
        li.className = "other";
        li.dataset.reviewer = name;
        const who = document.createElement("b");
        who.textContent = name;
        li.append(who, ": " + (v.checked ? "✓ " + UI.done : "✗ " + UI.notDone));
        if (typeof v.comment === "string" && v.comment) li.append(" — „" + v.comment + "“");
        list.append(li);
      }
    }
    for (const p of texts) {
      const box = p.parentElement.querySelector(".theirs-list");
      box.replaceChildren();
      for (const [name, work] of Object.entries(others)) {
        const byLang = isObject(work.suggestions) ? work.suggestions[p.dataset.lang] : null;
        const sug = isObject(byLang) ? byLang[p.dataset.msg] : null;
        if (!isObject(sug) || typeof sug.text !== "string") continue;
        const div = document.createElement("div");
        div.className = "theirs";
        div.dataset.reviewer = name;
        div.textContent = fill(UI.theySuggest, { name: name }) + " " + sug.text;
        box.append(div);
      }
    }
  }

  function refresh() {
    const all = items();
    let done = 0;
    for (const s of all) {
      const ok = s.querySelector("input.ok").checked;
      s.classList.toggle("ok", ok);
      if (ok) done++;
    }
    $("progress").textContent = done + " / " + all.length + " " + UI.done;
    for (const p of texts) {
      const changed = p.textContent !== ORIGINAL.get(p);
      p.classList.toggle("suggested", changed);
      p.parentElement.querySelector(".suggestion-tools").hidden = !changed;
    }
    const n = countSuggestions(mySuggestions());
    $("suggestions").textContent = n ? fill(UI.suggestions, { n: n }) : "";
    if (othersChanged) showOthers(); // not on every key press: only when they change
    othersChanged = false;
  }

  // --- local storage -----------------------------------------------------------------------
  function save() {
    const data = state();
    data.dirty = dirty;
    data.savedAt = Date.now();
    try {
      localStorage.setItem(KEY, JSON.stringify(data));
      storage = true;
    } catch (e) {
      storage = false;
    }
    showSaved();
  }

  function changed() {
    dirty = true;
    refresh();
    save();
  }

  // My own work from a file or from storage: ticks, comments, suggestions (what this page does
  // not show is kept for the next export). Returns the counts.
  function applyOwn(data) {
    const byId = new Map(items().map((s) => [s.dataset.id, s]));
    let n = 0, unknown = 0, k = 0;
    extra = {};
    for (const [id, v] of Object.entries(isObject(data.items) ? data.items : {})) {
      const s = byId.get(id);
      if (!s) { extra[id] = v; unknown++; continue; }
      s.querySelector("input.ok").checked = isObject(v) && !!v.checked;
      s.querySelector("textarea.comment").value =
        isObject(v) && typeof v.comment === "string" ? v.comment : "";
      if (worked(v)) n++;
    }
    extraSuggestions = {};
    for (const [lang, msgs] of Object.entries(isObject(data.suggestions) ? data.suggestions : {})) {
      for (const [msg, sug] of Object.entries(isObject(msgs) ? msgs : {})) {
        const p = byMsg.get(lang + "\u0000" + msg);
        if (!p || !isObject(sug) || typeof sug.text !== "string") {
          if (!isObject(extraSuggestions[lang])) extraSuggestions[lang] = {};
          extraSuggestions[lang][msg] = sug;
          continue;
        }
        p.textContent = sug.text;
        k++;
      }
    }
    return { n: n, unknown: unknown, k: k };
  }

  function takeOthers(from, me) {
    othersChanged = true;
    for (const [name, work] of Object.entries(isObject(from) ? from : {})) {
      if (name === me || !isObject(work)) continue;
      others[name] = {
        items: isObject(work.items) ? work.items : {},
        suggestions: isObject(work.suggestions) ? work.suggestions : {},
      };
    }
  }

  function restore() {
    let raw = null;
    try {
      raw = localStorage.getItem(KEY);
    } catch (e) {
      storage = false;
      showSaved();
      return;
    }
    let data = null;
    try { data = raw === null ? null : JSON.parse(raw); } catch (e) { data = null; }
    if (isObject(data)) {
      const counts = applyOwn(data);
      if (typeof data.reviewer === "string") $("reviewer").value = data.reviewer;
      others = {};
      takeOthers(data.others, null);
      dirty = !!data.dirty;
      $("status").textContent = fill(UI.restored, { n: counts.n, k: counts.k });
      showSaved();
      return;
    }
    offerOtherBuild();
  }

  // Work saved from another build of this page (an older or newer version): offered, not taken.
  function offerOtherBuild() {
    let best = null, bestKey = null;
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (!key || !key.startsWith(PREFIX) || key === KEY) continue;
        let d = null;
        try { d = JSON.parse(localStorage.getItem(key)); } catch (e) { continue; }
        if (!isObject(d) || d.lang !== CONFIG.lang) continue;
        if (!best || (d.savedAt || 0) > (best.savedAt || 0)) { best = d; bestKey = key; }
      }
    } catch (e) {
      return;
    }
    if (!best) return;
    const box = $("restore");
    box.querySelector(".what").textContent = UI.otherBuild;
    box.hidden = false;
    box.querySelector("button").addEventListener("click", () => {
      const counts = applyOwn(best);
      if (typeof best.reviewer === "string") $("reviewer").value = best.reviewer;
      takeOthers(best.others, null);
      box.hidden = true;
      $("status").textContent = fill(UI.restored, { n: counts.n, k: counts.k });
      changed();
      try { localStorage.removeItem(bestKey); } catch (e) { /* nothing to tidy */ }
    });
  }

  // --- export and import -------------------------------------------------------------------
  $("export").addEventListener("click", () => {
    const data = state();
    const blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "fwwrules-review.json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    dirty = false;
    save();
  });

  function load(data) {
    const status = $("status");
    if (!isObject(data) || data.format !== CONFIG.format || !isObject(data.items)) {
      status.textContent = UI.bad;
      return;
    }
    const name = typeof data.reviewer === "string" ? data.reviewer.trim() : "";
    const me = $("reviewer").value.trim();
    const own = name ? name === me || (!me && !hasWork()) : !hasWork();
    if (own) {
      const before = hasWork();
      const counts = applyOwn(data);
      if (name) $("reviewer").value = data.reviewer;
      takeOthers(data.others, name);
      status.textContent = fill(UI.imported, { n: counts.n, unknown: counts.unknown });
      dirty = dirty || before;
    } else {
      let who = name; // an unnamed reviewer gets a number
      for (let k = 2; !who || who === me || (!name && who in others); k++) {
        who = fill(UI.anonymous, { n: k });
      }
      takeOthers({ [who]: data }, me);
      takeOthers(data.others, me);
      const ids = new Set(items().map((s) => s.dataset.id));
      const keys = Object.keys(data.items);
      const unknown = keys.filter((id) => !ids.has(id)).length;
      const n = keys.filter((id) => ids.has(id) && worked(data.items[id])).length;
      status.textContent = fill(UI.importedOther, {
        name: who, n: n, unknown: unknown,
        k: countSuggestions(isObject(data.suggestions) ? data.suggestions : {}),
      });
      dirty = true;
    }
    refresh();
    save();
  }

  // The browser's own file control names itself in the browser's language ("Choose File"):
  // a button in the page's language opens it instead.
  $("import-button").addEventListener("click", () => $("import").click());
  $("import").addEventListener("change", (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    const r = new FileReader();
    r.onload = () => {
      let d = null;
      try { d = JSON.parse(r.result); } catch (e) { d = null; }
      load(d);
    };
    r.readAsText(f);
    ev.target.value = "";
  });

  // --- editing -----------------------------------------------------------------------------
  document.addEventListener("input", (ev) => {
    const t = ev.target;
    if (t.id === "reviewer") { save(); return; }
    if (t.matches && t.matches("textarea.comment, pre.text")) changed();
  });
  document.addEventListener("change", (ev) => {
    if (ev.target.matches && ev.target.matches("input.ok")) changed();
  });
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest && ev.target.closest("button.revert");
    if (!b) return;
    const p = b.closest(".col").querySelector("pre.text");
    p.textContent = ORIGINAL.get(p);
    changed();
  });
  window.addEventListener("beforeunload", (ev) => {
    if (!dirty) return;
    ev.preventDefault();
    ev.returnValue = UI.leave; // browsers show their own words
    return UI.leave;
  });

  // --- headings below the sticky header ----------------------------------------------------
  const header = document.querySelector("header");
  function headerHeight() {
    document.documentElement.style.setProperty("--header", header.offsetHeight + "px");
  }
  headerHeight();
  if (window.ResizeObserver) new ResizeObserver(headerHeight).observe(header);
  else window.addEventListener("resize", headerHeight);

  window.fwwReview = { state: state, load: load, save: save };
  restore();
  refresh();
  if (location.hash) {
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }
})();
