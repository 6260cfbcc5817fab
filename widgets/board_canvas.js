// The browser side of fwwrules_widgets' board canvas (an anywidget ES module).
//
// The kernel draws the board; this shows it and sends the mouse back. Protocol (see
// board_canvas.py, which is the other half):
// * On render the view says "hello" with its devicePixelRatio; until then the kernel sends
//   no picture. It answers with a full frame at that ratio.
// * A frame is {id, base, full, seq, w, h, codec, head} plus one zlib buffer: its first head
//   bytes are JSON {rects: [[x, y, w, h], ...], texts}, the rest the rects' pixels (codec
//   "rgb", "palette", "mask" or "kept": paint); without head, rects and texts are fields.
//   Frames are applied strictly in the order they arrive, each whole (all its rects or
//   none). A frame older than the one shown is dropped; a diff frame whose base is not the
//   frame shown is never applied: the view asks for a full frame ("refresh") instead. After
//   painting a frame the view sends "ack" with its id; the kernel keeps at most one frame in
//   flight and draws the next one from its latest state when the ack arrives.
// * A frame may say "keep" {rects, colors} with a second buffer: a picture to keep besides the
//   one shown (the board without the pieces a drag moves), as "mask" changes to the picture
//   shown before the frame is painted. Later "kept" frames name that frame's id and take
//   pixels from it (see paint). A view without it asks for a full frame.
// * Pointer input: "down", "move", "up" with CSS-pixel coordinates and a seq. One move is
//   outstanding at a time, from the latest position: the next rides on the ack of the frame
//   that answers it (one message a round), or follows the kernel's "done" when it drew
//   nothing. While a frame is in flight the kernel only keeps the latest move. Frames carry
//   the seq of the last pointer message drawn. Hover moves only while the kernel asks.
// * A move that drew nothing needs no "done" where the view sees the kernel's idle status
//   of its own messages (JupyterLab passes it to the send's callbacks; that status is how a
//   Jupyter client knows a comm message was handled): such a view marks its moves "quiet",
//   and the kernel's idle status of a quiet move answers it when no frame came since the
//   move was sent and every frame received before was already painted (or dropped) — just
//   when the kernel would have said "done". A "done" was about 0.65 KB on the wire.
// * When the pointer rests (no move for REST_MS) and its latest position is still waiting
//   for an answer, that position goes at once, marked "rest": the kernel draws it and
//   sends it even with a frame in flight (a release does the same), so the exact picture
//   after the mouse stops is one round trip away, not two or three. One such message per
//   answer; a position riding on an ack is marked "rest" too when the pointer has been
//   still for REST_MS.
// * A frame may carry "texts": [[model id, trait, value], ...], the words beside the board
//   that describe the picture it holds (the ruling's text, the x/y fields). They are set on
//   those widgets' models right after the frame is painted, in the same task, so the reader
//   never sees words about a position the board does not show yet (nor the other way round).
//   A frame may carry texts and no rects. A long text may come as its change to the text the
//   frame before carried for that widget: [model id, trait, middle, [keep, tail]] keeps the
//   first keep and the last tail UTF-16 units of that text around middle (a full frame
//   carries every text whole; a change to a text this view does not have asks for a full
//   frame).
// * Zoom (when the kernel set "zoomable"): the wheel, a touchpad pinch (a wheel event with
//   ctrlKey), the + and - keys (the canvas takes the focus when pressed or wheeled over;
//   JupyterLab's shortcuts are suppressed while it has it) and the buttons under the board send "zoom"
//   {x, y, factor} (about the pointer; the keys and buttons about the middle). Zooms are
//   flow-controlled as moves are: one outstanding, the factors of the wheel events in between
//   multiplied into the next. "fit" {which: "table" | "models"} from the two fit buttons.
//   Dragging empty board pans (the kernel decides what a press hits); so does the middle
//   button anywhere. The kernel draws every view itself: the browser never scales pixels.
// * The saved picture: once the board has rested (no frame for POSTER_MS) the view keeps its
//   picture in the model's "poster" (set here only, never sent to the kernel), so that a
//   notebook saved with its widget state (JupyterLab's "save widget state", which
//   fwwrules_widgets switches on) holds it. A view rendered from such saved state (after a
//   kernel restart and a page reload: no kernel, no frames) shows that picture under the
//   notice that the cell must be run again; without one, the notice alone.
// * With window.fwwrulesTrace set to an array, pointer messages sent and frames painted are
//   logged there (bench/browser_latency.py measures the lag behind the mouse with it).
// * "sync" (asked by a "fwwrules-sync" DOM event on the canvas, for tests and benchmarks):
//   the kernel answers "synced" once it has handled every earlier message, with the id of
//   its last frame and whether one is still to come; the canvas keeps it in data-synced.
// * When the kernel is gone (the widget manager marks the view disconnected after a kernel
//   restart) the view says so in words (the CSS shows .fwwrules-restarted).

// A pointer that has not moved for this long has stopped (pointer events come every
// animation frame, about 17 ms, while it moves).
const REST_MS = 50;
// Zoom per pixel of wheel travel (a notch is about 100 px: x1.16) and per pixel of a pinch
// (Chromium reports a pinch as a wheel with ctrlKey and small deltas).
const WHEEL_ZOOM = 0.0015;
const PINCH_ZOOM = 0.01;
const KEY_ZOOM = 1.25;
// The picture kept as the saved one once no frame has come for this long.
const POSTER_MS = 1000;

const utf8 = new TextDecoder();

function inflate(buffer) {
  const bytes = buffer instanceof DataView
    ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    : new Uint8Array(buffer);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Response(stream).arrayBuffer();
}

// Paints a frame's rects; returns how many bytes of the buffer it used (all, when sound).
// Codec "rgb": RGB per pixel. Codec "palette": msg.colors RGB triples, one index byte per
// pixel (255: take the next rare colour), then the rare colours' RGB in order. Codec "mask"
// (a diff frame, applied on exactly its base): one bit per pixel of the rects, most
// significant first (1: changed), then the changed pixels alone as the palette codec has
// them; an unchanged pixel keeps what the canvas shows. Codec "kept" (a diff frame of a
// drag, applied on exactly its base, with the kept picture `kept`, an ImageData of the whole
// canvas): msg.colors RGB triples, one code byte per pixel of the rects (AS_KEPT: the kept
// picture's pixel; AS_SHOWN: as the canvas shows it; RARE: the next rare colour;
// KEPT_PALETTE + i: colour i), then the rare colours' RGB in order.
const AS_KEPT = 0;
const AS_SHOWN = 1;
const RARE = 2;
const KEPT_PALETTE = 3;

function paint(ctx, msg, bytes, kept) {
  if (msg.codec === "kept") return paintKept(ctx, msg, bytes, kept);
  const codec = msg.codec || "rgb";
  const masked = codec === "mask";
  let total = 0;
  for (const r of msg.rects) total += r[2] * r[3];
  const head = masked ? Math.ceil(total / 8) : 0;
  let changed = total;
  if (masked) {
    changed = 0;
    for (let k = 0; k < total; k++) if (bytes[k >> 3] & (128 >> (k & 7))) changed++;
  }
  const colors = codec === "rgb" ? 0 : head + msg.colors * 3;
  let at = colors;
  let rare = colors + changed;
  let k = 0;
  for (const [x, y, w, h] of msg.rects) {
    const image = masked ? ctx.getImageData(x, y, w, h) : ctx.createImageData(w, h);
    const out = image.data;
    for (let i = 0; i < out.length; i += 4, k++) {
      if (masked && !(bytes[k >> 3] & (128 >> (k & 7)))) continue;
      let from;
      if (codec === "rgb") {
        from = at;
        at += 3;
      } else {
        const c = bytes[at++];
        if (c === 255) {
          from = rare;
          rare += 3;
        } else {
          from = head + c * 3;
        }
      }
      out[i] = bytes[from];
      out[i + 1] = bytes[from + 1];
      out[i + 2] = bytes[from + 2];
      out[i + 3] = 255;
    }
    ctx.putImageData(image, x, y);
  }
  return codec === "rgb" ? at : rare;
}

function paintKept(ctx, msg, bytes, kept) {
  let at = msg.colors * 3;
  let rare = at;
  for (const r of msg.rects) rare += r[2] * r[3];
  const held = kept.data;
  for (const [x, y, w, h] of msg.rects) {
    const image = ctx.getImageData(x, y, w, h);
    const out = image.data;
    for (let row = 0, i = 0; row < h; row++) {
      let from = ((y + row) * kept.width + x) * 4;
      for (let col = 0; col < w; col++, i += 4, from += 4) {
        const c = bytes[at++];
        if (c === AS_SHOWN) continue;
        if (c === AS_KEPT) {
          out[i] = held[from];
          out[i + 1] = held[from + 1];
          out[i + 2] = held[from + 2];
        } else {
          const src = c === RARE ? rare : (c - KEPT_PALETTE) * 3;
          if (c === RARE) rare += 3;
          out[i] = bytes[src];
          out[i + 1] = bytes[src + 1];
          out[i + 2] = bytes[src + 2];
        }
        out[i + 3] = 255;
      }
    }
    ctx.putImageData(image, x, y);
  }
  return rare;
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "fwwrules-board";
  const canvas = document.createElement("canvas");
  canvas.className = "fwwrules-board-canvas";
  canvas.dataset.frame = "-1";
  canvas.tabIndex = 0;
  const restarted = document.createElement("div");
  restarted.className = "fwwrules-restarted";
  const tools = document.createElement("div");
  tools.className = "fwwrules-board-tools";
  const buttons = {};
  for (const [key, text] of [["zoom-out", "\u2212"], ["zoom-in", "+"], ["fit-table", ""], ["fit-models", ""]]) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `fwwrules-board-tool fwwrules-${key}`;
    b.dataset.symbol = text;
    buttons[key] = b;
    tools.append(b);
  }
  const picture = document.createElement("div");
  picture.className = "fwwrules-board-picture";
  picture.append(canvas, restarted);
  root.append(picture, tools);
  // Keys pressed on the board are the board's: JupyterLab's shortcuts stay away from them.
  root.dataset.lmSuppressShortcuts = "true";
  el.append(root);
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const ratio = window.devicePixelRatio || 1;
  const state = {
    id: -1, asked: false, queue: Promise.resolve(), seq: 0, latest: null, outstanding: false,
    restTimer: 0, rested: false, zoom: null, posterTimer: 0, kept: null, keptId: -1,
    carried: new Map(), // the last value a painted frame carried for each "id trait"
    received: 0, settled: 0, // frames received; of them, painted or dropped
    idle: false, // whether the kernel's idle status of a message sent reaches this view
  };

  function size() {
    const w = model.get("width");
    const h = model.get("height");
    canvas.style.width = `${w}px`;
    canvas.style.height = `${h}px`;
    root.style.width = `${w}px`;
    restarted.textContent = model.get("restarted_text");
    const labels = model.get("tool_labels") || {};
    for (const [key, b] of Object.entries(buttons)) {
      b.textContent = b.dataset.symbol || labels[key] || key;
      b.title = labels[key] || "";
    }
    tools.title = labels["zoom-help"] || "";
    tools.style.display = model.get("zoomable") ? "" : "none";
  }

  async function apply(msg, buffers) {
    if (msg.id <= state.id) return; // older than the picture shown (a reordered transport)
    if (!msg.full && msg.base !== state.id) {
      if (!state.asked) {
        state.asked = true;
        model.send({ type: "refresh" });
      }
      return;
    }
    // the buffer's head (JSON, msg.head bytes): the frame's rects and words; then its pixels
    const data = new Uint8Array(await inflate(buffers[0]));
    const size = msg.head || 0;
    const frame = size ? { ...msg, ...JSON.parse(utf8.decode(data.subarray(0, size))) } : msg;
    const rgb = data.subarray(size);
    const texts = (frame.texts || []).map(([id, trait, value, change]) => {
      if (!change) return [id, trait, value];
      const before = msg.full ? undefined : state.carried.get(`${id} ${trait}`);
      if (typeof before !== "string") return null;
      return [id, trait, before.slice(0, change[0]) + value + before.slice(before.length - change[1])];
    });
    if (texts.includes(null)) {
      if (!state.asked) {
        state.asked = true;
        model.send({ type: "refresh" }); // a change to a text this view does not have
      }
      return;
    }
    const owners = await Promise.all(texts.map(([id]) => widgetModel(id)));
    if (msg.full && (canvas.width !== msg.w || canvas.height !== msg.h)) {
      canvas.width = msg.w;
      canvas.height = msg.h;
    }
    if (msg.keep) {
      // a drag starts: keep the board without the moving pieces (what they leave behind),
      // sent as changes to the picture shown
      const held = new OffscreenCanvas(canvas.width, canvas.height);
      const hctx = held.getContext("2d", { willReadFrequently: true });
      hctx.putImageData(ctx.getImageData(0, 0, canvas.width, canvas.height), 0, 0);
      const keep = { codec: "mask", rects: msg.keep.rects, colors: msg.keep.colors };
      paint(hctx, keep, new Uint8Array(await inflate(buffers[1])));
      state.kept = hctx.getImageData(0, 0, canvas.width, canvas.height);
      state.keptId = msg.id;
    }
    if (msg.codec === "kept" && (state.keptId !== msg.kept || !state.kept)) {
      if (!state.asked) {
        state.asked = true;
        model.send({ type: "refresh" }); // a view that keeps no such picture
      }
      return;
    }
    const used = paint(ctx, frame, rgb, state.kept);
    if (used !== rgb.length) console.warn("fwwrules: frame", msg.id, "has", rgb.length, "bytes, used", used);
    texts.forEach(([id, trait, value], i) => {
      state.carried.set(`${id} ${trait}`, value);
      if (owners[i]) owners[i].set(trait, value);
    });
    state.id = msg.id;
    state.asked = false;
    canvas.dataset.frame = String(msg.id);
    clearTimeout(state.posterTimer);
    state.posterTimer = setTimeout(keepPoster, POSTER_MS);
    if (window.fwwrulesTrace) {
      window.fwwrulesTrace.push({
        frame: msg.id, seq: msg.seq, bytes: buffers[0].byteLength, rects: (frame.rects || []).length,
        received: msg.received, t: performance.now(),
      });
    }
    const ack = { type: "ack", id: msg.id };
    settle(msg);
    state.outstanding = false;
    state.rested = false;
    const still = state.latest !== null && performance.now() - state.latest.timeStamp >= REST_MS;
    const next = take();
    if (next === null) {
      model.send(ack);
      return;
    }
    // the latest zoom or pointer position rides on the ack: the next frame is drawn from it
    ack.move = next;
    // a pointer already still for REST_MS: the picture it rests on may overtake
    if (next.type === "move" && still) ack.move.rest = true;
    state.outstanding = true;
    sendAnswered(ack, next);
  }

  // A frame this view is done with (painted, or dropped): counted once.
  function settle(msg) {
    if (msg.settled) return;
    msg.settled = true;
    state.settled += 1;
  }

  // Sends a message holding a move or zoom (``pointer``, the message itself or the move
  // riding on an ack). Once the kernel's idle status is known to reach this view, the
  // move is "quiet": no "done" comes for it, its idle status answers it instead when no
  // frame came since and every frame received before was settled (as "done" would).
  function sendAnswered(msg, pointer) {
    const received = state.received;
    const clean = state.received === state.settled;
    if (state.idle) pointer.quiet = true;
    model.send(msg, {
      iopub: {
        status: (reply) => {
          if (reply.content.execution_state !== "idle") return;
          state.idle = true;
          if (!pointer.quiet || !clean || state.received !== received) return;
          if (window.fwwrulesTrace) window.fwwrulesTrace.push({ quiet: pointer.seq, t: performance.now() });
          answered();
        },
      },
    });
  }

  // The outstanding move or zoom was answered without a frame ("done", or its quiet idle).
  function answered() {
    state.outstanding = false;
    state.rested = false;
    pump();
  }

  // The picture shown, kept in the model (locally: saved with the notebook's widget state).
  function keepPoster() {
    if (state.id < 0 || !canvas.width) return;
    // WebP, a tenth of the bytes of PNG: it lies under the notice (PNG where not supported)
    model.set("poster", canvas.toDataURL("image/webp", 0.85));
  }

  // A view made from saved state (no kernel): the saved picture until a frame comes.
  function showPoster() {
    const poster = model.get("poster");
    if (!poster) return;
    const img = new Image();
    img.onload = () => {
      if (state.id >= 0) return; // a live frame came first
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      ctx.drawImage(img, 0, 0);
      canvas.dataset.poster = "shown";
    };
    img.src = poster;
  }

  // The model of another widget of the panel (a frame's texts), looked up once.
  const modelsById = new Map();
  function widgetModel(id) {
    if (!modelsById.has(id)) {
      modelsById.set(id, model.widget_manager.get_model(id).catch(() => null));
    }
    return modelsById.get(id);
  }

  function pointer_message(type, e) {
    const box = canvas.getBoundingClientRect();
    state.seq += 1;
    if (window.fwwrulesTrace) window.fwwrulesTrace.push({ input: type, seq: state.seq, t: e.timeStamp });
    return {
      type, seq: state.seq, x: e.clientX - box.left, y: e.clientY - box.top,
      button: e.button, buttons: e.buttons,
      shift: e.shiftKey, ctrl: e.ctrlKey, alt: e.altKey,
    };
  }

  function send(type, e, extra = {}) {
    const msg = { ...pointer_message(type, e), ...extra };
    model.send(msg);
    return msg.seq;
  }

  // The pointer stopped with its latest position unsent: send it now (see REST_MS).
  // One rest per answer: a pointer that pauses now and then mid-drag costs at most one
  // extra frame per round.
  function rest() {
    if (state.latest === null || state.rested) return;
    const e = state.latest;
    state.latest = null;
    state.rested = true;
    const msg = { ...pointer_message("move", e), rest: true };
    sendAnswered(msg, msg);
  }

  // The next flow-controlled message: the zoom gathered so far, else the latest position.
  function take() {
    if (state.zoom !== null) {
      const z = state.zoom;
      state.zoom = null;
      state.seq += 1;
      if (window.fwwrulesTrace) window.fwwrulesTrace.push({ input: "zoom", seq: state.seq, t: performance.now() });
      return { type: "zoom", seq: state.seq, x: z.x, y: z.y, factor: z.factor };
    }
    if (state.latest !== null) {
      const e = state.latest;
      state.latest = null;
      return pointer_message("move", e);
    }
    return null;
  }

  // One move or zoom outstanding, always from the latest position: it is answered by the
  // next frame (the following one rides on its ack) or by "done" when it changed nothing.
  function pump() {
    if (state.outstanding) return;
    const next = take();
    if (next === null) return;
    state.outstanding = true;
    sendAnswered(next, next);
  }

  // Gather a zoom by factor about (x, y) (CSS px on the canvas) and send it when it may go.
  function zoomBy(factor, x, y) {
    if (!model.get("zoomable") || !(factor > 0) || !isFinite(factor)) return;
    const z = state.zoom;
    state.zoom = { x, y, factor: (z ? z.factor : 1) * factor };
    pump();
  }

  function middle() {
    return [canvas.width / ratio / 2, canvas.height / ratio / 2];
  }

  function onMessage(msg, buffers) {
    if (msg.type === "frame") {
      msg.received = performance.now();
      state.received += 1;
      state.queue = state.queue.then(() => apply(msg, buffers)).catch((err) => {
        console.error("fwwrules: a frame could not be shown", err);
        state.asked = false;
        model.send({ type: "refresh" });
      }).finally(() => settle(msg));
    } else if (msg.type === "done") {
      answered();
    } else if (msg.type === "synced") {
      canvas.dataset.synced = JSON.stringify({ n: msg.n, last: msg.last, busy: msg.busy });
    }
  }

  const pointer = {
    pointerdown: (e) => {
      if (e.button !== 0 && e.button !== 1) return;
      canvas.focus({ preventScroll: true });
      canvas.setPointerCapture(e.pointerId);
      state.latest = null;
      clearTimeout(state.restTimer);
      send("down", e);
      e.preventDefault();
    },
    pointermove: (e) => {
      if (!e.buttons && !model.get("hover")) return;
      state.latest = e;
      pump();
      clearTimeout(state.restTimer);
      state.restTimer = setTimeout(rest, REST_MS);
    },
    pointerup: (e) => {
      if (e.button !== 0 && e.button !== 1) return;
      state.latest = null;
      clearTimeout(state.restTimer);
      send("up", e);
    },
  };
  for (const [name, fn] of Object.entries(pointer)) canvas.addEventListener(name, fn);
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("auxclick", (e) => e.preventDefault()); // no middle-click paste
  canvas.addEventListener("wheel", (e) => {
    if (!model.get("zoomable")) return;
    e.preventDefault();
    if (document.activeElement !== canvas) canvas.focus({ preventScroll: true }); // then +/-
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const factor = Math.exp(-e.deltaY * unit * (e.ctrlKey ? PINCH_ZOOM : WHEEL_ZOOM));
    const box = canvas.getBoundingClientRect();
    zoomBy(factor, e.clientX - box.left, e.clientY - box.top);
  }, { passive: false });
  canvas.addEventListener("keydown", (e) => {
    if (!model.get("zoomable") || e.ctrlKey || e.metaKey || e.altKey) return;
    const zoom = { "+": KEY_ZOOM, "=": KEY_ZOOM, "-": 1 / KEY_ZOOM, "_": 1 / KEY_ZOOM }[e.key];
    if (zoom === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    zoomBy(zoom, ...middle());
  });
  buttons["zoom-in"].addEventListener("click", () => zoomBy(KEY_ZOOM, ...middle()));
  buttons["zoom-out"].addEventListener("click", () => zoomBy(1 / KEY_ZOOM, ...middle()));
  buttons["fit-table"].addEventListener("click", () => model.send({ type: "fit", which: "table" }));
  buttons["fit-models"].addEventListener("click", () => model.send({ type: "fit", which: "models" }));
  canvas.addEventListener("fwwrules-sync", (e) => model.send({ type: "sync", n: e.detail }));
  model.on("msg:custom", onMessage);
  model.on("change:width", size);
  model.on("change:height", size);
  model.on("change:restarted_text", size);
  model.on("change:zoomable", size);
  model.on("change:tool_labels", size);
  size();
  showPoster();
  model.send({ type: "hello", ratio }, {
    iopub: { status: (reply) => { if (reply.content.execution_state === "idle") state.idle = true; } },
  });
  return () => {
    clearTimeout(state.restTimer);
    clearTimeout(state.posterTimer);
    model.off("msg:custom", onMessage);
    model.off("change:width", size);
    model.off("change:height", size);
    model.off("change:restarted_text", size);
    model.off("change:zoomable", size);
    model.off("change:tool_labels", size);
  };
}

export default { render };
