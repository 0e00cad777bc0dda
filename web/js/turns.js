// The move list's turns: who moved, grouped and numbered as each game's players read them.

/**
 * The move list's turns: each run of moves by one player is a turn (progressive chess's
 * series, Chex's draw and placement), numbered per board by rounds of its players: `1.` before
 * the first player's turn of a one-board game, `1A`/`1a` on bughouse's boards (BPGN's way).
 * @param {number[]} movers the player of each move
 * @param {(seat: number) => number} boardOf the board a player plays on
 * @param {(board: number) => number[]} playersOf the players of a board, the first to move first
 * @param {number} boards how many boards there are
 * @returns {{label: string, seat: number, plies: number[]}[]}
 */
export function numberTurns(movers, boardOf, playersOf, boards) {
  /** @type {{label: string, seat: number, plies: number[]}[]} */
  const turns = [];
  /** @type {Map<number, number>} turns so far on each board */
  const counts = new Map();
  let last = null;
  for (const [i, seat] of movers.entries()) {
    if (last && last.seat === seat) {
      last.plies.push(i + 1);
      continue;
    }
    const board = boardOf(seat);
    const k = counts.get(board) ?? 0;
    counts.set(board, k + 1);
    const players = playersOf(board);
    const round = Math.floor(k / Math.max(players.length, 1)) + 1;
    let label;
    if (boards > 1) {
      const letter = String.fromCharCode(65 + board);
      label = `${round}${players.indexOf(seat) === 0 ? letter : letter.toLowerCase()}.`;
    } else {
      label = k % Math.max(players.length, 1) === 0 ? `${round}.` : "";
    }
    last = { label, seat, plies: [i + 1] };
    turns.push(last);
  }
  return turns;
}
