// The clipping check of the dashboard's pages (issue 41 point 1): run in the page, it lists what
// a person at this width cannot read or reach, each with where it is and its text, so a failure
// reads as a list of places to fix. `dashboard-clipping.spec.ts` runs it over every page and
// proves it on planted faults.
import { expect, type Page } from "@playwright/test";

/**
 * Everything on the page that is cut, hidden behind a sideways scroll or out of reach:
 * - the document scrolls sideways;
 * - a box that clips (overflow hidden/clip, or an ellipsis) is narrower than its content (a
 *   text field is not: its value scrolls under the caret);
 * - a box that scrolls sideways (a table's region) is narrower than its content: what is
 *   beyond its edge is behind a scroll (a `pre` of code may scroll: its lines are kept whole);
 * - a text runs out of its table cell, out of the window, or past the edge of a box that clips
 *   or scrolls it;
 * - a control (link, button, select, input, summary) is outside the window sideways, behind
 *   such an edge, without a box (zero width or height), a select narrower than its choice, or
 *   a button whose words are broken across lines.
 * Invisible things are not judged: no box (display none, a closed details), visibility hidden,
 * visually hidden text (`sr-only`: a 1 px clipped box) and decorative drawings (aria-hidden, SVG).
 * Plain function, no closure: Playwright sends its source to the page.
 */
export function findLayoutProblems(): string[] {
  const out: string[] = [];
  const width = document.documentElement.clientWidth;
  const SLACK = 1;
  const textOf = (el: Element) => (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 60);
  const where = (el: Element): string => {
    const parts: string[] = [];
    for (let e: Element | null = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      const id = e.getAttribute("data-testid") ? `[data-testid=${e.getAttribute("data-testid")}]` : e.id ? `#${e.id}` : "";
      const col = e.getAttribute("data-col") ? `[data-col=${e.getAttribute("data-col")}]` : "";
      const label = e.getAttribute("aria-label") ? `[aria-label="${e.getAttribute("aria-label")!.slice(0, 30)}"]` : "";
      const name = e.getAttribute("name") ? `[name="${e.getAttribute("name")}"]` : "";
      parts.unshift(`${e.tagName.toLowerCase()}${id}${col}${label}${name}`);
      if (id) break;
    }
    return parts.join(" > ");
  };
  const say = (what: string, el: Element, detail = "") => {
    const line = `${what}: ${where(el)} "${textOf(el)}"${detail ? ` (${detail})` : ""}`;
    if (!out.includes(line)) out.push(line);
  };
  const visuallyHidden = (el: Element) => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return (s.position === "absolute" && r.width <= 1 && r.height <= 1) || (s.clip !== "auto" && s.clip !== "") || s.clipPath.startsWith("inset(50%");
  };
  const ignored = (el: Element): boolean => {
    if (el.closest("[aria-hidden=true], svg")) return true;
    if (el.getClientRects().length === 0) return true;
    if (getComputedStyle(el).visibility !== "visible") return true;
    for (let e: Element | null = el; e; e = e.parentElement) if (visuallyHidden(e)) return true;
    return false;
  };
  const px = (v: string) => Number.parseFloat(v) || 0;
  const round = (n: number) => Math.round(n);

  // The boxes that clip or scroll sideways, and the ones whose content does not fit.
  const all = [...document.body.querySelectorAll("*")];
  const clippers: Element[] = [];
  for (const el of all) {
    const s = getComputedStyle(el);
    const x = s.overflowX;
    if (x === "visible" && s.textOverflow !== "ellipsis") continue;
    if (el === document.body || ignored(el)) continue;
    if (x !== "visible") clippers.push(el);
    // A text field's value is whole: it scrolls under the caret as the person types, by design.
    if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") continue;
    const over = el.scrollWidth - el.clientWidth;
    if (over <= SLACK) {
      if (s.webkitLineClamp !== "none" && s.webkitLineClamp !== "" && el.scrollHeight > el.clientHeight + SLACK) say("text cut after some lines", el);
      continue;
    }
    if (x === "auto" || x === "scroll") {
      if (el.tagName !== "PRE") say("scrolls sideways (content behind the edge)", el, `${el.scrollWidth} px in ${el.clientWidth} px`);
    } else say(s.textOverflow === "ellipsis" ? "text cut with an ellipsis" : "content clipped", el, `${el.scrollWidth} px in ${el.clientWidth} px`);
  }

  /** The visible horizontal extent of an element: the window narrowed by every ancestor that clips or scrolls. */
  const visibleSpan = (el: Element): { left: number; right: number; by: Element | null } => {
    let left = 0;
    let right = width;
    let by: Element | null = null;
    for (const c of clippers) {
      if (c === el || !c.contains(el)) continue;
      const r = c.getBoundingClientRect();
      const s = getComputedStyle(c);
      const l = r.left + px(s.borderLeftWidth);
      const rr = l + c.clientWidth;
      if (l > left) left = l, by = c;
      if (rr < right) right = rr, by = c;
    }
    return { left, right, by };
  };

  // Text: inside its cell, the window and whatever clips it.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent?.trim()) continue;
    const parent = n.parentElement;
    if (!parent || parent.closest("script, style, noscript, pre") || ignored(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    if (r.width === 0) continue;
    const cell = parent.closest("td, th");
    if (cell) {
      const c = cell.getBoundingClientRect();
      if (r.left < c.left - SLACK || r.right > c.right + SLACK) say("text runs out of its cell", parent, `text ${round(r.left)}..${round(r.right)}, cell ${round(c.left)}..${round(c.right)}`);
    }
    const span = visibleSpan(parent);
    if (r.left < span.left - SLACK || r.right > span.right + SLACK) say(span.by ? "text behind the edge of a box" : "text outside the window", parent, `text ${round(r.left)}..${round(r.right)}, visible ${round(span.left)}..${round(span.right)}${span.by ? ` of ${where(span.by)}` : ""}`);
  }

  // Controls: a box, inside the window and their scroll box, a select as wide as its choice.
  const canvas = document.createElement("canvas").getContext("2d")!;
  for (const el of document.body.querySelectorAll("a[href], button, select, input:not([type=hidden]), textarea, summary, [role=button]")) {
    if (ignored(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) {
      say("control without a box", el, `${round(r.width)} x ${round(r.height)} px`);
      continue;
    }
    const span = visibleSpan(el);
    if (r.left < span.left - SLACK || r.right > span.right + SLACK) say(span.by ? "control behind the edge of a box" : "control outside the window", el, `${round(r.left)}..${round(r.right)}, visible ${round(span.left)}..${round(span.right)}${span.by ? ` of ${where(span.by)}` : ""}`);
    // A button with more lines than words: a word of its label was broken ("C / op / y"). (A
    // link, or a button named by a long path or id, wraps where it must.)
    if (el.matches("button, summary, [role=button]")) {
      const allWords = textOf(el).split(" ").filter(Boolean);
      const words = allWords.length;
      // A label of words, not a long reference or path (those wrap where they must, as a link's).
      const label = allWords.every((w) => w.length <= 20);
      // Lines of its text only (an icon or a switch's knob sits at its own height), tops within 8 px one line.
      const tops: number[] = [];
      const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let t = texts.nextNode(); t; t = texts.nextNode()) {
        if (!t.textContent?.trim() || !t.parentElement || ignored(t.parentElement)) continue;
        const range = document.createRange();
        range.selectNodeContents(t);
        for (const q of range.getClientRects()) if (q.width > 0) tops.push(q.top);
      }
      tops.sort((a, b) => a - b);
      const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1]! > 8).length;
      if (label && words > 0 && lines > words) say("control's words broken across lines", el, `${words} words on ${lines} lines`);
    }
    if (el instanceof HTMLSelectElement) {
      const s = getComputedStyle(el);
      canvas.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const choice = el.selectedOptions[0]?.text ?? "";
      const needed = canvas.measureText(choice).width + px(s.paddingLeft) + px(s.paddingRight) + px(s.borderLeftWidth) + px(s.borderRightWidth);
      if (r.width + SLACK < needed) say("select narrower than its choice", el, `"${choice}" needs ${round(needed)} px, has ${round(r.width)} px`);
    } else if (el instanceof HTMLInputElement && !["checkbox", "radio"].includes(el.type) && r.width < 40) {
      say("input too narrow to type in", el, `${round(r.width)} px`);
    }
  }

  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + SLACK) {
    // Which elements stick out, to say why.
    // Decorative drawings too: an aria-hidden chart wider than its box still widens the page.
    const wide = all.filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > doc.clientWidth + SLACK);
    const outer = wide.filter((e) => !wide.includes(e.parentElement!)).slice(0, 5);
    out.unshift(`the page scrolls sideways: ${doc.scrollWidth} px in ${doc.clientWidth} px${outer.length ? `; sticking out: ${outer.map((e) => where(e)).join("; ")}` : ""}`);
  }
  return out;
}

/** Fails, listing every problem, when the page at its current width has any (`what` names the page). */
export async function expectWhole(page: Page, what: string) {
  const width = page.viewportSize()?.width;
  expect(await page.evaluate(findLayoutProblems), `${what} at ${width} px: cut or out-of-reach content`).toEqual([]);
}
