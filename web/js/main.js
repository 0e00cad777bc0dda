// Picks the page from the address: the lobby, a game, the archive, the rules.

import { archivePage } from "./archive.js";
import { h, replace } from "./dom.js";
import { chooseLanguage, chosenLanguage, LANGUAGES, language, t, useLanguage } from "./i18n.js";
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
          h("p", { class: "error" }, t("page.not-found")),
          h("p", {}, h("a", { href: "/" }, t("page.to-lobby"))),
        ),
      );
  } catch (e) {
    replace(app, h("p", { class: "error" }, e instanceof Error ? e.message : String(e)));
  }
}

/** The header's language choice: each language named in itself. */
function languageChoice() {
  const select = document.querySelector("select.language-choice");
  if (!(select instanceof HTMLSelectElement)) return;
  select.replaceChildren(
    ...LANGUAGES.map(([code, name]) => h("option", { value: code, lang: code, selected: code === language() }, name)),
  );
  select.addEventListener("change", () => chooseLanguage(/** @type {import("./i18n.js").Language} */ (select.value)));
}

applyToPage();
document.querySelector(".settings-open")?.addEventListener("click", openSettings);
await useLanguage(chosenLanguage());
languageChoice();
void route();
