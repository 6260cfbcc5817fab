// Counts the kernel WebSocket's messages in the page (bench/browser_latency.py): for each, the
// direction ("up" toward the kernel, "down" toward the browser), the time, the bytes and a
// kind: "status:busy", "custom:frame" (a widget's custom message and its type),
// "update:value" (a widget's state update and its keys), else the message type. Installed
// before the page loads (add_init_script); reads both of Jupyter's WebSocket formats (JSON
// text, and the binary v1 protocol: offsets, then channel, header, parent, metadata, content).
// A board canvas's custom message also gives its "seq" (the pointer message it answers).
(() => {
  const log = (window.__ws = []);
  const text = new TextDecoder();

  function parse(data) {
    if (typeof data === "string") return JSON.parse(data);
    const buf = data instanceof ArrayBuffer ? data : data.buffer;
    const view = new DataView(buf);
    const n = Number(view.getBigUint64(0, true));
    const at = [];
    for (let i = 1; i <= n; i++) at.push(Number(view.getBigUint64(8 * i, true)));
    at.push(buf.byteLength);
    const part = (i) => text.decode(new Uint8Array(buf, at[i], at[i + 1] - at[i]));
    return { header: JSON.parse(part(1)), content: JSON.parse(part(4)) };
  }

  function seq(data) {
    try {
      const d = (parse(data).content || {}).data || {};
      return d.method === "custom" && d.content ? d.content.seq : undefined;
    } catch (e) {
      return undefined;
    }
  }

  function kind(data) {
    let msg;
    try {
      msg = parse(data);
    } catch (e) {
      return "?";
    }
    const type = msg.header && msg.header.msg_type;
    const content = msg.content || {};
    if (type === "status") return `status:${content.execution_state}`;
    if (type !== "comm_msg") return type;
    const d = content.data || {};
    if (d.method === "custom") {
      const c = d.content || {};
      return `custom:${c.type || c.event || "?"}`;
    }
    if (d.method === "update") return `update:${Object.keys(d.state || {}).join(",")}`;
    return `comm:${d.method}`;
  }

  const size = (data) => (typeof data === "string" ? data.length : data.byteLength || 0);
  const note = (dir, data) =>
    log.push({ dir, t: performance.now(), bytes: size(data), kind: kind(data), seq: seq(data) });
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      if (!String(args[0]).includes("/channels")) return;
      this.addEventListener("message", (ev) => {
        if (ev.data instanceof Blob) ev.data.arrayBuffer().then((b) => note("down", b));
        else note("down", ev.data);
      });
    }

    send(data) {
      if (String(this.url).includes("/channels")) note("up", data);
      return super.send(data);
    }
  };
})();
