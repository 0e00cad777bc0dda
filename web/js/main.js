// Picks the page from the address: the lobby, a game, the archive, the rules.

import { archivePage } from "./archive.js";
import { h, replace } from "./dom.js";
import { gamePage } from "./game.js";
import { lobbyPage } from "./lobby.js";
import { openSettings } from "./preferences.js";
import { rulesIndex, rulesPageView } from "./rules.js";
import { applyToPage } from "./settings.js";

async function route() {
  const app = document.getElementById("app");
  if (!app) return;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const game = path.match(/^\/games\/([^/]+)$/);
  const rules = path.match(/^\/rules\/([^/]+)$/);
  try {
    if (path === "/") await lobbyPage(app);
    else if (game) await gamePage(app, decodeURIComponent(game[1]));
    else if (path === "/archive") await archivePage(app);
    else if (path === "/rules") await rulesIndex(app);
    else if (rules) await rulesPageView(app, decodeURIComponent(rules[1]));
    else
      replace(
        app,
        h(
          "div",
          { class: "not-found" },
          h("p", { class: "error" }, "No such page."),
          h("p", {}, h("a", { href: "/" }, "Go to the lobby")),
        ),
      );
  } catch (e) {
    replace(app, h("p", { class: "error" }, e instanceof Error ? e.message : String(e)));
  }
}

applyToPage();
document.querySelector(".settings-open")?.addEventListener("click", openSettings);
void route();
