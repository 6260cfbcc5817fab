// The restart notice (board_canvas.restart_notice): words over a panel without a board
// canvas once its kernel is gone, as the board canvas shows over itself.
export default {
  render({ model, el }) {
    const words = document.createElement("div");
    words.className = "fwwrules-restarted";
    const show = () => { words.textContent = model.get("restarted_text"); };
    el.classList.add("fwwrules-notice");
    el.append(words);
    show();
    model.on("change:restarted_text", show);
    return () => model.off("change:restarted_text", show);
  },
};
