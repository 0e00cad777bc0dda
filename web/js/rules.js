// The rules pages: the project's own description of each ruleset (docs/rules/<id>.md, served
// as /static/rules/<id>.html by the build, and docs/rules/<lang>/<id>.md in the reader's
// language where there is one), with its pieces as the game draws them.

import { rulesPage, variants } from "./api.js";
import { legendList, lookOf } from "./board.js";
import { h, replace } from "./dom.js";
import { language, t } from "./i18n.js";

/** @param {HTMLElement} app */
export async function rulesIndex(app) {
  const collator = new Intl.Collator(language());
  const all = [...(await variants()).values()].sort((a, b) => collator.compare(a.name, b.name));
  replace(
    app,
    h(
      "div",
      { class: "rules-index" },
      h("h1", {}, t("rules.title")),
      h(
        "ul",
        {},
        all.map((v) => h("li", {}, h("a", { href: `/rules/${v.id}` }, v.name))),
      ),
    ),
  );
}

/**
 * The sections of a rules page, by the headings of docs/rules/README.md's template (in
 * English: a page in another language names its sections in `data-section`), in the order
 * a player reads them: how to win and how a turn goes first, under the site's own titles,
 * then the men (drawn with their moves), then the details; the specification's own parts
 * (the men's table with Betza, the decisions) last and folded. (The build leaves the test
 * scenarios out.)
 */
/* eslint-disable chaturanga/catalogue-only -- the template's headings name sections (their
   `data-section`); a reader sees the page's own heading or the site's title instead. */
const FOR_PLAYERS = [
  ["End of game", "rules.how-to-win"],
  ["Playing a turn", "rules.how-a-turn-goes"],
];
const DETAILS = ["Board", "Setup", "Special rules", "Options"];
const SPECIFICATION = ["Men and how they move", "Decisions"];
/* eslint-enable chaturanga/catalogue-only */

/** @typedef {{title: string, nodes: Node[]}} Section */

/**
 * The page's text cut at its `h2` headings: what comes before the first, then each section
 * by its template heading (the `data-section` the build gives each `h2`, else its text),
 * with the title the page gives it.
 * @param {string} html
 * @returns {{intro: Node[], sections: Map<string, Section>}}
 */
function sectionsOf(html) {
  const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
  const root = doc.body.firstElementChild;
  /** @type {Node[]} */
  const intro = [];
  /** @type {Map<string, Section>} */
  const sections = new Map();
  /** @type {Node[]} */
  let current = intro;
  for (const node of [...(root?.childNodes ?? [])]) {
    if (node instanceof Element && node.tagName === "H2") {
      const title = node.textContent?.trim() ?? "";
      current = [];
      sections.set(node.getAttribute("data-section") ?? title, { title, nodes: current });
    } else if (!(node instanceof Element && node.tagName === "H1")) {
      current.push(document.importNode(node, true));
    }
  }
  return { intro, sections };
}

/**
 * @param {HTMLElement} app
 * @param {string} id
 */
export async function rulesPageView(app, id) {
  const v = (await variants()).get(id);
  if (!v) {
    replace(app, h("p", { class: "error" }, t("rules.no-ruleset", { id })));
    return;
  }
  // The fragments are the project's own files, served by the same binary.
  const html = await rulesPage(id);
  const { intro, sections } = sectionsOf(html);
  const body = h("div", { class: "rules-text" });
  /** @param {string} title @param {Node[]} nodes @param {string} name */
  const section = (title, nodes, name) => h("section", { "data-section": name }, h("h2", {}, title), ...nodes);
  body.append(...intro);
  if (!html) body.append(h("p", {}, t("rules.no-description")));
  for (const [heading, title] of FOR_PLAYERS) {
    const found = sections.get(heading);
    if (found) body.append(section(t(title), found.nodes, heading));
  }
  body.append(h("section", { "data-section": "men" }, h("h2", {}, t("rules.men")), legendList(lookOf(v))));
  const shown = new Set([...FOR_PLAYERS.map(([heading]) => heading), ...SPECIFICATION]);
  for (const heading of [...DETAILS, ...sections.keys()]) {
    const found = sections.get(heading);
    if (!found || shown.has(heading)) continue;
    shown.add(heading);
    body.append(section(found.title, found.nodes, heading));
  }
  const specification = SPECIFICATION.flatMap((heading) => {
    const found = sections.get(heading);
    return found ? [section(found.title, found.nodes, heading)] : [];
  });
  if (specification.length) {
    body.append(
      h(
        "details",
        { class: "specification" },
        h("summary", {}, t("rules.specification")),
        ...specification,
        h("p", { class: "meta" }, t("rules.scenarios", { file: `docs/rules/${id}.md` })),
      ),
    );
  }
  replace(
    app,
    h(
      "article",
      { class: "rules-page", "data-variant": id },
      h("h1", {}, v.name),
      h(
        "p",
        {},
        h("a", { href: `/?variant=${encodeURIComponent(id)}`, class: "play-this" }, t("rules.play-it")),
        " · ",
        h("a", { href: "/rules" }, t("rules.all")),
      ),
      body,
    ),
  );
}
