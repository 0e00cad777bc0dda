// The rules pages: the project's own description of each ruleset (docs/rules/<id>.md, served
// as /static/rules/<id>.html by the build), with its pieces as the game draws them.

import { rulesPage, variants } from "./api.js";
import { legendList, lookOf } from "./board.js";
import { h, replace } from "./dom.js";

/** @param {HTMLElement} app */
export async function rulesIndex(app) {
  const all = [...(await variants()).values()];
  replace(
    app,
    h(
      "div",
      { class: "rules-index" },
      h("h1", {}, "Rules"),
      h(
        "ul",
        {},
        all.map((v) => h("li", {}, h("a", { href: `/rules/${v.id}` }, v.name))),
      ),
    ),
  );
}

/**
 * The sections of a rules page, by the headings of docs/rules/README.md's template, in the
 * order a player reads them: how to win and how a turn goes first, then the men (drawn with
 * their moves), then the details; the specification's own parts (the men's table with
 * Betza, the decisions) last and folded. (The build leaves the test scenarios out.)
 */
const FOR_PLAYERS = [
  ["End of game", "How to win"],
  ["Playing a turn", "How a turn goes"],
];
const DETAILS = ["Board", "Setup", "Special rules", "Options"];
const SPECIFICATION = ["Men and how they move", "Decisions"];

/**
 * The page's text cut at its `h2` headings: what comes before the first, then each section.
 * @param {string} html
 * @returns {{intro: Node[], sections: Map<string, Node[]>}}
 */
function sectionsOf(html) {
  const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
  const root = doc.body.firstElementChild;
  /** @type {Node[]} */
  const intro = [];
  /** @type {Map<string, Node[]>} */
  const sections = new Map();
  /** @type {Node[]} */
  let current = intro;
  for (const node of [...(root?.childNodes ?? [])]) {
    if (node instanceof Element && node.tagName === "H2") {
      current = [];
      sections.set(node.textContent?.trim() ?? "", current);
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
    replace(app, h("p", { class: "error" }, `No ruleset ${id}.`));
    return;
  }
  // The fragments are the project's own files, served by the same binary.
  const { intro, sections } = sectionsOf((await rulesPage(id)) || "<p>No description yet.</p>");
  const body = h("div", { class: "rules-text" });
  /** @param {string} title @param {Node[]} nodes @param {string} name */
  const section = (title, nodes, name) => h("section", { "data-section": name }, h("h2", {}, title), ...nodes);
  body.append(...intro);
  for (const [heading, title] of FOR_PLAYERS) {
    const nodes = sections.get(heading);
    if (nodes) body.append(section(title, nodes, heading));
  }
  body.append(h("section", { "data-section": "men" }, h("h2", {}, "The men"), legendList(lookOf(v))));
  const shown = new Set([...FOR_PLAYERS.map(([heading]) => heading), ...SPECIFICATION]);
  for (const heading of [...DETAILS, ...sections.keys()]) {
    const nodes = sections.get(heading);
    if (!nodes || shown.has(heading)) continue;
    shown.add(heading);
    body.append(section(heading, nodes, heading));
  }
  const specification = SPECIFICATION.filter((heading) => sections.has(heading)).map((heading) =>
    section(heading, sections.get(heading) ?? [], heading),
  );
  if (specification.length) {
    body.append(
      h(
        "details",
        { class: "specification" },
        h("summary", {}, "The specification: the men in Betza notation and the decisions taken"),
        ...specification,
        h("p", { class: "meta" }, `The test scenarios are in the project's docs/rules/${id}.md.`),
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
        h("a", { href: `/?variant=${encodeURIComponent(id)}`, class: "play-this" }, "Play it"),
        " · ",
        h("a", { href: "/rules" }, "All rules"),
      ),
      body,
    ),
  );
}
