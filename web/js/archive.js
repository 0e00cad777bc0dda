// The archive: finished games, newest first, each opening on its game page for replay.

import { api, variants } from "./api.js";
import { h, replace } from "./dom.js";

/** @param {HTMLElement} app */
export async function archivePage(app) {
  const names = await variants();
  const select = h(
    "select",
    { "aria-label": "game" },
    h("option", { value: "" }, "every game"),
    [...names.values()].map((v) => h("option", { value: v.id }, v.name)),
  );
  const list = h("ul", { class: "archive-list" });
  const draw = async () => {
    const data = await api("GET", "/api/games?status=finished&limit=100");
    const wanted = /** @type {HTMLSelectElement} */ (select).value;
    const games = data.games.filter((/** @type {any} */ g) => !wanted || g.variant === wanted);
    replace(
      list,
      games.length
        ? games.map((/** @type {any} */ g) =>
            h(
              "li",
              { "data-game": g.id },
              h("a", { href: `/games/${g.id}` }, names.get(g.variant)?.name ?? g.variant),
              " ",
              h("span", { class: "result" }, g.result ?? "*"),
              " ",
              h(
                "span",
                { class: "meta" },
                `${(g.reason ?? "").replaceAll("-", " ")} · ${g.ply} plies · ${new Date(g.created_ms).toLocaleString()}`,
              ),
            ),
          )
        : h("li", { class: "meta" }, "No finished games."),
    );
  };
  select.addEventListener("change", draw);
  replace(app, h("div", { class: "archive" }, h("h1", {}, "Finished games"), h("label", {}, "Show ", select), list));
  await draw();
}
