"""Tests of the CS3243 adapter (AB.py) that need no harness: coordinates and FEN, the
fallback generator and jiang's answers on the course's published cases (docs/games.md, Fairy chess).
The engine tests skip when $JIANG (else target/release/jiang) does not play fairychess.

    JIANG=target/release/jiang python3 -m unittest discover -s adapters/cs3243
"""

import io
import os
import sys
import unittest
from contextlib import redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import AB  # noqa: E402

ENGINE = os.environ.get("JIANG") or os.path.join(HERE, "..", "..", "target", "release", "jiang")
os.environ["JIANG"] = ENGINE
os.environ[AB.MOVETIME_ENV] = "1000"

NAMES = {v: k for k, v in AB.LETTERS.items()}

# The course's published cases (docs/games.md, Fairy chess): FEN, White's legal moves.
MOVE_LISTS = {
    "1c2CNk1/rB6/n7/4B3/C1b3N1/cR1Cn1c1/1b6/1C3c1K w - - 0 1":
        "a4a5 a4b4 b1a1 b1c1 b3a3 b3b2 b3b4 b3b5 b3b6 b3c3 b7a6 b7a8 b7c6 b7c8 b7d5 b7e4 b7f3 "
        "b7g2 d3c3 d3c4 d3d2 d3d4 e5b2 e5b8 e5c3 e5c7 e5d4 e5d6 e5f4 e5f6 e5g3 e5g7 e5h8 e8d8 "
        "e8e7 f8d7 f8e6 f8g6 f8h7 g4e3 g4f2 g4f6 g4h2 g4h6 h1g1 h1g2 h1h2",
    "kr1b3s/3S2Sb/2C1N3/1n3c2/2B5/4B1Nn/3R2c1/4KC1s w - - 0 1":
        "c4a2 c4b3 c4b5 c4d3 c4d5 c4e2 c6b5 c6b6 c6c5 c6c7 c6d6 d2a2 d2b2 d2c2 d2d1 d2d3 d2d4 "
        "d2d5 d2d6 d2e2 d2f2 d2g2 d7b7 d7c8 d7d5 d7e8 d7f7 e1d1 e1e2 e1f2 e3a7 e3b6 e3c5 e3d4 "
        "e3f2 e3f4 e3g1 e3g5 e3h6 e6c5 e6c7 e6d4 e6d8 e6f4 e6f8 e6g5 f1f2 f1g1 f1g2 g3e2 g3e4 "
        "g3f5 g3h1 g3h5 g7e7 g7f6 g7f8 g7g5 g7h6 g7h8",
    "k2B2b1/7C/1Cc5/3B1cS1/3s1c2/6C1/1b5R/1KC3rc w - - 0 1":
        "b1a1 b1a2 b1b2 b1c2 b6a6 b6b5 b6b7 c1b2 c1c2 c1d1 d5a2 d5b3 d5c4 d5c6 d5e4 d5e6 d5f3 "
        "d5f7 d5g2 d5g8 d5h1 d8c7 d8e7 d8f6 g3f3 g3f4 g3g2 g3g4 g3h3 g5e5 g5f4 g5f6 g5g7 g5h4 "
        "g5h6 h2b2 h2c2 h2d2 h2e2 h2f2 h2g2 h2h1 h2h3 h2h4 h2h5 h2h6 h7g7 h7g8 h7h6 h7h8",
    "kb5N/1Cc1Cs2/2C4C/4N3/1B6/1c6/1S2c3/1c2n1Kn w - - 0 1":
        "b2a1 b2a3 b2c1 b2c3 b2d2 b4a3 b4a5 b4c3 b4c5 b4d2 b4d6 b4e1 b7a7 b7a8 b7b6 c6b6 c6c5 "
        "c6d6 e5c4 e5d3 e5d7 e5f3 e5f7 e5g4 e5g6 e7d7 e7e6 e7e8 g1f1 g1f2 g1g2 g1h1 g1h2 h6g6 "
        "h6h5 h6h7 h8f7 h8g6",
}

# Best-move cases with the course's answers.
BEST = {
    "5C2/1R2CkCS/5C2/8/3r4/2K5/5R2/b2b4 w - - 0 1": "h7f7",
    "k7/8/8/8/8/1R6/1R3rr1/7K w - - 0 1": "b3a3",
    "4k3/4C3/3K1C2/8/8/8/8/c7 w - - 0 1": "d6e6",
    "4k3/8/2SK4/8/4r3/8/8/8 w - - 0 1": "c6e6",
    "2R5/2K5/8/r7/8/8/2k1r3/8 w - - 0 1": "c7b6",
}


def gameboard_of(fen):
    board = []
    for r, rank in enumerate(fen.split()[0].split("/")):
        c = 0
        for ch in rank:
            if ch.isdigit():
                c += int(ch)
                continue
            board.append((NAMES[ch.upper()], "white" if ch.isupper() else "black", (r, c)))
            c += 1
    return board


def texts(moves):
    return sorted(AB.move_text(m) for m in moves)


def plays_fairychess():
    try:
        engine = AB.Engine(ENGINE)
    except (AB.EngineError, OSError):
        return False
    engine.close()
    return True


class Translation(unittest.TestCase):
    def test_course_squares(self):
        self.assertEqual(AB.square((7, 7)), "h1")
        self.assertEqual(AB.square((0, 0)), "a8")
        self.assertEqual(AB.move_of("h7f7"), ((1, 7), (1, 5)))
        for text in ["a1h8", "h8a1", "e2e4"]:
            self.assertEqual(AB.move_text(AB.move_of(text)), text)
        for bad in ["", "(none)", "i1a1", "a9a1", "a1a"]:
            self.assertIsNone(AB.move_of(bad))

    def test_the_course_gameboard_is_the_fen(self):
        # Case m3_1 as the course writes it (Project3_PublicTestCases.py).
        m3_1 = [("King", "white", (7, 7)), ("King", "black", (0, 0)), ("Rook", "white", (6, 1)),
                ("Rook", "white", (5, 1)), ("Rook", "black", (6, 5)), ("Rook", "black", (6, 6))]
        self.assertEqual(AB.board_fen(m3_1, "white"), "k7/8/8/8/8/1R6/1R3rr1/7K w - - 0 1")
        self.assertEqual(AB.board_fen(m3_1, "black"), "k7/8/8/8/8/1R6/1R3rr1/7K b - - 0 1")
        for fen in list(MOVE_LISTS) + list(BEST):
            self.assertEqual(AB.board_fen(gameboard_of(fen), "white"), fen)

    def test_the_fallback_generator_lists_the_courses_moves(self):
        for fen, moves in MOVE_LISTS.items():
            self.assertEqual(texts(AB.python_legal_moves(gameboard_of(fen), "white")), moves.split(), fen)

    def test_the_fallback_takes_a_king(self):
        board = gameboard_of("5C2/1R2CkCS/5C2/8/3r4/2K5/5R2/b2b4 w - - 0 1")
        with redirect_stderr(io.StringIO()):
            self.assertEqual(AB.fallback_move(board, "white"), AB.move_of("h7f7"))


class WithEngine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not plays_fairychess():
            raise unittest.SkipTest(f"{ENGINE} does not play fairychess (not built, or a jiang before it)")
        AB._engine = None

    @classmethod
    def tearDownClass(cls):
        if AB._engine is not None:
            AB._engine.close()
            AB._engine = None

    def test_jiang_lists_the_courses_moves(self):
        for fen, moves in MOVE_LISTS.items():
            with redirect_stderr(io.StringIO()) as err:
                got = AB.get_legal_moves(gameboard_of(fen), "white")
            self.assertEqual(texts(got), moves.split(), fen)
            self.assertEqual(err.getvalue(), "")

    def test_jiang_finds_the_courses_best_moves(self):
        for fen, best in BEST.items():
            with redirect_stderr(io.StringIO()) as err:
                move = AB.studentAgent(gameboard_of(fen))
            self.assertEqual(move, AB.move_of(best), fen)
            self.assertEqual(err.getvalue(), "")

    def test_a_kings_only_board_still_lists_the_kings_moves(self):
        board = gameboard_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
        self.assertEqual(texts(AB.get_legal_moves(board, "white")), "e1d1 e1d2 e1e2 e1f1 e1f2".split())


class WithoutEngine(unittest.TestCase):
    def test_a_missing_engine_falls_back(self):
        saved, AB._engine = AB._engine, None
        os.environ["JIANG"] = os.path.join(HERE, "no-such-jiang")
        try:
            with redirect_stderr(io.StringIO()) as err:
                move = AB.studentAgent(gameboard_of("5C2/1R2CkCS/5C2/8/3r4/2K5/5R2/b2b4 w - - 0 1"))
        finally:
            os.environ["JIANG"] = ENGINE
            AB._engine = saved
        self.assertEqual(move, AB.move_of("h7f7"))
        self.assertIn("cannot start jiang", err.getvalue())


if __name__ == "__main__":
    unittest.main()
