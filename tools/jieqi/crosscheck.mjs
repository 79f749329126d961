// Jieqi perft cross-check against JieqiBox's own move legality (Velithia/JieqiBox,
// src/composables/useChessGame.ts), run outside jiang.
//
//   node tools/jieqi/crosscheck.mjs --jieqibox PATH/useChessGame.ts \
//       --typescript PATH/node_modules/typescript --jiang target/release/examples/jieqi_perft \
//       [--positions 100] [--depth 3] [--chance-depth 2] [--seed 1] [--out FILE]
//
// The script reads JieqiBox's source file at run time, cuts out its legality functions
// (getPieceSide, isMoveMechanicallyValid, isInCheck, isCurrentPositionInCheck,
// wouldBeInCheckAfterMove, isMoveValid) and getRoleByPosition, strips their TypeScript
// types with the TypeScript compiler, and runs them over its own piece list. Around them
// it walks the trees itself (written for this check, not from jiang): the reveal of a
// face-down piece and the capture of one, with full information (every face-down
// piece's kind fixed) and as a chance tree (one branch per distinct kind in the pool).
// It makes the positions by random playouts from random deals (captures preferred, so
// that face-down pieces get captured), prints each position's FEN in jiang's format and
// the three counts, and compares them with jiang's (examples/jieqi_perft.rs):
//   perft  (each move once: full information),
//   chance (every chance outcome a branch: a player's view of the same position),
//   view   (the chance tree, the last ply counting moves once).
// Exit status 0 when every count agrees.

import { readFileSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt
}
const sourcePath = opt('jieqibox')
const tsPath = opt('typescript')
const jiangPath = opt('jiang')
if (!sourcePath || !tsPath || !jiangPath) {
  console.error('usage: crosscheck.mjs --jieqibox useChessGame.ts --typescript DIR --jiang BIN [--positions N] [--depth D] [--chance-depth D] [--seed S] [--out FILE]')
  process.exit(2)
}
const N = parseInt(opt('positions', '100'), 10)
const DEPTH = parseInt(opt('depth', '3'), 10)
const CHANCE_DEPTH = parseInt(opt('chance-depth', '2'), 10)
let seed = BigInt(opt('seed', '1'))
const outFile = opt('out')

// ---- JieqiBox's functions, cut out of its source ----
const source = readFileSync(sourcePath, 'utf8')
function cut(name) {
  const start = source.indexOf(`const ${name} = (`)
  if (start < 0) throw new Error(`${name} not found in ${sourcePath}`)
  const arrow = source.indexOf('=> {', start) // after the parameter list
  let depth = 0
  for (let i = arrow + 3; i < source.length; i++) {
    if (source[i] === '{') depth++
    else if (source[i] === '}') {
      depth--
      if (depth === 0) return source.slice(start, i + 1)
    }
  }
  throw new Error(`${name}: no end`)
}
const names = ['getRoleByPosition', 'getPieceSide', 'isMoveMechanicallyValid', 'isInCheck',
  'isCurrentPositionInCheck', 'wouldBeInCheckAfterMove', 'isMoveValid']
const require = createRequire(import.meta.url)
const ts = require(tsPath)
const tsCode = names.map(cut).join('\n')
const js = ts.transpileModule(tsCode, { compilerOptions: { target: ts.ScriptTarget.ES2020 } }).outputText
const lib = new Function('pieces', 'isBoardFlipped',
  `${js}\nreturn { ${names.join(', ')} }`)
const pieces = { value: [] }
const isBoardFlipped = { value: false }
const box = lib(pieces, isBoardFlipped)

// ---- the position: JieqiBox pieces (row 0 = rank 9) + pools ----
const ROLE = { R: 'chariot', N: 'horse', B: 'elephant', A: 'advisor', K: 'king', C: 'cannon', P: 'pawn' }
const LETTER = Object.fromEntries(Object.entries(ROLE).map(([l, r]) => [r, l]))
const KINDS = 'RNBAKCP'

function rand() {
  // SplitMix64
  seed = (seed + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn
  let z = seed
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn
  return Number((z ^ (z >> 31n)) >> 11n) / 2 ** 53
}

// A state: { pieces: [{id,name,row,col,isKnown,initialRole,truth}], side, pool: {R:..,r:..},
// captured: {..}, half, full }. `truth` is a face-down piece's kind letter (full information).
const START = 'xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX'
function emptyCounts() { return Object.fromEntries([...'RNBAKCPrnbakcp'].map(c => [c, 0])) }

function dealStart() {
  const st = { pieces: [], side: 'red', pool: emptyCounts(), captured: emptyCounts(), half: 0, full: 1 }
  const bags = { red: [], black: [] }
  for (const [l, n] of [['R', 2], ['N', 2], ['B', 2], ['A', 2], ['C', 2], ['P', 5]]) {
    for (let i = 0; i < n; i++) { bags.red.push(l); bags.black.push(l.toLowerCase()) }
    st.pool[l] = n; st.pool[l.toLowerCase()] = n
  }
  for (const b of Object.values(bags)) {
    for (let i = b.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [b[i], b[j]] = [b[j], b[i]] }
  }
  let id = 1
  START.split('/').forEach((rowStr, row) => {
    let col = 0
    for (const ch of rowStr) {
      if (/\d/.test(ch)) { col += parseInt(ch, 10); continue }
      const red = ch === ch.toUpperCase()
      const side = red ? 'red' : 'black'
      if (ch.toLowerCase() === 'k') {
        st.pieces.push({ id: id++, name: `${side}_king`, row, col, isKnown: true, initialRole: 'king' })
      } else {
        st.pieces.push({ id: id++, name: `${side}_unknown`, row, col, isKnown: false,
          initialRole: box.getRoleByPosition(row, col), truth: bags[side].pop() })
      }
      col++
    }
  })
  return st
}

function sideOf(p) { pieces.value = []; return box.getPieceSide(p) }

function legal(st) {
  pieces.value = st.pieces
  const moves = []
  for (const p of st.pieces) {
    if (box.getPieceSide(p) !== st.side) continue
    for (let row = 0; row < 10; row++) {
      for (let col = 0; col < 9; col++) {
        if (row === p.row && col === p.col) continue
        pieces.value = st.pieces
        if (box.isMoveValid(p, row, col)) moves.push({ id: p.id, row, col })
      }
    }
  }
  pieces.value = st.pieces
  return moves
}

function clone(st) {
  return { ...st, pieces: st.pieces.map(p => ({ ...p })), pool: { ...st.pool }, captured: { ...st.captured } }
}

// The outcomes of a move: [{reveal, capt}] with letters or null. With `full`, the one
// that the face-down pieces' true kinds give; otherwise one per distinct pool kind.
function outcomes(st, m, full) {
  const p = st.pieces.find(q => q.id === m.id)
  const victim = st.pieces.find(q => q.row === m.row && q.col === m.col)
  const mine = st.side === 'red' ? c => c === c.toUpperCase() : c => c === c.toLowerCase()
  const kinds = (own) => Object.keys(st.pool).filter(c => st.pool[c] > 0 && (own ? mine(c) : !mine(c)))
  const reveals = p.isKnown ? [null] : full ? [p.truth] : kinds(true)
  const capts = victim && !victim.isKnown ? (full ? [victim.truth] : kinds(false)) : [null]
  const out = []
  for (const r of reveals) for (const c of capts) out.push({ reveal: r, capt: c })
  return out
}

function play(st, m, o) {
  const n = clone(st)
  const vi = n.pieces.findIndex(q => q.row === m.row && q.col === m.col)
  if (vi >= 0) {
    const v = n.pieces[vi]
    if (!v.isKnown && o.capt) { n.pool[o.capt]--; n.captured[o.capt]++ }
    n.pieces.splice(vi, 1)
    n.half = 0
  } else n.half++
  const p = n.pieces.find(q => q.id === m.id)
  if (!p.isKnown) {
    n.pool[o.reveal]--
    p.isKnown = true
    p.name = `${n.side}_${ROLE[o.reveal.toUpperCase()]}`
    delete p.truth
  }
  p.row = m.row; p.col = m.col
  if (n.side === 'black') n.full++
  n.side = n.side === 'red' ? 'black' : 'red'
  return n
}

function perft(st, d, mode) {
  if (d === 0) return 1
  const moves = legal(st)
  if (mode === 'view' && d === 1) return moves.length
  let total = 0
  for (const m of moves) {
    const outs = outcomes(st, m, mode === 'full')
    if (d === 1) { total += outs.length; continue }
    for (const o of outs) total += perft(play(st, m, o), d - 1, mode)
  }
  return total
}

function fen(st, withAssignment) {
  const grid = Array.from({ length: 10 }, () => Array(9).fill(null))
  for (const p of st.pieces) grid[p.row][p.col] = p
  const board = grid.map(r => {
    let s = '', e = 0
    for (const p of r) {
      if (!p) { e++; continue }
      if (e) { s += e; e = 0 }
      const red = sideOf(p) === 'red'
      const l = p.isKnown ? LETTER[p.name.split('_')[1]] : 'X'
      s += red ? l : l.toLowerCase()
    }
    return s + (e ? e : '')
  }).join('/')
  const counts = c => {
    let s = ''
    for (const k of KINDS) for (const l of [k, k.toLowerCase()]) if (c[l] > 0) s += l + c[l]
    return s || '-'
  }
  let f = `${board} ${st.side === 'red' ? 'w' : 'b'} ${counts(st.pool)} ${counts(st.captured)} ${st.half} ${st.full}`
  if (withAssignment) {
    const a = grid.flat().filter(p => p && !p.isKnown).map(p => p.truth).join('')
    if (a) f += ' ' + a
  }
  return f
}

// A player's view that forgot what was captured: the captured face-down pieces back in
// the pools (JieqiBox's engine view of the opponent's captures).
function forgetful(st) {
  const n = clone(st)
  for (const c of Object.keys(n.captured)) { n.pool[c] += n.captured[c]; n.captured[c] = 0 }
  return n
}

// ---- the positions ----
const cases = []
while (cases.length < N) {
  let st = dealStart()
  const plies = Math.floor(rand() * 50)
  let ok = true
  for (let i = 0; i < plies; i++) {
    const moves = legal(st)
    if (moves.length === 0) { ok = i > 0; break }
    const caps = moves.filter(m => st.pieces.some(q => q.row === m.row && q.col === m.col))
    const pick = caps.length && rand() < 0.6 ? caps : moves
    const m = pick[Math.floor(rand() * pick.length)]
    st = play(st, m, outcomes(st, m, true)[0])
  }
  if (!ok) continue
  cases.push(st)
}

let failures = 0
const lines = []
const query = []
for (const st of cases) {
  const view = cases.indexOf(st) % 2 ? forgetful(st) : st
  query.push({ st, full: fen(st, true), view: fen(view, false), viewState: view })
}
const input = query.flatMap(q => [`${DEPTH} ${q.full}`, `${CHANCE_DEPTH} ${q.view}`]).join('\n') + '\n'
const jiangOut = execFileSync(jiangPath, [], { input, maxBuffer: 1 << 26 }).toString().trim().split('\n')
query.forEach((q, i) => {
  const ref = {
    full: perft(q.st, DEPTH, 'full'),
    chance: perft(q.viewState, CHANCE_DEPTH, 'chance'),
    view: perft(q.viewState, CHANCE_DEPTH, 'view'),
  }
  const a = jiangOut[2 * i].split(' ')
  const b = jiangOut[2 * i + 1].split(' ')
  const got = { full: Number(a[0]), chance: Number(b[1]), view: Number(b[2]) }
  const same = got.full === ref.full && got.chance === ref.chance && got.view === ref.view
  if (!same) failures++
  const line = `${same ? 'ok  ' : 'DIFF'} full ${q.full} | perft(${DEPTH}) ${ref.full} jiang ${got.full} || view ${q.view} | chance(${CHANCE_DEPTH}) ${ref.chance} jiang ${got.chance} view(${CHANCE_DEPTH}) ${ref.view} jiang ${got.view}`
  lines.push(line)
  console.log(line)
})
if (outFile) writeFileSync(outFile, lines.join('\n') + '\n')
console.log(`${cases.length - failures} passed, ${failures} failed`)
process.exit(failures ? 1 : 0)
