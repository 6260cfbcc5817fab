// The browser side of fwwrules_widgets' board canvas (an anywidget ES module).
//
// The kernel draws the board; this shows it and sends the mouse back. Protocol (see
// board_canvas.py, which is the other half):
// * On render the view says "hello" with its devicePixelRatio; until then the kernel sends
//   no picture. It answers with a full frame at that ratio.
// * A frame is {id, base, full, seq, w, h, rects: [[x, y, w, h], ...], codec} plus one
//   zlib buffer with the rects' pixels (codec "rgb", "palette" or "mask", see paint). Frames are
//   applied strictly in the order they arrive, each whole (all its rects or none). A frame
//   older than the one shown is dropped; a diff frame whose base is not the frame shown is
//   never applied: the view asks for a full frame ("refresh") instead. After painting a
//   frame the view sends "ack" with its id; the kernel keeps at most one frame in flight
//   and draws the next one from its latest state when the ack arrives.
// * Pointer input: "down", "move", "up" with CSS-pixel coordinates and a seq. One move is
//   outstanding at a time, from the latest position: the next rides on the ack of the frame
//   that answers it (one message a round), or follows the kernel's "done" when it drew
//   nothing. While a frame is in flight the kernel only keeps the latest move. Frames carry
//   the seq of the last pointer message drawn. Hover moves only while the kernel asks.
// * When the pointer rests (no move for REST_MS) and its latest position is still waiting
//   for an answer, that position goes at once, marked "rest": the kernel draws it and
//   sends it even with a frame in flight (a release does the same), so the exact picture
//   after the mouse stops is one round trip away, not two or three. One such message per
//   answer; a position riding on an ack is marked "rest" too when the pointer has been
//   still for REST_MS.
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
// them; an unchanged pixel keeps what the canvas shows.
function paint(ctx, msg, bytes) {
  const codec = msg.codec || "rgb";
  let total = 0;
  for (const r of msg.rects) total += r[2] * r[3];
  const bits = codec === "mask" ? Math.ceil(total / 8) : 0;
  let changed = total;
  if (codec === "mask") {
    changed = 0;
    for (let k = 0; k < total; k++) if (bytes[k >> 3] & (128 >> (k & 7))) changed++;
  }
  const colors = codec === "rgb" ? 0 : bits + msg.colors * 3;
  let at = colors;
  let rare = colors + changed;
  let k = 0;
  for (const [x, y, w, h] of msg.rects) {
    const image = codec === "mask" ? ctx.getImageData(x, y, w, h) : ctx.createImageData(w, h);
    const out = image.data;
    for (let i = 0; i < out.length; i += 4, k++) {
      if (codec === "mask" && !(bytes[k >> 3] & (128 >> (k & 7)))) continue;
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
          from = bits + c * 3;
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

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "fwwrules-board";
  const canvas = document.createElement("canvas");
  canvas.className = "fwwrules-board-canvas";
  canvas.dataset.frame = "-1";
  const restarted = document.createElement("div");
  restarted.className = "fwwrules-restarted";
  root.append(canvas, restarted);
  el.append(root);
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const ratio = window.devicePixelRatio || 1;
  const state = {
    id: -1, asked: false, queue: Promise.resolve(), seq: 0, latest: null, outstanding: false,
    restTimer: 0, rested: false,
  };

  function size() {
    const w = model.get("width");
    const h = model.get("height");
    root.style.width = canvas.style.width = `${w}px`;
    root.style.height = canvas.style.height = `${h}px`;
    restarted.textContent = model.get("restarted_text");
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
    const rgb = new Uint8Array(await inflate(buffers[0]));
    if (msg.full && (canvas.width !== msg.w || canvas.height !== msg.h)) {
      canvas.width = msg.w;
      canvas.height = msg.h;
    }
    const used = paint(ctx, msg, rgb);
    if (used !== rgb.length) console.warn("fwwrules: frame", msg.id, "has", rgb.length, "bytes, used", used);
    state.id = msg.id;
    state.asked = false;
    canvas.dataset.frame = String(msg.id);
    if (window.fwwrulesTrace) {
      window.fwwrulesTrace.push({
        frame: msg.id, seq: msg.seq, bytes: buffers[0].byteLength, received: msg.received, t: performance.now(),
      });
    }
    const ack = { type: "ack", id: msg.id };
    state.outstanding = false;
    state.rested = false;
    if (state.latest !== null) {
      // the pointer's latest position rides on the ack: the next frame is drawn from it
      ack.move = pointer_message("move", state.latest);
      // a pointer already still for REST_MS: the picture it rests on may overtake
      if (performance.now() - state.latest.timeStamp >= REST_MS) ack.move.rest = true;
      state.latest = null;
      state.outstanding = true;
    }
    model.send(ack);
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
    send("move", e, { rest: true });
  }

  // One move outstanding, always from the latest position: it is answered by the next
  // frame (the following move rides on its ack) or by "done" when it changed nothing.
  function pump() {
    if (state.latest === null || state.outstanding) return;
    const e = state.latest;
    state.latest = null;
    state.outstanding = true;
    send("move", e);
  }

  function onMessage(msg, buffers) {
    if (msg.type === "frame") {
      msg.received = performance.now();
      state.queue = state.queue.then(() => apply(msg, buffers)).catch((err) => {
        console.error("fwwrules: a frame could not be shown", err);
        state.asked = false;
        model.send({ type: "refresh" });
      });
    } else if (msg.type === "done") {
      state.outstanding = false;
      state.rested = false;
      pump();
    } else if (msg.type === "synced") {
      canvas.dataset.synced = JSON.stringify({ n: msg.n, last: msg.last, busy: msg.busy });
    }
  }

  const pointer = {
    pointerdown: (e) => {
      if (e.button !== 0) return;
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
      if (e.button !== 0) return;
      state.latest = null;
      clearTimeout(state.restTimer);
      send("up", e);
    },
  };
  for (const [name, fn] of Object.entries(pointer)) canvas.addEventListener(name, fn);
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("fwwrules-sync", (e) => model.send({ type: "sync", n: e.detail }));
  model.on("msg:custom", onMessage);
  model.on("change:width", size);
  model.on("change:height", size);
  model.on("change:restarted_text", size);
  size();
  model.send({ type: "hello", ratio });
  return () => {
    clearTimeout(state.restTimer);
    model.off("msg:custom", onMessage);
    model.off("change:width", size);
    model.off("change:height", size);
    model.off("change:restarted_text", size);
  };
}

export default { render };
