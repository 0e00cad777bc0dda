// Development aid: node look.mjs BASE VARIANT OUT [seat] [moves...] — a game of two people
// made over the API, some moves played, seat's page shot at 1280x800 and 390x844.
import { chromium } from "playwright-core";
const [base, variant, out, seatText = "0", ...moves] = process.argv.slice(2);
const seat = Number(seatText);
/** @param {string} method @param {string} path @param {unknown} body @param {string} [token] */
async function api(method, path, body, token) {
  const r = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
}
const made = await api("POST", "/api/games", { variant, seats: [{ kind: "human" }, { kind: "human" }], me: 0 });
const joined = await api("POST", `/api/games/${made.id}/seats/1/join`, {});
const tokens = [made.token, joined.token];
let turn = 0;
for (const move of moves) {
  await api("POST", `/api/games/${made.id}/moves`, { move }, tokens[turn]);
  turn = 1 - turn;
}
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const [w, h] of [
  [1280, 800],
  [390, 844],
]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  page.on("pageerror", (e) => console.log("pageerror:", e.message));
  await page.goto(`${base}/games/${made.id}#seat=${tokens[seat]}`);
  await page.waitForSelector("svg[data-board] .man");
  await page.waitForTimeout(Number(process.env.WAIT ?? 800));
  await page.screenshot({ path: `${out}-${w}.png`, fullPage: process.env.FULL === "1" });
  await page.close();
}
await browser.close();
