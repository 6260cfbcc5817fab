// The browser side of fwwrules_widgets' board canvas (an anywidget ES module).
//
// The kernel draws the board; this shows it and sends the mouse back. Protocol (see
// board_canvas.py, which is the other half):
// * On render the view says "hello" with its devicePixelRatio; until then the kernel sends
//   no picture. It answers with a full frame at that ratio.
// * A frame is {id, base, full, w, h, rects: [[x, y, w, h], ...]} plus one buffer: the rects'
//   RGB pixels, row by row, rect after rect, zlib-compressed. Frames are applied strictly in
//   the order they arrive, each whole (all its rects or none). A diff frame whose base is not
//   the frame shown is never applied: the view asks for a full frame ("refresh") instead.
//   After applying a frame the view sends "ack" with its id; the kernel keeps at most one
//   frame in flight, and draws the next one from its latest state when the ack arrives.
// * Pointer input: "down", "move", "up" with CSS-pixel coordinates. At most one move is
//   outstanding: the next is sent, from the latest pointer position, once the kernel has
//   answered the last ("done"). Hover moves are sent only while the kernel asks (hover).
// * "sync" (asked by a "fwwrules-sync" DOM event on the canvas, for tests and benchmarks):
//   the kernel answers "synced" once it has handled every earlier message, with the id of
//   its last frame and whether one is still to come; the canvas keeps it in data-synced.
// * When the kernel is gone (the widget manager marks the view disconnected after a kernel
//   restart) the view says so in words (the CSS shows .fwwrules-restarted).

function inflate(buffer) {
  const bytes = buffer instanceof DataView
    ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    : new Uint8Array(buffer);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Response(stream).arrayBuffer();
}

function paint(ctx, rects, rgb) {
  let at = 0;
  for (const [x, y, w, h] of rects) {
    const image = ctx.createImageData(w, h);
    const out = image.data;
    for (let i = 0; i < out.length; i += 4, at += 3) {
      out[i] = rgb[at];
      out[i + 1] = rgb[at + 1];
      out[i + 2] = rgb[at + 2];
      out[i + 3] = 255;
    }
    ctx.putImageData(image, x, y);
  }
  return at;
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
  const state = { id: -1, asked: false, queue: Promise.resolve(), seq: 0, waiting: 0, latest: null };

  function size() {
    const w = model.get("width");
    const h = model.get("height");
    root.style.width = canvas.style.width = `${w}px`;
    root.style.height = canvas.style.height = `${h}px`;
    restarted.textContent = model.get("restarted_text");
  }

  async function apply(msg, buffers) {
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
    const used = paint(ctx, msg.rects, rgb);
    if (used !== rgb.length) console.warn("fwwrules: frame", msg.id, "has", rgb.length, "bytes, used", used);
    state.id = msg.id;
    state.asked = false;
    canvas.dataset.frame = String(msg.id);
    model.send({ type: "ack", id: msg.id });
  }

  function send(type, e) {
    const box = canvas.getBoundingClientRect();
    state.seq += 1;
    model.send({
      type, seq: state.seq, x: e.clientX - box.left, y: e.clientY - box.top,
      button: e.button, buttons: e.buttons,
      shift: e.shiftKey, ctrl: e.ctrlKey, alt: e.altKey,
    });
    return state.seq;
  }

  function pump() {
    if (state.waiting || state.latest === null) return;
    const e = state.latest;
    state.latest = null;
    state.waiting = send("move", e);
  }

  function onMessage(msg, buffers) {
    if (msg.type === "frame") {
      state.queue = state.queue.then(() => apply(msg, buffers)).catch((err) => {
        console.error("fwwrules: a frame could not be shown", err);
        state.asked = false;
        model.send({ type: "refresh" });
      });
    } else if (msg.type === "done") {
      if (msg.seq >= state.waiting) state.waiting = 0;
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
      send("down", e);
      e.preventDefault();
    },
    pointermove: (e) => {
      if (!e.buttons && !model.get("hover")) return;
      state.latest = e;
      pump();
    },
    pointerup: (e) => {
      if (e.button !== 0) return;
      state.latest = null;
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
    model.off("msg:custom", onMessage);
    model.off("change:width", size);
    model.off("change:height", size);
    model.off("change:restarted_text", size);
  };
}

export default { render };
