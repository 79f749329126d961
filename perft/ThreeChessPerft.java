// Perft with the ThreeChess reference (drtnf/threeChess, `threeChess.Board`), for
// perft/threechess_crosscheck.py. Our own code: it only calls the reference's public
// Board API (isLegalMove, move, clone, gameOver, getTurn, getPiece) and copies none of it.
//
// The legal moves of a position are the (start, end) pairs that isLegalMove accepts; a
// game is over once a king is captured (gameOver()), and then it has no moves, so
// perft(d) counts the move sequences of exactly d plies (perft(0) = 1).
//
// Build and run against a checkout of the reference:
//   javac -d OUT -cp REF/src perft/ThreeChessPerft.java REF/src/threeChess/*.java
//   java -cp OUT ThreeChessPerft count DEPTH     < lines of moves ("BB2BB4 GG1GF3 ...")
//   java -cp OUT ThreeChessPerft playout SEED PLIES
// `count` answers each input line (an empty line is the start position) with
//   nodes N over K divide MOVE:N MOVE:N ...
// where K is the number of finished games strictly inside the tree (above the last ply).
// `playout` prints the moves of a game of PLIES uniformly random legal moves
// (java.util.Random(SEED)), shorter if a king is captured.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import threeChess.Board;
import threeChess.Piece;
import threeChess.Position;

public class ThreeChessPerft {
  /** Enough milliseconds that no untimed move (time 0) ever runs out. */
  private static final int CLOCK = Integer.MAX_VALUE;

  private static long finishedInside;

  /** Every (start, end) pair isLegalMove accepts; none once the game is over. */
  static List<Position[]> legalMoves(Board b) {
    List<Position[]> moves = new ArrayList<>();
    if (b.gameOver()) return moves;
    for (Position start : Position.values()) {
      Piece p = b.getPiece(start);
      // isLegalMove refuses an empty start or another player's piece: skip them early.
      if (p == null || p.getColour() != b.getTurn()) continue;
      for (Position end : Position.values()) {
        if (b.isLegalMove(start, end)) moves.add(new Position[] {start, end});
      }
    }
    return moves;
  }

  static Board after(Board b, Position[] m) throws Exception {
    Board c = (Board) b.clone();
    c.move(m[0], m[1]);
    return c;
  }

  static long perft(Board b, int depth) throws Exception {
    if (depth == 0) return 1;
    if (b.gameOver()) {
      finishedInside++;
      return 0;
    }
    List<Position[]> moves = legalMoves(b);
    if (depth == 1) return moves.size();
    long n = 0;
    for (Position[] m : moves) n += perft(after(b, m), depth - 1);
    return n;
  }

  static Board play(String line) throws Exception {
    Board b = new Board(CLOCK);
    for (String mv : line.trim().split("\\s+")) {
      if (mv.isEmpty()) continue;
      b.move(Position.valueOf(mv.substring(0, 3)), Position.valueOf(mv.substring(3)));
    }
    return b;
  }

  static String name(Position[] m) {
    return m[0].name() + m[1].name();
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("count")) {
      int depth = Integer.parseInt(args[1]);
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
      String line;
      while ((line = in.readLine()) != null) {
        Board b = play(line);
        finishedInside = 0;
        StringBuilder divide = new StringBuilder();
        long total = depth == 0 ? 1 : 0;
        if (depth > 0) {
          for (Position[] m : legalMoves(b)) {
            long n = perft(after(b, m), depth - 1);
            total += n;
            divide.append(' ').append(name(m)).append(':').append(n);
          }
        }
        System.out.println("nodes " + total + " over " + finishedInside + " divide" + divide);
        System.out.flush();
      }
    } else if (args.length == 3 && args[0].equals("playout")) {
      Random rng = new Random(Long.parseLong(args[1]));
      int plies = Integer.parseInt(args[2]);
      Board b = new Board(CLOCK);
      StringBuilder out = new StringBuilder();
      for (int i = 0; i < plies && !b.gameOver(); i++) {
        List<Position[]> moves = legalMoves(b);
        if (moves.isEmpty()) break;
        Position[] m = moves.get(rng.nextInt(moves.size()));
        b.move(m[0], m[1]);
        out.append(out.length() == 0 ? "" : " ").append(name(m));
      }
      System.out.println(out);
    } else {
      System.err.println("usage: ThreeChessPerft count DEPTH | playout SEED PLIES");
      System.exit(2);
    }
  }
}
