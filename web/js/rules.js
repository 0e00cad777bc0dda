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
 * @param {HTMLElement} app
 * @param {string} id
 */
export async function rulesPageView(app, id) {
  const v = (await variants()).get(id);
  if (!v) {
    replace(app, h("p", { class: "error" }, `No ruleset ${id}.`));
    return;
  }
  const body = h("div", { class: "rules-text" });
  const html = await rulesPage(id);
  // The fragments are the project's own files, served by the same binary.
  body.innerHTML = html || "<p>No description yet.</p>";
  const pieces = legendList(lookOf(v));
  replace(
    app,
    h(
      "article",
      { class: "rules-page", "data-variant": id },
      h("h1", {}, v.name),
      h("p", {}, h("a", { href: "/", class: "play-this" }, "Play it"), " · ", h("a", { href: "/rules" }, "All rules")),
      body,
      h("h2", {}, "The pieces as drawn here"),
      pieces,
    ),
  );
}
