"""Does a screen read at a glance? One check for every browser test (Chromium's and WebKit's):
nothing wider than the screen, no text outside it sideways or cut off by its box, and (for the
TV, which never scrolls) every panel wholly on the screen and inside the boxes around it."""

#: The rooms a screen is looked at for: a few tables, a small room (the TV's big cards two a
#: row), a living room's worth, a hall's.
ROOM_TABLES = (3, 6, 10, 40)
PHONE_SIZES = ((360, 740), (1366, 768), (1920, 1080))
TV_SIZES = ((1920, 1080), (1280, 720))
#: The TV's panels: each one wholly on the screen (the ones a page shows).
TV_PANELS = ("#banner", ".tv-qr", ".tv-standings", ".tv-races", ".tv-moves", ".tv-prizes",
             ".tv-set-award", "#tv-tables > .table-live", ".tv-bunco")

#: A script: what is wrong on the screen now, one line each (empty: it reads at a glance).
#: Its argument is the list of panel selectors that must be wholly on the screen.
_BODY = """
const W = window.innerWidth, H = window.innerHeight, bad = [];
const scroller = document.scrollingElement;
if (scroller.scrollWidth > W) bad.push(`the page scrolls sideways: ${scroller.scrollWidth} > ${W}`);
const classes = e => typeof e.className === "string" && e.className.trim()
  ? "." + e.className.trim().split(/\\s+/).join(".") : "";
const label = e => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${classes(e)}` +
  ` "${(e.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 50)}"`;
const shown = e => {
  const r = e.getBoundingClientRect(), s = getComputedStyle(e);
  return r.width >= 1 && r.height >= 1 && s.visibility !== "hidden" && s.clip === "auto";
};
const scrolls = s => s.overflowX === "auto" || s.overflowX === "scroll";
for (const e of document.body.querySelectorAll("*")) {
  if (!shown(e) || e.closest(".visually-hidden")) continue;
  const r = e.getBoundingClientRect(), s = getComputedStyle(e);
  const text = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  if (r.width > W + 1) bad.push(`wider than the screen (${Math.round(r.width)}px): ${label(e)}`);
  else if (text && (r.left < -1 || r.right > W + 1))
    bad.push(`outside the screen sideways (${Math.round(r.left)}..${Math.round(r.right)}): ` +
             label(e));
  // Text wider than its box: cut off (overflow hidden, an ellipsis), or spilling over what
  // is beside it (an inline element has no box of its own to measure).
  if (text && !scrolls(s) && s.display !== "inline" && e.scrollWidth > e.clientWidth + 1)
    bad.push(`text wider than its box (${e.scrollWidth} > ${e.clientWidth}): ${label(e)}`);
}
for (const e of panels.length ? document.querySelectorAll(panels.join(",")) : []) {
  if (!shown(e)) continue;
  const r = e.getBoundingClientRect(), at = [r.left, r.top, r.right, r.bottom].map(Math.round);
  if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) {
    bad.push(`panel off the screen (${at} on ${W}x${H}): ${label(e)}`);
    continue;
  }
  for (let box = e.parentElement; box && box !== document.body; box = box.parentElement) {
    const b = box.getBoundingClientRect(), bs = getComputedStyle(box);
    if (bs.overflow !== "visible" && (r.bottom > b.bottom + 1 || r.right > b.right + 1)) {
      bad.push(`panel cut off by ${label(box).split(" ")[0]} (${at} in ${Math.round(b.bottom)}): ` +
               label(e));
      break;
    }
  }
}
return bad;
"""

PROBLEMS = "const panels = arguments[0] || [];" + _BODY  # Selenium's execute_script
PROBLEMS_FN = "(given) => { const panels = given || [];" + _BODY + "}"  # Playwright's evaluate
