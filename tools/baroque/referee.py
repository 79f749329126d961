#!/usr/bin/env python3
"""An independent Baroque chess referee, written plainly from the rule book
(docs/games.md, "The Baroque rule book": sections 5-12 and decisions D1-D16).

It does not share code or structure with jiang's Rust generator: it is a mailbox that,
for every candidate move, builds the board after the move and looks for captures on it,
exactly as section 7.0 words it ("evaluated on the board after the moving piece has left
its start square ... and before any piece is removed").

Usage:
  referee.py examples [FILE]        check the worked examples (default: tests/baroque_examples.txt)
  referee.py perft DEPTH [FEN]      leaf count (default: the start position)
  referee.py moves FEN              the sorted legal moves of FEN
  referee.py crosscheck N SEED      write N positions with moves, perft 2 and a hash of the
                                    results (the format tests/baroque.rs reads)
"""

import random
import sys

FILES = "abcdefgh"
START_FEN = "cliwkilf/pppppppp/8/8/8/8/PPPPPPPP/FLIWKILC w - - 0 1"
ALL_DIRS = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)]
ORTHOGONAL = ALL_DIRS[:4]
MOVE_LIMIT = 5000


def colour_of(piece):
    """'w' for an upper-case letter, 'b' for lower case."""
    return "w" if piece.isupper() else "b"


def on_board(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def square_name(f, r):
    return FILES[f] + str(r + 1)


class Position:
    """board[r][f], r = 0 for rank 1; each entry is a FEN letter or None."""

    def __init__(self, board, side, halfmove=0, fullmove=1):
        self.board = board
        self.side = side
        self.halfmove = halfmove
        self.fullmove = fullmove

    @staticmethod
    def from_fen(fen):
        fields = fen.split()
        rows = fields[0].split("/")
        if len(rows) != 8:
            raise ValueError("need 8 ranks")
        board = [[None] * 8 for _ in range(8)]
        kings = {"w": 0, "b": 0}
        for i, row in enumerate(rows):
            r = 7 - i
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                    continue
                if ch.upper() not in "PCLIWKF":
                    raise ValueError("unknown piece " + ch)
                if f >= 8:
                    raise ValueError("rank too long")
                board[r][f] = ch
                if ch.upper() == "K":
                    kings[colour_of(ch)] += 1
                f += 1
            if f != 8:
                raise ValueError("rank of wrong length")
        if max(kings.values()) > 1:
            raise ValueError("two kings of one colour")
        side = fields[1] if len(fields) > 1 else "w"
        half = int(fields[4]) if len(fields) > 5 else 0
        full = int(fields[5]) if len(fields) > 5 else 1
        return Position(board, side, half, full)

    def fen(self):
        rows = []
        for r in range(7, -1, -1):
            s, empty = "", 0
            for f in range(8):
                p = self.board[r][f]
                if p is None:
                    empty += 1
                else:
                    if empty:
                        s += str(empty)
                        empty = 0
                    s += p
            if empty:
                s += str(empty)
            rows.append(s)
        return "/".join(rows) + " %s - - %d %d" % (self.side, self.halfmove, self.fullmove)

    def copy(self):
        return Position([row[:] for row in self.board], self.side, self.halfmove, self.fullmove)

    def find_king(self, colour):
        letter = "K" if colour == "w" else "k"
        for r in range(8):
            for f in range(8):
                if self.board[r][f] == letter:
                    return (f, r)
        return None

    def plies_played(self):
        return 2 * (self.fullmove - 1) + (1 if self.side == "b" else 0)


def is_frozen(board, f, r):
    """Section 6: next to an enemy freezer; or a freezer next to an enemy imitator."""
    piece = board[r][f]
    me = colour_of(piece)
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if df == 0 and dr == 0:
                continue
            nf, nr = f + df, r + dr
            if not on_board(nf, nr):
                continue
            other = board[nr][nf]
            if other is None or colour_of(other) == me:
                continue
            if other.upper() == "F":
                return True
            if piece.upper() == "F" and other.upper() == "I":
                return True
    return False


class Move:
    """A move: from, to, the squares it captures, and the imitated method (or None)."""

    def __init__(self, frm, to, captured, method=None):
        self.frm = frm
        self.to = to
        self.captured = captured
        self.method = method
        self.text = None

    def __repr__(self):
        return self.text or "%s%s" % (square_name(*self.frm), square_name(*self.to))


def enemy_at(board, f, r, me, kinds=None):
    if not on_board(f, r):
        return False
    p = board[r][f]
    if p is None or colour_of(p) == me:
        return False
    return kinds is None or p.upper() in kinds


def friend_at(board, f, r, me):
    if not on_board(f, r):
        return False
    p = board[r][f]
    return p is not None and colour_of(p) == me


def custodial(after, to, me, kinds):
    """7.1: enemy (of kinds) next to `to` orthogonally with a friend just beyond."""
    got = []
    tf, tr = to
    for df, dr in ORTHOGONAL:
        if enemy_at(after, tf + df, tr + dr, me, kinds) and friend_at(after, tf + 2 * df, tr + 2 * dr, me):
            got.append((tf + df, tr + dr))
    return got


def coordination(after, to, me, kinds):
    """7.4: corners of the rectangle formed with the own king."""
    king = "K" if me == "w" else "k"
    kf = kr = None
    for r in range(8):
        for f in range(8):
            if after[r][f] == king:
                kf, kr = f, r
    if kf is None:
        return []
    got = []
    for cf, cr in ((kf, to[1]), (to[0], kr)):
        if enemy_at(after, cf, cr, me, kinds) and (cf, cr) not in got:
            got.append((cf, cr))
    return got


def withdrawal(after, frm, d, me, kinds):
    """7.2: the enemy directly behind the start square."""
    bf, br = frm[0] - d[0], frm[1] - d[1]
    if enemy_at(after, bf, br, me, kinds):
        return [(bf, br)]
    return []


def generate(pos):
    """Section 12: every legal move of the side to move, with notation."""
    board = pos.board
    me = pos.side
    if pos.find_king("w") is None or pos.find_king("b") is None:
        return []
    moves = []
    for r in range(8):
        for f in range(8):
            piece = board[r][f]
            if piece is None or colour_of(piece) != me or is_frozen(board, f, r):
                continue
            kind = piece.upper()
            frm = (f, r)
            if kind == "K":
                for df, dr in ALL_DIRS:
                    nf, nr = f + df, r + dr
                    if not on_board(nf, nr) or friend_at(board, nf, nr, me):
                        continue
                    captured = [(nf, nr)] if board[nr][nf] is not None else []
                    moves.append(Move(frm, (nf, nr), captured))
                continue
            dirs = ORTHOGONAL if kind == "P" else ALL_DIRS
            for d in dirs:
                nf, nr = f + d[0], r + d[1]
                while on_board(nf, nr) and board[nr][nf] is None:
                    to = (nf, nr)
                    after = [row[:] for row in board]
                    after[r][f] = None
                    after[nr][nf] = piece
                    if kind == "P":
                        moves.append(Move(frm, to, custodial(after, to, me, None)))
                    elif kind == "C":
                        moves.append(Move(frm, to, coordination(after, to, me, None)))
                    elif kind == "W":
                        moves.append(Move(frm, to, withdrawal(after, frm, d, me, None)))
                    elif kind in "LF":
                        moves.append(Move(frm, to, []))
                    elif kind == "I":
                        found = False
                        options = [
                            ("p", custodial(after, to, me, "P") if d in ORTHOGONAL else []),
                            ("c", coordination(after, to, me, "C")),
                            ("w", withdrawal(after, frm, d, me, "W")),
                        ]
                        for method, victims in options:
                            if victims:
                                moves.append(Move(frm, to, victims, method))
                                found = True
                        if not found:
                            moves.append(Move(frm, to, []))
                    nf, nr = nf + d[0], nr + d[1]
                # The slide stopped at (nf, nr): the leaper's jump (7.3, D1).
                if on_board(nf, nr):
                    victims = None
                    if kind == "L":
                        victims = None if not enemy_at(board, nf, nr, me) else [(nf, nr)]
                    elif kind == "I":
                        victims = None if not enemy_at(board, nf, nr, me, "L") else [(nf, nr)]
                    if victims:
                        lf, lr = nf + d[0], nr + d[1]
                        if on_board(lf, lr) and board[lr][lf] is None:
                            moves.append(Move(frm, (lf, lr), victims, "l" if kind == "I" else None))
            if kind == "I":
                for df, dr in ALL_DIRS:
                    nf, nr = f + df, r + dr
                    if enemy_at(board, nf, nr, me, "K"):
                        moves.append(Move(frm, (nf, nr), [(nf, nr)], "k"))
    # Section 11: the suffix only where a from/to pair occurs more than once.
    pairs = {}
    for m in moves:
        pairs[(m.frm, m.to)] = pairs.get((m.frm, m.to), 0) + 1
    for m in moves:
        m.text = square_name(*m.frm) + square_name(*m.to)
        if pairs[(m.frm, m.to)] > 1:
            m.text += m.method
    return moves


def apply(pos, move):
    """Section 12 step 4: the position after `move`."""
    nxt = pos.copy()
    piece = nxt.board[move.frm[1]][move.frm[0]]
    for f, r in move.captured:
        nxt.board[r][f] = None
    nxt.board[move.frm[1]][move.frm[0]] = None
    nxt.board[move.to[1]][move.to[0]] = piece
    nxt.halfmove = 0 if move.captured else pos.halfmove + 1
    if pos.side == "b":
        nxt.fullmove += 1
    nxt.side = "b" if pos.side == "w" else "w"
    return nxt


def result(pos, moves=None):
    """Section 9: ('1-0'|'0-1'|'1/2-1/2', reason) or None while the game goes on."""
    wk, bk = pos.find_king("w"), pos.find_king("b")
    if wk is None and bk is None:
        return ("1/2-1/2", "no kings")
    if bk is None:
        return ("1-0", "White captures the king")
    if wk is None:
        return ("0-1", "Black captures the king")
    if pos.plies_played() >= MOVE_LIMIT:
        return ("1/2-1/2", "5000-ply limit")
    if moves is None:
        moves = generate(pos)
    if not moves:
        side = "White" if pos.side == "w" else "Black"
        return ("1/2-1/2", side + " has no legal move: draw")
    return None


def frozen_squares(pos):
    out = []
    for r in range(8):
        for f in range(8):
            if pos.board[r][f] is not None and is_frozen(pos.board, f, r):
                out.append(square_name(f, r))
    return sorted(out)


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = generate(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(pos, m), depth - 1) for m in moves)


def find_move(pos, text, moves=None):
    for m in moves if moves is not None else generate(pos):
        if m.text == text:
            return m
    return None


def check_examples(path):
    """Runs the worked examples' block format; returns the number of failures."""
    failures = 0
    checks = 0
    base = current = None
    example = ""
    for lineno, raw in enumerate(open(path), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        where = "line %d (%s)" % (lineno, example)

        def fail(msg):
            nonlocal failures
            failures += 1
            print("FAIL %s: %s" % (where, msg))

        if key == "example":
            example = value
        elif key == "fen":
            base = current = Position.from_fen(value)
            if base.fen() != value:
                fail("fen round trip %s" % base.fen())
        elif key == "frozen":
            checks += 1
            if frozen_squares(base) != value.split():
                fail("frozen %s" % frozen_squares(base))
        elif key == "moves":
            checks += 1
            got = sorted(m.text for m in generate(base))
            if got != value.split():
                fail("moves %s" % " ".join(got))
        elif key == "count":
            checks += 1
            if len(generate(base)) != int(value):
                fail("count %d" % len(generate(base)))
        elif key == "move":
            m = find_move(base, value)
            if m is None:
                fail("move %s not legal" % value)
                current = None
            else:
                current = apply(base, m)
        elif key == "result":
            checks += 1
            if current is None or current.fen() != value:
                fail("result %s" % (current.fen() if current else None))
        elif key == "outcome":
            checks += 1
            res = result(current)
            want = {"white wins": "1-0", "black wins": "0-1", "draw (no legal move)": "1/2-1/2"}[value]
            if res is None or res[0] != want:
                fail("outcome %s" % (res,))
        else:
            fail("unknown key " + key)
    print("%d checks, %d failures" % (checks, failures))
    return failures


def fnv1a(text):
    """64-bit FNV-1a of a string (the Rust test computes the same)."""
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def random_setup(rng):
    """Random material (both kings, a few of each kind) on random squares."""
    squares = [(f, r) for r in range(8) for f in range(8)]
    rng.shuffle(squares)
    board = [[None] * 8 for _ in range(8)]
    pieces = ["K", "k"]
    for letter in "PCLIWF":
        for colour_letter in (letter, letter.lower()):
            most = 4 if letter == "P" else 2
            pieces += [colour_letter] * rng.randint(0, most)
    for p, (f, r) in zip(pieces, squares):
        board[r][f] = p
    return Position(board, rng.choice("wb"), rng.randint(0, 20), rng.randint(1, 60))


def crosscheck(n, seed):
    """Positions for tests/baroque_referee.txt: random set-ups, random set-ups with an
    imitator move that fits several methods, and positions from random games, each with its sorted moves, perft 2, and a hash of every move's result FEN."""
    rng = random.Random(seed)
    print("# Written by tools/baroque/referee.py crosscheck %d %d (the independent Python" % (n, seed))
    print("# referee). Per position: fen; moves (sorted); perft2; results = FNV-1a 64 of the")
    print("# sorted lines 'move resultfen' joined by newlines.")
    made = 0
    while made < n:
        if made % 4 == 0:
            pos = random_setup(rng)
        elif made % 4 == 1:
            # A set-up where one imitator move fits several methods (D2), so that the
            # suffixed notation is checked too.
            while True:
                pos = random_setup(rng)
                if any(len(m.text) == 5 for m in generate(pos)):
                    break
        else:
            pos = Position.from_fen(START_FEN)
            for _ in range(rng.randint(0, 120)):
                ms = generate(pos)
                if not ms:
                    break
                pos = apply(pos, rng.choice(ms))
        moves = generate(pos)
        if len(moves) > 200:
            continue
        lines = sorted("%s %s" % (m.text, apply(pos, m).fen()) for m in moves)
        print()
        print("fen " + pos.fen())
        print("moves " + " ".join(sorted(m.text for m in moves)))
        print("perft2 %d" % sum(len(generate(apply(pos, m))) for m in moves))
        print("results %016x" % fnv1a("\n".join(lines)))
        made += 1


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd = argv[1]
    if cmd == "examples":
        path = argv[2] if len(argv) > 2 else "tests/baroque_examples.txt"
        return 1 if check_examples(path) else 0
    if cmd == "perft":
        depth = int(argv[2])
        fen = " ".join(argv[3:]) or START_FEN
        print(perft(Position.from_fen(fen), depth))
        return 0
    if cmd == "moves":
        pos = Position.from_fen(" ".join(argv[2:]))
        print(" ".join(sorted(m.text for m in generate(pos))))
        return 0
    if cmd == "crosscheck":
        crosscheck(int(argv[2]), int(argv[3]))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
