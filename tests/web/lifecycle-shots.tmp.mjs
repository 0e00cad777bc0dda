// Screens of the lifecycle's new states (not committed): first-move countdown, rematch offer,
// abandonment claim, byo-yomi.
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
for (const [w, hgt, tag] of [[1280, 800, "desk"], [390, 844, "phone"]]) {
  // 1. Against the engine, 30 s a move: the first-move countdown.
  let g = await api("POST", "/api/games", { variant: "chess", seats: [{ kind: "human" }, { kind: "engine", level: 1 }], me: 0, clock: { kind: "move", seconds: 30 } });
  let p = await pageFor(g.id, g.token, w, hgt);
  await p.waitForTimeout(2500);
  await p.screenshot({ path: `/tmp/shots/first-move-${tag}.png` });
  // 2. Two people, byo-yomi, a rematch offered after a resignation.
  g = await api("POST", "/api/games", { variant: "shogi", seats: [{ kind: "human" }, { kind: "human" }], me: 0, clock: { kind: "byoyomi", base: 10, period: 30, periods: 3 } });
  const black = await api("POST", `/api/games/${g.id}/seats/1/join`, {});
  const p0 = await pageFor(g.id, g.token, w, hgt);
  const p1 = await pageFor(g.id, black.token, w, hgt);
  await api("POST", `/api/games/${g.id}/moves`, { move: "7g7f" }, g.token);
  await api("POST", `/api/games/${g.id}/moves`, { move: "3c3d" }, black.token);
  await p0.waitForTimeout(12_000);
  await p0.screenshot({ path: `/tmp/shots/byoyomi-${tag}.png` });
  await api("POST", `/api/games/${g.id}/actions`, { action: "resign" }, g.token);
  await api("POST", `/api/games/${g.id}/actions`, { action: "rematch-offer" }, g.token);
  await p1.waitForTimeout(1000);
  await p1.screenshot({ path: `/tmp/shots/rematch-offer-${tag}.png` });
  await p0.context().close();
  await p1.context().close();
  await p.context().close();
}
await browser.close();
