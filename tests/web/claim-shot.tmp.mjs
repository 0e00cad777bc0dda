// Screens of an abandonment claim (not committed).
import { chromium } from "playwright-core";
const base = "http://127.0.0.1:8099";
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
async function api(method, path, body, token) {
  const r = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return r.json();
}
async function pageFor(id, token, width, height) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.log("pageerror:", e.message));
  await page.goto(`${base}/games/${id}#seat=${token}`);
  await page.locator("svg[data-board] [data-cell]").first().waitFor();
  return page;
}
const g = await api("POST", "/api/games", { variant: "chess", seats: [{ kind: "human" }, { kind: "human" }], me: 0, clock: { kind: "fischer", base: 180, increment: 2 } });
const black = await api("POST", `/api/games/${g.id}/seats/1/join`, {});
const white = await pageFor(g.id, g.token, 1280, 800);
const blackPage = await pageFor(g.id, black.token, 390, 844);
await api("POST", `/api/games/${g.id}/moves`, { move: "e4" }, g.token);
await api("POST", `/api/games/${g.id}/moves`, { move: "e5" }, black.token);
// Black closes his page: gone after 20 s (and a socket beat's 10 s at most).
await blackPage.context().close();
await white.locator('button[data-action="claim-victory"]').waitFor({ timeout: 60_000 });
await white.screenshot({ path: "/tmp/shots/claim-desk.png" });
const phone = await pageFor(g.id, g.token, 390, 844);
await phone.screenshot({ path: "/tmp/shots/claim-phone.png", fullPage: true });
await white.locator('button[data-action="claim-victory"]').click();
await white.locator(".banner").waitFor();
await white.waitForTimeout(500);
await white.screenshot({ path: "/tmp/shots/claimed-desk.png" });
console.log(JSON.stringify((await api("GET", `/api/games/${g.id}`)).reason));
await browser.close();
